package com.llmserve.app.it;

import com.llmserve.app.ScriptedModel;
import com.llmserve.app.TestModels;
import com.llmserve.app.models.ModelRegistry;
import com.llmserve.engine.sched.FinishReason;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.bean.override.mockito.MockitoBean;

import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.mockito.Mockito.when;

/**
 * A streaming client that closes its connection before its answer is complete cancels the
 * generation, over a real socket. The model is scripted to emit one word and then stay silent for
 * a minute: the stream's next keep-alive finds the client gone, and only that cancellation can end
 * the request within the test's wait. (A non-streaming client that leaves is not noticed: Tomcat
 * does not watch the connection of a request that is not reading or writing; its generation runs
 * to its end or its timeout.)
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "llmserve.models-dir=" + TestModels.DIR,
        "llmserve.scan-models-dir=false",
        "llmserve.api.keep-alive-interval=200ms"})
class ClientDisconnectIntegrationTests {

    @LocalServerPort
    int port;

    @MockitoBean
    ModelRegistry registry;

    final ScriptedModel fake = new ScriptedModel("fake");

    @BeforeEach
    void serveTheFake() {
        when(registry.textModel("fake")).thenReturn(fake.model());
        fake.play(new ScriptedModel.Text(0, " Once"), new ScriptedModel.Pause(Duration.ofMinutes(1)),
                new ScriptedModel.Finish(0, FinishReason.LENGTH));
    }

    @ParameterizedTest
    @CsvSource({
        "/v1/completions, '\"prompt\":\"Once upon a time\"'",
        "/v1/chat/completions, '\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]'"})
    void aStreamingClientThatLeavesCancelsItsGeneration(String path, String input) throws Exception {
        String body = "{\"model\":\"fake\"," + input + ",\"max_tokens\":100,\"stream\":true}";
        try (Socket socket = new Socket("localhost", port)) {
            socket.getOutputStream().write(("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body)
                    .getBytes(StandardCharsets.UTF_8));
            await().atMost(Duration.ofSeconds(10)).until(() -> !fake.requests().isEmpty());
            InputStream in = socket.getInputStream();
            StringBuilder received = new StringBuilder();
            byte[] buffer = new byte[4096];
            while (!received.toString().contains("data: ")) {
                int n = in.read(buffer);
                assertThat(n).as("the stream's first event").isPositive();
                received.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
            }
            assertThat(fake.cancelled()).as("cancelled while the client is still there").isFalse();
        }
        await().atMost(Duration.ofSeconds(10)).until(fake::cancelled);
    }
}
