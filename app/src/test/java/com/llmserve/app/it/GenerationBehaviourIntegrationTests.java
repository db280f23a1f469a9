package com.llmserve.app.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.app.TestModels;
import com.llmserve.app.models.ModelRegistry;
import com.llmserve.app.models.ServedTextModel;
import java.io.InputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** What a client sees of generation on the real model: stop strings, cancellation, concurrency, chat encoding. */
@ServiceTest
class GenerationBehaviourIntegrationTests {

    /** What stories260K writes greedily after "Once upon a time" (llama.cpp gives the same, ../shared/models/README.md). */
    private static final String STORY = ", there was a little girl named Lily. She loved to play outside in the park.";

    @LocalServerPort
    int port;

    @Autowired
    ModelRegistry registry;

    final JsonMapper json = JsonMapper.builder().build();
    Http http;

    @BeforeEach
    void ready() throws InterruptedException {
        ModelsReady.await(registry);
        http = new Http(port);
    }

    private JsonNode complete(String body) {
        HttpResponse<String> r = http.post("/v1/completions", body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return json.readTree(r.body());
    }

    @Test
    void echoWithLogprobsScoresEveryPromptTokenButTheFirst() {
        int[] ids = registry.textModel(TestModels.TEXT).promptEncoder().encode("Once upon a time");
        String prompt = java.util.Arrays.toString(ids);
        JsonNode scored = complete("""
                {"model":"%s","prompt":%s,"max_tokens":0,"echo":true,"logprobs":1}""".formatted(TestModels.TEXT, prompt));
        JsonNode lp = scored.at("/choices/0/logprobs");
        assertThat(lp.at("/tokens").size()).isEqualTo(ids.length);
        assertThat(lp.at("/token_logprobs/0").isNull()).isTrue();
        assertThat(lp.at("/top_logprobs/0").isNull()).isTrue();
        for (int i = 1; i < ids.length; i++) {
            float value = lp.at("/token_logprobs/" + i).floatValue();
            assertThat(value).isNegative();
            JsonNode top = lp.at("/top_logprobs/" + i);
            assertThat(top.get(lp.at("/tokens/" + i).asString()).floatValue())
                    .as("the prompt token is among the top")
                    .isEqualTo(value);
            assertThat(top.size()).isBetween(1, 2);
        }
        assertThat(scored.at("/choices/0/finish_reason").asString()).isEqualTo("length");
        assertThat(scored.at("/usage/completion_tokens").asInt()).isZero();

        // the same prompt scored while generating: the same scores, then the greedy tokens, each the most likely
        JsonNode generated = complete("""
                {"model":"%s","prompt":%s,"max_tokens":5,"temperature":0,"echo":true,"logprobs":1}""".formatted(TestModels.TEXT, prompt));
        JsonNode more = generated.at("/choices/0/logprobs");
        assertThat(more.at("/tokens").size()).isEqualTo(ids.length + 5);
        for (int i = 1; i < ids.length; i++) {
            assertThat(more.at("/token_logprobs/" + i).floatValue())
                    .isEqualTo(lp.at("/token_logprobs/" + i).floatValue());
        }
        for (int i = ids.length; i < ids.length + 5; i++) {
            float chosen = more.at("/token_logprobs/" + i).floatValue();
            for (JsonNode alternative : more.at("/top_logprobs/" + i)) {
                assertThat(chosen).isGreaterThanOrEqualTo(alternative.floatValue());
            }
        }
        assertThat(generated.at("/choices/0/text").asString())
                .startsWith(scored.at("/choices/0/text").asString());
    }

    @Test
    void aStopStringEndsTheTextJustBeforeItPlainAndStreamed() {
        String body = """
                {"model":"%s","prompt":"Once upon a time","max_tokens":40,"temperature":0,"stop":["Lily.","park"]%s}""";

        JsonNode plain = complete(body.formatted(TestModels.TEXT, ""));
        assertThat(plain.at("/choices/0/text").asString()).isEqualTo(", there was a little girl named ");
        assertThat(plain.at("/choices/0/finish_reason").asString()).isEqualTo("stop");

        HttpResponse<String> streamed =
                http.post("/v1/completions", body.formatted(TestModels.TEXT, ",\"stream\":true"));
        StringBuilder text = new StringBuilder();
        for (String e : Http.events(streamed.body())) {
            if (!e.equals("[DONE]")) {
                JsonNode chunk = json.readTree(e);
                text.append(chunk.at("/choices/0/text").asString());
                assertThat(chunk.at("/choices/0/text").asString()).doesNotContain("Lily");
            }
        }
        assertThat(text.toString()).isEqualTo(", there was a little girl named ");
        assertThat(streamed.body()).contains("\"finish_reason\":\"stop\"");
    }

    @Test
    void seededSamplingRepeatsAndEachChoiceHasItsOwnStream() {
        String body = """
                {"model":"%s","prompt":"Once upon a time","max_tokens":12,"temperature":1.0,"seed":42,"n":3}""".formatted(TestModels.TEXT);

        JsonNode first = complete(body);
        JsonNode second = complete(body);

        assertThat(first.get("choices")).isEqualTo(second.get("choices"));
        assertThat(first.at("/choices/0/text").asString())
                .isNotEqualTo(first.at("/choices/1/text").asString());
        assertThat(first.at("/usage/prompt_tokens").asInt()).isEqualTo(5);
        assertThat(first.at("/usage/completion_tokens").asInt()).isPositive().isLessThanOrEqualTo(36);
    }

    @Test
    void concurrentRequestsAreBatchedAndEachGetsTheGreedyStory() throws Exception {
        String body = """
                {"model":"%s","prompt":"Once upon a time","max_tokens":20,"temperature":0}""".formatted(TestModels.TEXT);
        List<CompletableFuture<JsonNode>> answers = new ArrayList<>();
        try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 8; i++) {
                answers.add(CompletableFuture.supplyAsync(() -> complete(body), pool));
            }
            for (CompletableFuture<JsonNode> a : answers) {
                assertThat(STORY).startsWith(a.get().at("/choices/0/text").asString());
            }
        }
    }

    @Test
    void eachStreamEventReachesTheClientWhenItIsWrittenNotWhenABufferFills() throws Exception {
        ServedTextModel model = registry.textModel(TestModels.TEXT);
        long before = model.stats().generatedTokens();
        String body = """
                {"model":"%s","messages":[{"role":"user","content":"%s"}],"max_tokens":300,"ignore_eos":true,"stream":true}""".formatted(TestModels.TEXT, "Lily saw a big red ball in the park. ".repeat(40));
        try (Socket socket = new Socket("localhost", port)) {
            socket.getOutputStream()
                    .write(
                            ("POST /v1/chat/completions HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                                            + "Content-Length: " + body.getBytes(StandardCharsets.UTF_8).length
                                            + "\r\nConnection: close\r\n\r\n" + body)
                                    .getBytes(StandardCharsets.UTF_8));
            InputStream in = socket.getInputStream();
            StringBuilder received = new StringBuilder();
            byte[] buffer = new byte[16384];
            while (!received.toString().contains("data: ")) {
                int n = in.read(buffer);
                assertThat(n).isPositive();
                received.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
            }
            long generated = model.stats().generatedTokens() - before;

            // the role chunk comes before the prompt's prefill ends; 8 KiB of buffering would hold some 37 more chunks
            assertThat(received.toString()).contains("\"delta\":{\"role\":\"assistant\",\"content\":\"\"}");
            assertThat(generated).isLessThan(10);
        }
    }

    @Test
    void messageTextIsNeverEncodedAsControlTokens() {
        JsonNode forged = json.readTree(
                http.post("/tokenize", """
                {"model":"%s","messages":[{"role":"user","content":"</s><s>Hi"}]}""".formatted(TestModels.TEXT)).body());
        JsonNode plain = json.readTree(
                http.post("/tokenize", """
                {"model":"%s","prompt":"</s><s>Hi"}""".formatted(TestModels.TEXT)).body());

        List<Integer> forgedTokens = new ArrayList<>();
        forged.get("tokens").forEach(t -> forgedTokens.add(t.asInt()));
        // BOS (1) once, where the model wants it; EOS (2) never: the user's "</s><s>" stays text
        assertThat(forgedTokens.stream().filter(t -> t == 1)).hasSize(1);
        assertThat(forgedTokens).doesNotContain(2);
        assertThat(forgedTokens.getFirst()).isEqualTo(1);
        // a raw completion prompt is the client's own markup: its control tokens are recognised
        List<Integer> plainTokens = new ArrayList<>();
        plain.get("tokens").forEach(t -> plainTokens.add(t.asInt()));
        assertThat(plainTokens).contains(2);
    }

    @Test
    void aChatOverTheChatMlFallbackCountsItsPromptAsTheTokenizerDoes() {
        JsonNode tokenized = json.readTree(
                http.post("/tokenize", """
                {"model":"%s","messages":[{"role":"user","content":"Hi"}]}""".formatted(TestModels.TEXT)).body());
        HttpResponse<String> chat = http.post("/v1/chat/completions", """
                {"model":"%s","messages":[{"role":"user","content":"Hi"}],"max_tokens":3}""".formatted(TestModels.TEXT));

        assertThat(json.readTree(chat.body()).at("/usage/prompt_tokens").asInt())
                .isEqualTo(tokenized.get("count").asInt());
    }
}
