package com.llmserve.app.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.mockito.Mockito.when;

import com.llmserve.app.ScriptedModel;
import com.llmserve.app.TestModels;
import com.llmserve.app.models.ModelRegistry;
import com.llmserve.engine.sched.FinishReason;
import java.io.InputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A client that closes its connection before its answer is complete cancels the generation, over
 * a real socket, streaming or not. The model is scripted to emit one word and then stay silent for
 * a minute, so only a cancellation can end the request within the test's wait: a stream finds the
 * client gone at its next keep-alive, a non-streaming answer at its next space.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "llmserve.models-dir=" + TestModels.DIR,
            "llmserve.scan-models-dir=false",
            "llmserve.api.keep-alive-interval=200ms"
        })
class ClientDisconnectIntegrationTests {

    private static final String COMPLETION = "\"prompt\":\"Once upon a time\"";
    private static final String CHAT = "\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]";

    @LocalServerPort
    int port;

    @MockitoBean
    ModelRegistry registry;

    final ScriptedModel fake = new ScriptedModel("fake");
    final JsonMapper json = JsonMapper.builder().build();

    @BeforeEach
    void serveTheFake() {
        when(registry.textModel("fake")).thenReturn(fake.model());
    }

    @ParameterizedTest
    @CsvSource({
        "/v1/completions, '" + COMPLETION + "', false",
        "/v1/completions, '" + COMPLETION + "', true",
        "/v1/chat/completions, '" + CHAT + "', false",
        "/v1/chat/completions, '" + CHAT + "', true"
    })
    void aClientThatLeavesCancelsItsGeneration(String path, String input, boolean stream) throws Exception {
        fake.play(
                new ScriptedModel.Text(0, " Once"),
                new ScriptedModel.Pause(Duration.ofMinutes(1)),
                new ScriptedModel.Finish(0, FinishReason.LENGTH));
        String body = "{\"model\":\"fake\"," + input + ",\"max_tokens\":100,\"stream\":" + stream + "}";
        try (Socket socket = new Socket("localhost", port)) {
            socket.getOutputStream()
                    .write(("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                                    + "Content-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n"
                                    + body)
                            .getBytes(StandardCharsets.UTF_8));
            // the answer has begun: the first event of a stream, the first space of a plain answer
            InputStream in = socket.getInputStream();
            String marker = stream ? "data: " : "\r\n\r\n";
            StringBuilder received = new StringBuilder();
            byte[] buffer = new byte[4096];
            while (!received.toString().contains(marker)) {
                int n = in.read(buffer);
                assertThat(n).as("the start of the answer").isPositive();
                received.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
            }
            assertThat(received.toString()).startsWith("HTTP/1.1 200");
            assertThat(fake.cancelled())
                    .as("cancelled while the client is still there")
                    .isFalse();
        }
        await().atMost(Duration.ofSeconds(10)).until(fake::cancelled);
    }

    @Test
    void aSlowAnswerIsStillOneJsonDocumentAfterItsSpaces() throws Exception {
        fake.play(
                new ScriptedModel.Text(0, " Once"),
                new ScriptedModel.Pause(Duration.ofMillis(700)),
                new ScriptedModel.Text(0, " upon"),
                new ScriptedModel.Finish(0, FinishReason.STOP));
        HttpResponse<String> r = new Http(port).post("/v1/chat/completions", "{\"model\":\"fake\"," + CHAT + "}");

        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type"))
                .hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
        assertThat(r.body()).as("spaces were sent while the model was silent").startsWith(" ");
        JsonNode answer = json.readTree(r.body());
        assertThat(answer.at("/choices/0/message/content").asString()).isEqualTo(" Once upon");
        assertThat(answer.at("/choices/0/finish_reason").asString()).isEqualTo("stop");
        assertThat(fake.cancelled()).isFalse();
    }

    @Test
    void aFailureAfterTheSpacesIsAnsweredWithTheErrorEnvelope() throws Exception {
        fake.play(
                new ScriptedModel.Text(0, " Once"),
                new ScriptedModel.Pause(Duration.ofMillis(700)),
                new ScriptedModel.Fail(new IllegalStateException("the device failed")));
        HttpResponse<String> r = new Http(port).post("/v1/completions", "{\"model\":\"fake\"," + COMPLETION + "}");

        assertThat(r.statusCode())
                .as("the status went out with the first space")
                .isEqualTo(200);
        JsonNode answer = json.readTree(r.body());
        assertThat(answer.has("choices")).isFalse();
        assertThat(answer.at("/error/type").asString()).isNotEmpty();
    }
}
