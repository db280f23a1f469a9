package com.llmserve.app.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.app.TestModels;
import com.llmserve.app.models.ModelRegistry;
import com.llmserve.engine.backend.cpu.CpuBackend;
import com.llmserve.engine.generate.Generation;
import com.llmserve.engine.generate.GenerationRequest;
import com.llmserve.engine.generate.Generator;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.model.Architectures;
import com.llmserve.engine.model.LanguageModel;
import com.llmserve.engine.model.ModelOptions;
import com.llmserve.engine.sampling.SamplingParams;
import com.llmserve.engine.tokenizer.Tokenizer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Greedy output through HTTP (scheduler, batching, incremental detokenization, JSON) equals the
 * engine's own greedy generation for the same prompt, token for token.
 */
@ServiceTest
class GreedyParityIntegrationTests {

    private static final int MAX_TOKENS = 48;

    @LocalServerPort
    int port;

    @Autowired
    ModelRegistry registry;

    final JsonMapper json = JsonMapper.builder().build();

    @BeforeEach
    void ready() throws InterruptedException {
        ModelsReady.await(registry);
    }

    @ParameterizedTest
    @ValueSource(strings = {"Once upon a time", "Lily and Ben went to the park", "The little dog"})
    void greedyCompletionOverHttpEqualsTheEnginesGreedyOutput(String prompt) throws Exception {
        Expected expected = engineGreedy(prompt);

        JsonNode body = json.readTree(new Http(port)
                .post(
                        "/v1/completions",
                        json.writeValueAsString(Map.of(
                                "model",
                                TestModels.TEXT,
                                "prompt",
                                prompt,
                                "max_tokens",
                                MAX_TOKENS,
                                "temperature",
                                0,
                                "logprobs",
                                0)))
                .body());

        JsonNode choice = body.get("choices").get(0);
        assertThat(choice.get("text").asString()).isEqualTo(expected.text());
        List<String> tokens = new ArrayList<>();
        choice.get("logprobs").get("tokens").forEach(t -> tokens.add(t.asString()));
        assertThat(tokens).isEqualTo(expected.pieces());
        assertThat(body.get("usage").get("completion_tokens").asInt()).isEqualTo(expected.tokens().length);
        assertThat(choice.get("finish_reason").asString()).isEqualTo(expected.finish());
    }

    private record Expected(int[] tokens, String text, List<String> pieces, String finish) {}

    /** What the engine generates alone: the one-sequence Generator, the prompt encoded as the CLI encodes it. */
    private static Expected engineGreedy(String prompt) throws Exception {
        try (GgufFile file = GgufFile.open(TestModels.file(TestModels.TEXT));
                CpuBackend backend = new CpuBackend(1);
                LanguageModel model = Architectures.loadLanguageModel(file, backend, ModelOptions.DEFAULT)) {
            Tokenizer tokenizer = Tokenizer.fromGguf(file.metadata());
            int[] input = tokenizer.encode(prompt, tokenizer.addsBos(), true);
            Set<Integer> stop = new HashSet<>();
            for (int t = 0; t < tokenizer.vocabSize(); t++) {
                if (tokenizer.isEndOfGeneration(t)) {
                    stop.add(t);
                }
            }
            try (Generator generator = new Generator(model, 16)) {
                Generation g = generator.generate(
                        new GenerationRequest(input, MAX_TOKENS, SamplingParams.GREEDY, stop), t -> {});
                List<String> pieces = new ArrayList<>();
                for (int t : g.tokens()) {
                    pieces.add(new String(tokenizer.tokenBytes(t), StandardCharsets.UTF_8));
                }
                String finish = g.finish() == Generation.FinishReason.STOP ? "stop" : "length";
                return new Expected(g.tokens(), tokenizer.decode(g.tokens()), pieces, finish);
            }
        }
    }
}
