package com.llmserve.app.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.app.OpenApiContract;
import com.llmserve.app.TestModels;
import com.llmserve.app.models.ModelRegistry;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Real responses of every endpoint, every error class and every SSE chunk, validated against
 * {@code openapi.yaml} with the Atlassian OpenAPI validator.
 */
@ServiceTest
class OpenApiContractIntegrationTests {

    private static final String T = TestModels.TEXT;
    private static final String E = TestModels.EMBEDDING;

    @LocalServerPort
    int port;

    @Autowired
    ModelRegistry registry;

    Http http;
    OpenApiContract contract = OpenApiContract.load();

    @BeforeEach
    void ready() throws InterruptedException {
        ModelsReady.await(registry);
        http = new Http(port);
    }

    private HttpResponse<String> post(String path, String json, int expectedStatus) {
        HttpResponse<String> r = http.post(path, json);
        assertThat(r.statusCode()).as("%s %s → %s", path, json, r.body()).isEqualTo(expectedStatus);
        validate("POST", path, r);
        return r;
    }

    private HttpResponse<String> get(String path, int expectedStatus) {
        HttpResponse<String> r = http.get(path);
        assertThat(r.statusCode()).as("%s → %s", path, r.body()).isEqualTo(expectedStatus);
        validate("GET", path, r);
        return r;
    }

    private void validate(String method, String path, HttpResponse<String> r) {
        contract.assertResponse(
                method,
                path,
                r.statusCode(),
                r.headers().firstValue("content-type").orElse(null),
                r.body(),
                r.headers().map());
    }

    /** Checks every event of a stream: chunks against the schema, then {@code [DONE]} last. */
    private List<String> validateStream(HttpResponse<String> r, String chunkSchema) {
        assertThat(r.headers().firstValue("content-type"))
                .hasValueSatisfying(ct -> assertThat(ct).startsWith("text/event-stream"));
        List<String> events = Http.events(r.body());
        assertThat(events).last().isEqualTo("[DONE]");
        List<String> chunks = events.subList(0, events.size() - 1);
        assertThat(chunks).isNotEmpty();
        chunks.forEach(c -> contract.assertSchema(chunkSchema, c));
        return chunks;
    }

    @Test
    void modelsListAndRetrieveMatchTheContract() {
        assertThat(get("/v1/models", 200).body()).contains(T, E);
        get("/v1/models/" + T, 200);
        get("/v1/models/" + E, 200);
    }

    @Test
    void completionsMatchTheContract() {
        post("/v1/completions", """
                {"model":"%s","prompt":"Once upon a time","max_tokens":8,"temperature":0}""".formatted(T), 200);
        post("/v1/completions", """
                {"model":"%s","prompt":["Once upon a time","Lily"],"n":2,"max_tokens":6,"seed":3,"logprobs":2,
                 "stop":["\\n"],"top_k":40,"min_p":0.05,"repeat_penalty":1.1,"presence_penalty":0.5,
                 "frequency_penalty":0.5,"logit_bias":{"13":-5},"user":"u"}""".formatted(T), 200);
        post("/v1/completions", """
                {"model":"%s","prompt":[1,346,306,414],"max_tokens":4,"echo":true}""".formatted(T), 200);
        post("/v1/completions", """
                {"model":"%s","prompt":"Echo only","max_tokens":0,"echo":true}""".formatted(T), 200);
        post("/v1/completions", """
                {"model":"%s","prompt":"Once upon a time","max_tokens":0,"echo":true,"logprobs":1}""".formatted(T), 200);
        post("/v1/completions", """
                {"model":"%s","prompt":["Once upon a time","Lily"],"max_tokens":3,"echo":true,"logprobs":2,"n":2}""".formatted(T), 200);
    }

    @Test
    void completionStreamsMatchTheContractChunkByChunk() {
        HttpResponse<String> r = post("/v1/completions", """
                {"model":"%s","prompt":"Once upon a time","max_tokens":6,"temperature":0,"stream":true,
                 "stream_options":{"include_usage":true},"logprobs":1,"n":2}""".formatted(T), 200);
        List<String> chunks = validateStream(r, "CreateCompletionStreamChunk");
        assertThat(chunks.getLast()).contains("\"choices\":[]").contains("\"completion_tokens\":12");
        assertThat(chunks.subList(0, chunks.size() - 1))
                .allSatisfy(c -> assertThat(c).contains("\"usage\":null"));

        HttpResponse<String> echo = post("/v1/completions", """
                {"model":"%s","prompt":"Once upon a time","max_tokens":3,"stream":true,"echo":true}""".formatted(T), 200);
        assertThat(validateStream(echo, "CreateCompletionStreamChunk").getFirst())
                .contains("\"text\":\"Once upon a time\"")
                .doesNotContain("usage");
    }

