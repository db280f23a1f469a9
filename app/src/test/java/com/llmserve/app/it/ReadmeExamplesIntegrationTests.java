package com.llmserve.app.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.llmserve.app.models.ModelRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The README's curl examples, run as written with bash and curl against the running service (only
 * the port differs): each exits 0 and answers JSON without an error, or a stream that ends with
 * {@code [DONE]}.
 */
@ServiceTest
class ReadmeExamplesIntegrationTests {

    private static final Pattern BLOCK = Pattern.compile("```sh\\n(.*?)```", Pattern.DOTALL);

    @LocalServerPort
    int port;

    @Autowired
    ModelRegistry registry;

    final JsonMapper json = JsonMapper.builder().build();

    @BeforeEach
    void ready() throws InterruptedException {
        ModelsReady.await(registry);
    }

    static Path readme() {
        String configured = System.getProperty("llmserve.readme");
        return configured != null ? Path.of(configured) : Path.of("..", "README.md");
    }

    static Stream<String> examples() throws IOException {
        List<String> commands = new ArrayList<>();
        Matcher m = BLOCK.matcher(Files.readString(readme()));
        while (m.find()) {
            if (m.group(1).startsWith("curl ")) {
                commands.add(m.group(1).strip());
            }
        }
        return commands.stream();
    }

    @Test
    void theReadmeShowsAnExampleOfEveryEndpoint() throws IOException {
        List<String> commands = examples().toList();
        for (String path : List.of(
                "/v1/models",
                "/v1/completions",
                "/v1/chat/completions",
                "/v1/responses",
                "/v1/embeddings",
                "/tokenize",
                "/detokenize",
                "/actuator/health/readiness")) {
            assertThat(commands).as(path).anyMatch(c -> c.contains("localhost:8080" + path));
        }
        assertThat(commands).anyMatch(c -> c.contains("\"stream\": true"));
        assertThat(Files.readString(readme())).contains("bash scripts/test.sh").contains("bash scripts/run.sh");
    }

    @ParameterizedTest
    @MethodSource("examples")
    void theExampleWorksAsWritten(String command) throws Exception {
        assumeTrue(onPath("curl"), "curl is not installed");
        Process p = new ProcessBuilder("bash", "-c", command.replace("localhost:8080", "localhost:" + port))
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();

        assertThat(p.exitValue()).as(out).isZero();
        if (out.startsWith("data: ")) {
            assertThat(out).endsWith("data: [DONE]\n\n").doesNotContain("\"error\"");
        } else if (out.startsWith("event: ")) {
            // the Responses API's stream: named events, the last one the response's end
            String last = out.substring(out.lastIndexOf("event: "));
            assertThat(out).startsWith("event: response.created\n").doesNotContain("response.failed");
            assertThat(last).matches("(?s)event: response\\.(completed|incomplete)\n.*");
        } else {
            JsonNode body = json.readTree(out);
            assertThat(body.has("error")).as(out).isFalse();
        }
    }

    private static boolean onPath(String tool) {
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(":"))
                .anyMatch(dir -> Files.isExecutable(Path.of(dir, tool)));
    }
}
