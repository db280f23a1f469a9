package com.llmserve.app.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.llmserve.app.OpenApiContract;
import com.llmserve.app.TestModels;
import com.llmserve.app.models.ModelRegistry;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Bad inputs each get the right 4xx in OpenAI's envelope, with {@code param} naming the field at
 * fault, and the answer matches the contract. Unknown fields are not among them: under the default
 * policy they are answered (ClientDefaultFieldsIntegrationTests); RequestFieldsTests has the 400
 * of the {@code reject} policy.
 */
@ServiceTest
class BadInputIntegrationTests {

    private static final String T = TestModels.TEXT;
    private static final String E = TestModels.EMBEDDING;

    @LocalServerPort
    int port;

    @Autowired
    ModelRegistry registry;

    final JsonMapper json = JsonMapper.builder().build();

    @BeforeEach
    void ready() throws InterruptedException {
        ModelsReady.await(registry);
    }

    static Stream<Arguments> badInputs() {
        String c = "/v1/completions";
        String chat = "/v1/chat/completions";
        String emb = "/v1/embeddings";
        String msgs = "\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]";
        return Stream.of(
                arguments(c, "{\"model\":\"" + T + "\",\"prompt\":", 400, null),
                arguments(c, "[1,2,3]", 400, null),
                arguments(c, "", 400, null),
                arguments(c, "{\"prompt\":\"x\"}", 400, "model"),
                arguments(c, "{\"model\":5,\"prompt\":\"x\"}", 400, "model"),
                arguments(c, "{\"model\":\"" + T + "\"}", 400, "prompt"),
                arguments(c, "{\"model\":\"" + T + "\",\"prompt\":\"\"}", 400, "prompt"),
                arguments(c, "{\"model\":\"" + T + "\",\"prompt\":[]}", 400, "prompt"),
                arguments(c, "{\"model\":\"" + T + "\",\"prompt\":[\"ok\",\"\"]}", 400, "prompt[1]"),
                arguments(c, "{\"model\":\"" + T + "\",\"prompt\":[\"ok\",5]}", 400, "prompt[1]"),
                arguments(c, "{\"model\":\"" + T + "\",\"prompt\":[1,99999]}", 400, "prompt[1]"),
                arguments(c, "{\"model\":\"" + T + "\",\"prompt\":[1,-2]}", 400, "prompt[1]"),
                arguments(c, "{\"model\":\"" + T + "\",\"prompt\":{\"a\":1}}", 400, "prompt"),
                arguments(c, "{\"model\":\"" + T + "\",\"prompt\":\"x\",\"max_tokens\":\"5\"}", 400, "max_tokens"),
                arguments(c, "{\"model\":\"" + T + "\",\"prompt\":\"x\",\"max_tokens\":-1}", 400, "max_tokens"),
                arguments(c, "{\"model\":\"" + T + "\",\"prompt\":\"x\",\"max_tokens\":2.5}", 400, "max_tokens"),
                arguments(c, "{\"model\":\"" + T + "\",\"prompt\":\"x\",\"max_tokens\":1000000000}", 400, "max_tokens"),
                arguments(
                        c,
                        "{\"model\":\"" + T + "\",\"prompt\":\"x\",\"max_tokens\":99999999999999999999}",
                        400,
                        "max_tokens"),
                arguments(c, "{\"model\":\"" + T + "\",\"prompt\":\"x\",\"max_tokens\":0}", 400, "max_tokens"),
                arguments(c, "{\"model\":\"" + T + "\",\"prompt\":\"x\",\"temperature\":-0.5}", 400, "temperature"),
                arguments(c, "{\"model\":\"" + T + "\",\"prompt\":\"x\",\"temperature\":1e308}", 400, "temperature"),
                arguments(c, "{\"model\":\"" + T + "\",\"prompt\":\"x\",\"top_p\":0}", 400, "top_p"),
                arguments(c, "{\"model\":\"" + T + "\",\"prompt\":\"x\",\"top_p\":1.5}", 400, "top_p"),
                arguments(c, "{\"model\":\"" + T + "\",\"prompt\":\"x\",\"top_k\":-7}", 400, "top_k"),
                arguments(c, "{\"model\":\"" + T + "\",\"prompt\":\"x\",\"min_p\":2}", 400, "min_p"),
                arguments(c, "{\"model\":\"" + T + "\",\"prompt\":\"x\",\"repeat_penalty\":0}", 400, "repeat_penalty"),
                arguments(
                        c,
                        "{\"model\":\"" + T + "\",\"prompt\":\"x\",\"presence_penalty\":3}",
                        400,
                        "presence_penalty"),
                arguments(
                        c,
                        "{\"model\":\"" + T + "\",\"prompt\":\"x\",\"frequency_penalty\":\"high\"}",
                        400,
                        "frequency_penalty"),
                arguments(c, "{\"model\":\"" + T + "\",\"prompt\":\"x\",\"n\":0}", 400, "n"),
                arguments(c, "{\"model\":\"" + T + "\",\"prompt\":\"x\",\"n\":100000}", 400, "n"),
                arguments(c, "{\"model\":\"" + T + "\",\"prompt\":[\"a\",\"b\",\"c\",\"d\",\"e\"],\"n\":16}", 400, "n"),
                arguments(c, "{\"model\":\"" + T + "\",\"prompt\":\"x\",\"best_of\":3}", 400, "best_of"),
                arguments(c, "{\"model\":\"" + T + "\",\"prompt\":\"x\",\"stop\":[\"\"]}", 400, "stop[0]"),
                arguments(c, "{\"model\":\"" + T + "\",\"prompt\":\"x\",\"stop\":7}", 400, "stop"),
                arguments(
                        c,
                        "{\"model\":\"" + T
                                + "\",\"prompt\":\"x\",\"stop\":[\"a\",\"b\",\"c\",\"d\",\"e\",\"f\",\"g\",\"h\",\"i\",\"j\",\"k\",\"l\",\"m\",\"n\",\"o\",\"p\",\"q\"]}",
                        400,
                        "stop"),
                arguments(c, "{\"model\":\"" + T + "\",\"prompt\":\"x\",\"seed\":\"x\"}", 400, "seed"),
                arguments(c, "{\"model\":\"" + T + "\",\"prompt\":\"x\",\"seed\":1.5}", 400, "seed"),
                arguments(c, "{\"model\":\"" + T + "\",\"prompt\":\"x\",\"logprobs\":21}", 400, "logprobs"),
                arguments(c, "{\"model\":\"" + T + "\",\"prompt\":\"x\",\"logprobs\":true}", 400, "logprobs"),
                arguments(
                        c,
                        "{\"model\":\"" + T + "\",\"prompt\":\"x\",\"echo\":true,\"logprobs\":1,\"stream\":true}",
                        400,
                        "echo"),
                arguments(
                        c, "{\"model\":\"" + T + "\",\"prompt\":\"x\",\"logit_bias\":{\"abc\":1}}", 400, "logit_bias"),
                arguments(
                        c,
                        "{\"model\":\"" + T + "\",\"prompt\":\"x\",\"logit_bias\":{\"5\":500}}",
                        400,
                        "logit_bias.5"),
                arguments(
                        c,
                        "{\"model\":\"" + T + "\",\"prompt\":\"x\",\"logit_bias\":{\"70000\":1}}",
                        400,
                        "logit_bias"),
                arguments(
                        c,
                        "{\"model\":\"" + T + "\",\"prompt\":\"x\",\"stream_options\":{\"include_usage\":true}}",
                        400,
                        "stream_options"),
                arguments(
                        c,
                        "{\"model\":\"" + T
                                + "\",\"prompt\":\"x\",\"stream\":true,\"stream_options\":{\"include_usage\":1}}",
                        400,
                        "stream_options.include_usage"),
                arguments(c, "{\"model\":\"" + T + "\",\"prompt\":\"x\",\"stream\":\"yes\"}", 400, "stream"),
                arguments(c, "{\"model\":\"" + T + "\",\"prompt\":\"x\",\"suffix\":\"end\"}", 400, "suffix"),
                arguments(c, "{\"model\":\"" + T + "\",\"prompt\":\"x\",\"echo\":\"yes\"}", 400, "echo"),
                arguments(c, "{\"model\":\"" + T + "\",\"prompt\":\"" + "word ".repeat(3000) + "\"}", 400, "prompt"),
                arguments(c, "{\"model\":\"" + E + "\",\"prompt\":\"x\"}", 400, "model"),
                arguments(c, "{\"model\":\"nope\",\"prompt\":\"x\"}", 404, "model"),
                arguments(chat, "{\"model\":\"" + T + "\"}", 400, "messages"),
                arguments(chat, "{\"model\":\"" + T + "\",\"messages\":[]}", 400, "messages"),
                arguments(chat, "{\"model\":\"" + T + "\",\"messages\":{}}", 400, "messages"),
                arguments(chat, "{\"model\":\"" + T + "\",\"messages\":[\"hi\"]}", 400, "messages[0]"),
                arguments(
                        chat, "{\"model\":\"" + T + "\",\"messages\":[{\"content\":\"Hi\"}]}", 400, "messages[0].role"),
                arguments(
                        chat,
                        "{\"model\":\"" + T + "\",\"messages\":[{\"role\":\"wizard\",\"content\":\"Hi\"}]}",
                        400,
                        "messages[0].role"),
                arguments(
                        chat,
                        "{\"model\":\"" + T + "\",\"messages\":[{\"role\":\"tool\",\"content\":\"Hi\"}]}",
                        400,
                        "messages[0].tool_call_id"),
                arguments(
                        chat,
                        "{\"model\":\"" + T + "\",\"messages\":[{\"role\":\"user\"}]}",
                        400,
                        "messages[0].content"),
                arguments(
                        chat,
                        "{\"model\":\"" + T + "\",\"messages\":[{\"role\":\"user\",\"content\":5}]}",
                        400,
                        "messages[0].content"),
                arguments(
                        chat,
                        "{\"model\":\"" + T + "\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi\",\"name\":1}]}",
                        400,
                        "messages[0].name"),
                arguments(
                        chat,
                        "{\"model\":\"" + T
                                + "\",\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"image_url\",\"image_url\":{\"url\":\"x\"}}]}]}",
                        400,
                        "messages[0].content[0].type"),
                arguments(
                        chat,
                        "{\"model\":\"" + T
                                + "\",\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\"}]}]}",
                        400,
                        "messages[0].content[0].text"),
                arguments(
                        chat,
                        "{\"model\":\"" + T
                                + "\",\"messages\":[{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"type\":\"function\"}]}]}",
                        400,
                        "messages[0].tool_calls[0].id"),
                arguments(
                        chat,
                        "{\"model\":\"" + T + "\"," + msgs
                                + ",\"tools\":[{\"type\":\"retrieval\",\"function\":{\"name\":\"f\"}}]}",
                        400,
                        "tools[0].type"),
                arguments(
                        chat,
                        "{\"model\":\"" + T + "\"," + msgs + ",\"tool_choice\":\"required\"}",
                        400,
                        "tool_choice"),
                arguments(
                        chat,
                        "{\"model\":\"" + T + "\"," + msgs + ",\"response_format\":{\"type\":\"xml\"}}",
                        400,
                        "response_format.type"),
                arguments(
                        chat,
                        "{\"model\":\"" + T + "\"," + msgs
                                + ",\"response_format\":{\"type\":\"json_schema\",\"json_schema\":{}}}",
                        400,
                        "response_format.json_schema.name"),
                arguments(chat, "{\"model\":\"" + T + "\"," + msgs + ",\"top_logprobs\":2}", 400, "top_logprobs"),
                arguments(
                        chat,
                        "{\"model\":\"" + T + "\"," + msgs + ",\"logprobs\":true,\"top_logprobs\":50}",
                        400,
                        "top_logprobs"),
                arguments(
                        chat,
                        "{\"model\":\"" + T + "\"," + msgs + ",\"max_tokens\":5,\"max_completion_tokens\":6}",
                        400,
                        "max_tokens"),
                arguments(
                        chat,
                        "{\"model\":\"" + T + "\"," + msgs + ",\"max_completion_tokens\":0}",
                        400,
                        "max_completion_tokens"),
                arguments(
                        chat,
                        "{\"model\":\"" + T + "\"," + msgs + ",\"max_completion_tokens\":5000}",
                        400,
                        "max_completion_tokens"),
                arguments(chat, "{\"model\":\"" + T + "\"," + msgs + ",\"n\":17}", 400, "n"),
                arguments(chat, "{\"model\":\"" + T + "\"," + msgs + ",\"modalities\":[\"audio\"]}", 400, "modalities"),
                arguments(chat, "{\"model\":\"" + T + "\"," + msgs + ",\"functions\":[{}]}", 400, "functions"),
                arguments(chat, "{\"model\":\"" + T + "\"," + msgs + ",\"verbosity\":\"low\"}", 400, "verbosity"),
                arguments(
                        chat,
                        "{\"model\":\"" + T + "\"," + msgs + ",\"web_search_options\":{}}",
                        400,
                        "web_search_options"),
                arguments(chat, "{\"model\":\"" + T + "\"," + msgs + ",\"store\":\"yes\"}", 400, "store"),
                arguments(chat, "{\"model\":\"" + E + "\"," + msgs + "}", 400, "model"),
                arguments(emb, "{\"model\":\"" + E + "\"}", 400, "input"),
                arguments(emb, "{\"model\":\"" + E + "\",\"input\":\"\"}", 400, "input"),
                arguments(emb, "{\"model\":\"" + E + "\",\"input\":[]}", 400, "input"),
                arguments(emb, "{\"model\":\"" + E + "\",\"input\":[\"a\",\"\"]}", 400, "input[1]"),
                arguments(emb, "{\"model\":\"" + E + "\",\"input\":[[101,102],[]]}", 400, "input[1]"),
                arguments(emb, "{\"model\":\"" + E + "\",\"input\":[101,999999]}", 400, "input[1]"),
                arguments(emb, "{\"model\":\"" + E + "\",\"input\":true}", 400, "input"),
                arguments(emb, "{\"model\":\"" + E + "\",\"input\":\"" + "word ".repeat(600) + "\"}", 400, "input"),
                arguments(
                        emb,
                        "{\"model\":\"" + E + "\",\"input\":\"x\",\"encoding_format\":\"hex\"}",
                        400,
                        "encoding_format"),
                arguments(emb, "{\"model\":\"" + E + "\",\"input\":\"x\",\"dimensions\":3}", 400, "dimensions"),
                arguments(emb, "{\"model\":\"" + E + "\",\"input\":\"x\",\"user\":1}", 400, "user"),
                arguments(emb, "{\"model\":\"" + T + "\",\"input\":\"x\"}", 400, "model"),
                arguments("/tokenize", "{\"model\":\"" + T + "\"}", 400, "prompt"),
                arguments(
                        "/tokenize",
                        "{\"model\":\"" + E + "\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}",
                        400,
                        "messages"),
                arguments("/detokenize", "{\"model\":\"" + T + "\",\"tokens\":[1,512]}", 400, "tokens[1]"),
                arguments("/detokenize", "{\"model\":\"" + T + "\",\"tokens\":\"1\"}", 400, "tokens"));
    }

