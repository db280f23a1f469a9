package com.llmserve.app.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.mockito.Mockito.when;

import com.llmserve.app.ScriptedModel;
import com.llmserve.app.TestModels;
import com.llmserve.app.models.ModelRegistry;
import com.llmserve.engine.sched.FinishReason;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.bean.override.mockito.MockitoBean;

/**
 * A non-streaming client that leaves is noticed within about a second, without anything written to
 * it: the keep-alive interval here is a minute, so no space goes out, and only the connection
 * probe can tell. Closed normally (FIN, which a first write would not even notice) or reset, and
 * with the answer's status not yet sent. A client that stays is left alone.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "llmserve.models-dir=" + TestModels.DIR,
            "llmserve.scan-models-dir=false",
            "llmserve.api.keep-alive-interval=60s"
        })
class ClientDepartureIntegrationTests {

    @LocalServerPort
    int port;

    @MockitoBean
    ModelRegistry registry;

    final ScriptedModel fake = new ScriptedModel("fake");

    @BeforeEach
    void serveTheFake() {
        when(registry.textModel("fake")).thenReturn(fake.model());
        fake.play(
                new ScriptedModel.Text(0, " Once"),
                new ScriptedModel.Pause(Duration.ofMinutes(1)),
                new ScriptedModel.Finish(0, FinishReason.LENGTH));
    }

    private Socket send(String path, String body) throws Exception {
        Socket socket = new Socket("localhost", port);
        socket.getOutputStream()
                .write(("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                                + "Content-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n"
                                + body)
                        .getBytes(StandardCharsets.UTF_8));
        socket.getOutputStream().flush();
        await().atMost(Duration.ofSeconds(10)).until(() -> !fake.requests().isEmpty());
        return socket;
    }

    @ParameterizedTest
    @CsvSource({
        "/v1/completions, '\"prompt\":\"Once upon a time\"', false",
        "/v1/chat/completions, '\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]', false",
        "/v1/responses, '\"input\":\"Hi\"', false",
        "/v1/chat/completions, '\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]', true"
    })
    void aClientThatClosesOrResetsIsNoticedWithinAboutASecond(String path, String input, boolean reset)
            throws Exception {
        Socket socket = send(
                path,
                "{\"model\":\"fake\"," + input
                        + ",\"max_tokens\":100}"
                                .replace(
                                        "\"max_tokens\"",
                                        path.equals("/v1/responses") ? "\"max_output_tokens\"" : "\"max_tokens\""));
        Thread.sleep(200);
        assertThat(fake.cancelled())
                .as("cancelled while the client is still there")
                .isFalse();
        if (reset) {
            socket.setSoLinger(true, 0); // close with RST
        }
        long closed = System.nanoTime();
        socket.close();

        await().atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(20))
                .until(fake::cancelled);
        Duration noticed = Duration.ofNanos(System.nanoTime() - closed);
        System.out.printf(
                "%s %s: the departure was noticed after %d ms%n", path, reset ? "reset" : "close", noticed.toMillis());
        assertThat(noticed).isLessThan(Duration.ofSeconds(3));
    }

    @ParameterizedTest
    @CsvSource({"/v1/chat/completions, '\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]'"})
    void aClientThatStaysIsLeftAlone(String path, String input) throws Exception {
        try (Socket socket = send(path, "{\"model\":\"fake\"," + input + ",\"max_tokens\":100}")) {
            Thread.sleep(2000); // four probes
            assertThat(fake.cancelled()).isFalse();
        }
    }
}
