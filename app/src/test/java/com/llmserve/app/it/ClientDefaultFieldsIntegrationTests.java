package com.llmserve.app.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.llmserve.app.TestModels;
import com.llmserve.app.models.ModelRegistry;
import java.net.http.HttpResponse;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The request bodies OpenAI clients send by default (docs/openai-api.md lists them; the clients
 * module records them from the Java libraries themselves) are answered 200, and every field in
 * them is one the service knows: none is ignored as unknown. The service runs with the default
 * policy, {@code llmserve.api.unknown-fields=warn}, under which an unknown field is answered and
 * logged once.
 */
@ServiceTest
@ExtendWith(OutputCaptureExtension.class)
class ClientDefaultFieldsIntegrationTests {

    private static final String T = TestModels.TEXT;
    private static final String E = TestModels.EMBEDDING;
    private static final String CHAT = "/v1/chat/completions";
    private static final String RESPONSES = "/v1/responses";
    private static final String MESSAGES = "\"messages\":[{\"role\":\"user\",\"content\":\"Once upon a time\"}]";

    @LocalServerPort
    int port;

    @Autowired
    ModelRegistry registry;

    @BeforeEach
    void ready() throws InterruptedException {
        ModelsReady.await(registry);
    }

    /**
     * One body per distinct default field set, named by the clients that send it; {@code max_tokens}
     * is added to the generating ones to keep them short (it is a known field).
     */
    static Stream<Arguments> defaultBodies() {
        return Stream.of(
                arguments(
                        "chat: openai-java, Spring AI, openai-python create, openai-node create",
                        CHAT,
                        "{\"model\":\"" + T + "\"," + MESSAGES + ",\"max_tokens\":4}"),
                arguments(
                        "chat: LangChain4j, openai-python parse",
                        CHAT,
                        "{\"model\":\"" + T + "\"," + MESSAGES + ",\"stream\":false,\"max_tokens\":4}"),
                arguments(
                        "streaming chat: openai-java, openai-python and openai-node stream helpers",
                        CHAT,
                        "{\"model\":\"" + T + "\"," + MESSAGES + ",\"stream\":true,\"max_tokens\":4}"),
                arguments(
                        "streaming chat: Spring AI, LangChain4j",
                        CHAT,
                        "{\"model\":\"" + T + "\"," + MESSAGES
                                + ",\"stream\":true,\"stream_options\":{\"include_usage\":true},\"max_tokens\":4}"),
                arguments(
                        "streaming chat: Spring AI with stream options set",
                        CHAT,
                        "{\"model\":\"" + T + "\"," + MESSAGES + ",\"stream\":true,\"stream_options\":"
                                + "{\"include_obfuscation\":false,\"include_usage\":true},\"max_tokens\":4}"),
                arguments(
                        "responses: openai-java, openai-python create, openai-node create",
                        RESPONSES,
                        "{\"model\":\"" + T + "\",\"input\":\"Once upon a time\",\"max_output_tokens\":4}"),
                arguments(
                        "streaming responses: openai-java, openai-python and openai-node stream helpers",
                        RESPONSES,
                        "{\"model\":\"" + T + "\",\"input\":\"Once upon a time\",\"stream\":true,"
                                + "\"max_output_tokens\":4}"),
                arguments(
                        "responses: LangChain4j",
                        RESPONSES,
                        "{\"model\":\"" + T + "\",\"input\":[{\"type\":\"message\",\"role\":\"user\",\"content\":"
                                + "[{\"type\":\"input_text\",\"text\":\"Once upon a time\"}]}],\"stream\":false,"
                                + "\"store\":false,\"max_output_tokens\":4}"),
                arguments(
                        "responses: every field accepted without effect",
                        RESPONSES,
                        "{\"model\":\"" + T + "\",\"input\":\"Once upon a time\",\"max_output_tokens\":4,"
                                + "\"store\":false,\"metadata\":{\"team\":\"a\"},\"service_tier\":\"auto\","
                                + "\"user\":\"u\",\"safety_identifier\":\"s\",\"prompt_cache_key\":\"k\","
                                + "\"prompt_cache_retention\":\"in_memory\",\"reasoning\":{\"effort\":\"low\","
                                + "\"summary\":\"auto\"},\"include\":[\"reasoning.encrypted_content\"],"
                                + "\"truncation\":\"disabled\",\"parallel_tool_calls\":true,\"background\":false,"
                                + "\"text\":{\"format\":{\"type\":\"text\"},\"verbosity\":\"medium\"}}"),
                arguments(
                        "completions: openai-java, openai-python, openai-node",
                        "/v1/completions",
                        "{\"model\":\"" + T + "\",\"prompt\":\"Once upon a time\",\"max_tokens\":4}"),
                arguments(
                        "completions: LangChain4j",
                        "/v1/completions",
                        "{\"model\":\"" + T + "\",\"prompt\":\"Once upon a time\",\"stream\":false,\"max_tokens\":4}"),
                arguments(
                        "embeddings: openai-java, openai-python, openai-node",
                        "/v1/embeddings",
                        "{\"model\":\"" + E + "\",\"input\":\"Once upon a time\",\"encoding_format\":\"base64\"}"),
                arguments(
                        "embeddings: Spring AI",
                        "/v1/embeddings",
                        "{\"model\":\"" + E + "\",\"input\":[\"Once upon a time\"],\"encoding_format\":\"base64\"}"),
                arguments(
                        "embeddings: LangChain4j",
                        "/v1/embeddings",
                        "{\"model\":\"" + E + "\",\"input\":[\"Once upon a time\"]}"),
                arguments(
                        "chat: every field accepted without effect",
                        CHAT,
                        "{\"model\":\"" + T + "\"," + MESSAGES + ",\"max_completion_tokens\":4,"
                                + "\"store\":false,\"metadata\":{\"team\":\"a\"},\"service_tier\":\"auto\","
                                + "\"user\":\"u\",\"safety_identifier\":\"s\",\"prompt_cache_key\":\"k\","
                                + "\"prompt_cache_retention\":\"in_memory\",\"prompt_cache_options\":{},"
                                + "\"reasoning_effort\":\"low\",\"verbosity\":\"medium\",\"parallel_tool_calls\":true,"
                                + "\"prediction\":{\"type\":\"content\",\"content\":\"x\"},\"modalities\":[\"text\"]}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("defaultBodies")
    void everyDefaultFieldIsKnownAndAnswered(String clients, String path, String body, CapturedOutput output) {
        HttpResponse<String> r = new Http(port).post(path, body);

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(output.getAll()).doesNotContain("unknown request field");
    }

    @Test
    void anUnknownFieldIsAnsweredAndLoggedOncePerEndpointAndName(CapturedOutput output) {
        String name = "x_" + UUID.randomUUID().toString().replace("-", "");
        String body = "{\"model\":\"" + T + "\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi\",\"" + name
                + "\":1}],\"max_tokens\":2,\"" + name + "\":{\"a\":1}}";
        Http http = new Http(port);

        assertThat(http.post(CHAT, body).statusCode()).isEqualTo(200);
        assertThat(http.post(CHAT, body).statusCode()).isEqualTo(200);

        String log = output.getAll();
        assertThat(log.split("ignored the unknown request field '" + name + "'", -1))
                .as(log)
                .hasSize(2);
        assertThat(log.split("ignored the unknown request field 'messages\\[0\\]\\." + name + "'", -1))
                .as(log)
                .hasSize(2);
        assertThat(log).contains("WARN").contains("POST /v1/chat/completions: ignored the unknown request field");
    }
}