    @ParameterizedTest(name = "{0} {1} -> {2} {3}")
    @MethodSource("badInputs")
    void badInputGetsItsStatusAndParamInTheOpenAiEnvelope(String path, String body, int status, String param) {
        HttpResponse<String> r = new Http(port).post(path, body);

        assertThat(r.statusCode()).as(r.body()).isEqualTo(status);
        JsonNode error = json.readTree(r.body()).get("error");
        assertThat(error).as(r.body()).isNotNull();
        assertThat(error.get("message").asString())
                .isNotBlank()
                .doesNotContain("Exception")
                .doesNotContain("\tat ");
        assertThat(error.get("param").isNull() ? null : error.get("param").asString())
                .as(r.body())
                .isEqualTo(param);
        OpenApiContract.load()
                .assertResponse(
                        "POST",
                        path,
                        r.statusCode(),
                        r.headers().firstValue("content-type").orElse(null),
                        r.body(),
                        r.headers().map());
    }

    /** Ill-formed UTF-8 that the JSON parser would decode (overlong NUL, an encoded surrogate) is refused like the rest. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"c0 80", "e0 80 80", "ed a0 80", "f4 90 80 80", "f5 80 80 80", "80", "ff", "e2 82"})
    void aBodyThatIsNotUtf8Is400(String hex) {
        byte[] bad = HexFormat.ofDelimiter(" ").parseHex(hex);
        byte[] head = ("{\"model\":\"" + T + "\",\"prompt\":\"a").getBytes(StandardCharsets.UTF_8);
        byte[] tail = "b\",\"max_tokens\":1}".getBytes(StandardCharsets.UTF_8);
        byte[] body = new byte[head.length + bad.length + tail.length];
        System.arraycopy(head, 0, body, 0, head.length);
        System.arraycopy(bad, 0, body, head.length, bad.length);
        System.arraycopy(tail, 0, body, head.length + bad.length, tail.length);
        Http http = new Http(port);

        HttpResponse<String> r = http.send(http.request("/v1/completions")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build());

        assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
        assertThat(json.readTree(r.body()).at("/error/code").asString()).isEqualTo("invalid_json");
    }

    @Test
    void wellFormedMultiByteTextPasses() {
        HttpResponse<String> r = new Http(port).post("/v1/completions", """
                {"model":"%s","prompt":"caf\u00e9 \u20ac \ud83d\ude00","max_tokens":1}""".formatted(T));

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    }

    @Test
    void theErrorPageAskedForDirectlyIsNotFound() {
        HttpResponse<String> r = new Http(port).get("/error");

        assertThat(r.statusCode()).as(r.body()).isEqualTo(404);
        assertThat(json.readTree(r.body()).at("/error/code").asString()).isEqualTo("not_found");
    }

    /** One request's cost is bounded before it queues (300,000 tokens by default, as OpenAI's; 8192 in these tests). */
    @Test
    void anEmbeddingsRequestOverItsTokenLimitIsRefusedBeforeItQueues() {
        String input = "[" + String.join(",", java.util.Collections.nCopies(512, "1000")) + "]";
        String body = "{\"model\":\"" + E + "\",\"input\":["
                + String.join(",", java.util.Collections.nCopies(20, input)) + "]}";

        HttpResponse<String> r = new Http(port).post("/v1/embeddings", body);

        assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
        JsonNode error = json.readTree(r.body()).get("error");
        assertThat(error.get("code").asString()).isEqualTo("max_tokens_per_request");
        assertThat(error.get("param").asString()).isEqualTo("input");
    }
}