    @Test
    void chatCompletionsMatchTheContract() {
        post("/v1/chat/completions", """
                {"model":"%s","messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Hi"}],
                 "max_completion_tokens":6}""".formatted(T), 200);
        post("/v1/chat/completions", """
                {"model":"%s","messages":[{"role":"developer","content":"Be brief."},
                 {"role":"user","content":[{"type":"text","text":"Hi"},{"type":"text","text":"there"}]},
                 {"role":"assistant","content":"Hello"},{"role":"user","content":"Story?"}],
                 "max_tokens":6,"logprobs":true,"top_logprobs":3,"n":2,"seed":1,"stop":"."}""".formatted(T), 200);
    }

    @Test
    void chatStreamsMatchTheContractChunkByChunk() {
        HttpResponse<String> r = post("/v1/chat/completions", """
                {"model":"%s","messages":[{"role":"user","content":"Hi"}],"max_tokens":5,"stream":true,
                 "stream_options":{"include_usage":true},"logprobs":true,"top_logprobs":2}""".formatted(T), 200);
        List<String> chunks = validateStream(r, "ChatCompletionChunk");
        assertThat(chunks.getFirst()).contains("\"delta\":{\"role\":\"assistant\",\"content\":\"\"}");
        assertThat(chunks.get(chunks.size() - 2)).contains("\"delta\":{}").contains("\"finish_reason\":\"length\"");
        assertThat(chunks.getLast()).contains("\"choices\":[]").contains("\"usage\":{");
    }

    private static final String TOOL = """
            {"type":"function","function":{"name":"get_weather","description":"Weather","parameters":{"type":"object",
             "properties":{"city":{"type":"string","maxLength":12}},"required":["city"]},"strict":true}}""";

    @Test
    void toolCallsAndStructuredOutputMatchTheContract() {
        String call = post("/v1/chat/completions", """
                {"model":"%s","messages":[{"role":"user","content":"Weather?"}],"max_tokens":150,"seed":4,"tools":[%s],
                 "tool_choice":"required","parallel_tool_calls":false}""".formatted(T, TOOL), 200).body();
        assertThat(call).contains("\"finish_reason\":\"tool_calls\"").contains("\"tool_calls\":[");
        post("/v1/chat/completions", """
                {"model":"%s","max_tokens":8,"tools":[%s],"tool_choice":"auto","messages":[
                 {"role":"user","content":"Weather?"},
                 {"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function",
                  "function":{"name":"get_weather","arguments":"{\\"city\\": \\"Paris\\"}"}}]},
                 {"role":"tool","tool_call_id":"call_1","content":"Sunny"}]}""".formatted(T, TOOL), 200);
        post("/v1/chat/completions", """
                {"model":"%s","messages":[{"role":"user","content":"Hi"}],"max_tokens":40,"response_format":
                 {"type":"json_schema","json_schema":{"name":"x","strict":true,"schema":{"type":"object",
                  "properties":{"a":{"type":"boolean"}},"required":["a"]}}}}""".formatted(T), 200);
        post("/v1/completions", """
                {"model":"%s","prompt":"Yes or no:","max_tokens":4,"grammar":"root ::= \\"yes\\" | \\"no\\""}""".formatted(T), 200);
        HttpResponse<String> r = post("/v1/chat/completions", """
                {"model":"%s","messages":[{"role":"user","content":"Weather?"}],"max_tokens":150,"seed":4,"stream":true,
                 "tools":[%s],"tool_choice":{"type":"function","function":{"name":"get_weather"}}}""".formatted(T, TOOL), 200);
        List<String> chunks = validateStream(r, "ChatCompletionChunk");
        assertThat(String.join("", chunks)).contains("\"tool_calls\":[{\"index\":0,\"id\":\"call_");
        assertThat(chunks.getLast()).contains("\"finish_reason\":\"tool_calls\"");
    }

    private static final String FLAT_TOOL = """
            {"type":"function","name":"get_weather","description":"Weather","parameters":{"type":"object",
             "properties":{"city":{"type":"string","maxLength":12}},"required":["city"],"additionalProperties":false}}""";

    @Test
    void responsesMatchTheContract() {
        post("/v1/responses", """
                {"model":"%s","input":"Hi","instructions":"Be brief.","max_output_tokens":6}""".formatted(T), 200);
        String call = post("/v1/responses", """
                {"model":"%s","input":[{"role":"user","content":"Weather?"}],"max_output_tokens":150,"seed":4,
                 "tools":[%s],"tool_choice":"required","parallel_tool_calls":false}""".formatted(T, FLAT_TOOL), 200).body();
        assertThat(call).contains("\"type\":\"function_call\"").contains("\"name\":\"get_weather\"");
        post("/v1/responses", """
                {"model":"%s","max_output_tokens":8,"tools":[%s],"input":[
                 {"role":"user","content":"Weather?"},
                 {"type":"function_call","call_id":"call_1","name":"get_weather","arguments":"{\\"city\\":\\"Paris\\"}"},
                 {"type":"function_call_output","call_id":"call_1","output":"Sunny"}]}""".formatted(T, FLAT_TOOL), 200);
        post("/v1/responses", """
                {"model":"%s","input":"Hi","max_output_tokens":40,"include":["message.output_text.logprobs"],
                 "top_logprobs":2,"text":{"format":{"type":"json_schema","name":"x","strict":true,"schema":
                 {"type":"object","properties":{"a":{"type":"boolean"}},"required":["a"]}}}}""".formatted(T), 200);
        get("/v1/responses/resp_1", 404);
        post("/v1/responses", """
                {"model":"%s","input":"Hi","previous_response_id":"resp_1"}""".formatted(T), 400);
    }

    @Test
    void responseStreamsMatchTheContractEventByEvent() {
        HttpResponse<String> r = post("/v1/responses", """
                {"model":"%s","input":"Weather?","max_output_tokens":150,"seed":4,"stream":true,"tools":[%s],
                 "tool_choice":{"type":"function","name":"get_weather"}}""".formatted(T, FLAT_TOOL), 200);
        assertThat(r.headers().firstValue("content-type"))
                .hasValueSatisfying(ct -> assertThat(ct).startsWith("text/event-stream"));
        List<Http.Named> events = Http.namedEvents(r.body());
        events.forEach(e -> contract.assertSchema("ResponseStreamEvent", e.data()));
        assertThat(events.getFirst().name()).isEqualTo("response.created");
        assertThat(events.getLast().name()).isIn("response.completed", "response.incomplete");
        assertThat(events.stream().map(Http.Named::name))
                .contains("response.function_call_arguments.delta", "response.function_call_arguments.done");
    }

    @Test
    void embeddingsMatchTheContract() {
        post("/v1/embeddings", """
                {"model":"%s","input":"hello"}""".formatted(E), 200);
        post("/v1/embeddings", """
                {"model":"%s","input":["hello","world"],"encoding_format":"base64","dimensions":384}""".formatted(E), 200);
        post("/v1/embeddings", """
                {"model":"%s","input":[[101,7592,102],[101,2088,102]]}""".formatted(E), 200);
    }

    @Test
    void tokenizerEndpointsMatchTheContract() {
        post("/tokenize", """
                {"model":"%s","prompt":"Hello world","return_token_strs":true}""".formatted(T), 200);
        post("/tokenize", """
                {"model":"%s","messages":[{"role":"user","content":"Hi"}]}""".formatted(T), 200);
        post("/tokenize", """
                {"model":"%s","prompt":"Hello world"}""".formatted(E), 200);
        post("/detokenize", """
                {"model":"%s","tokens":[1,346,306,414]}""".formatted(T), 200);
    }

    @Test
    void healthProbesMatchTheContract() {
        get("/actuator/health/liveness", 200);
        assertThat(get("/actuator/health/readiness", 200).body()).contains("\"model\"");
    }

    @Test
    void errorsMatchTheContract() {
        post("/v1/completions", "{\"model\":", 400);
        post("/v1/completions", """
                {"model":"%s","prompt":"x","echo":1}""".formatted(T), 400);
        post("/v1/chat/completions", """
                {"model":"nope","messages":[{"role":"user","content":"x"}]}""", 404);
        post("/v1/embeddings", """
                {"model":"%s","input":"x"}""".formatted(T), 400);
        get("/v1/models/nope", 404);
        post("/tokenize", """
                {"model":"%s","prompt":"x","messages":[]}""".formatted(T), 400);

        HttpResponse<String> tooLarge =
                http.post("/v1/completions", "{\"model\":\"" + T + "\",\"prompt\":\"" + "a".repeat(300_000) + "\"}");
        assertThat(tooLarge.statusCode()).isEqualTo(413);
        validate("POST", "/v1/completions", tooLarge);

        HttpResponse<String> wrongType = http.send(http.request("/v1/completions")
                .header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString("{}"))
                .build());
        assertThat(wrongType.statusCode()).isEqualTo(415);
        validate("POST", "/v1/completions", wrongType);

        // a chunked body (no Content-Length) is cut off once it passes the limit
        HttpResponse<String> chunked = http.send(http.request("/v1/completions")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(
                        ("{\"model\":\"" + T + "\",\"prompt\":\"" + "a".repeat(300_000) + "\"}").getBytes())))
                .build());
        assertThat(chunked.statusCode()).isEqualTo(413);
        validate("POST", "/v1/completions", chunked);

        // a URL the contract does not list: still the envelope
        HttpResponse<String> unknown = http.post("/v1/nothing", "{}");
        assertThat(unknown.statusCode()).isEqualTo(404);
        contract.assertSchema("ErrorResponse", unknown.body());
        HttpResponse<String> method = http.get("/v1/completions");
        assertThat(method.statusCode()).isEqualTo(405);
        contract.assertSchema("ErrorResponse", method.body());
    }

    @Test
    void aRequestTomcatRejectsItselfIsAnsweredInTheEnvelopeToo() throws Exception {
        try (Socket socket = new Socket("localhost", port)) {
            socket.getOutputStream()
                    .write("GET /v1/models/%zz HTTP/1.1\r\nHost: localhost\r\n\r\n"
                            .getBytes(StandardCharsets.US_ASCII));
            String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

            assertThat(response).startsWith("HTTP/1.1 400").contains("Content-Type: application/json");
            contract.assertSchema("ErrorResponse", response.substring(response.indexOf("\r\n\r\n") + 4));
        }
    }
}
