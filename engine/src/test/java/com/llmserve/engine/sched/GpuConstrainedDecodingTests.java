package com.llmserve.engine.sched;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.engine.TestData;
import com.llmserve.engine.backend.gpu.GpuBackend;
import com.llmserve.engine.backend.gpu.GpuOptions;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.grammar.Grammar;
import com.llmserve.engine.grammar.JsonSchemaGrammar;
import com.llmserve.engine.grammar.TokenAutomaton;
import com.llmserve.engine.grammar.TokenTrie;
import com.llmserve.engine.model.Architectures;
import com.llmserve.engine.model.LanguageModel;
import com.llmserve.engine.model.ModelOptions;
import com.llmserve.engine.tokenizer.Tokenizer;
import com.llmserve.gpu.DevicePool;
import com.llmserve.gpu.RequiresGpu;
import java.io.IOException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Greedy constrained decoding on a GPU: the device's top-k chooses among the grammar's tokens (the
 * mask travels with the step), and must choose what the host does from whole rows; free sequences
 * of the same batch are untouched.
 */
@RequiresGpu
class GpuConstrainedDecodingTests {

    private static DevicePool pool;

    @BeforeAll
    static void open(DevicePool devices) {
        pool = devices;
    }

    @Test
    void theDevicesMaskedTopKChoosesWhatWholeRowsChoose() throws IOException {
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put(
                "properties",
                Map.of("name", Map.of("type", "string", "maxLength", 16), "age", Map.of("type", "integer")));
        schema.put("required", List.of("name", "age"));
        Grammar grammar = JsonSchemaGrammar.compile(schema);
        try (GgufFile file = GgufFile.open(TestData.model("stories260K.gguf"));
                GpuBackend gpu = GpuBackend.open(pool.device(0), GpuOptions.defaults());
                LanguageModel model = Architectures.loadLanguageModel(file, gpu, ModelOptions.DEFAULT);
                InferenceEngine engine =
                        InferenceEngine.start("gpu", model, EngineOptions.defaults(), EngineObserver.NONE)) {
            Tokenizer tokenizer = Tokenizer.fromGguf(file.metadata());
            TokenAutomaton automaton = TokenAutomaton.of(grammar, TokenTrie.of(tokenizer));
            Set<Integer> eos = new HashSet<>();
            IntStream.range(0, tokenizer.vocabSize())
                    .filter(tokenizer::isEndOfGeneration)
                    .forEach(eos::add);
            int[] prompt = tokenizer.encode("Once upon a time", true, false);

            InferenceEngineTests.Collector free = new InferenceEngineTests.Collector(1);
            InferenceEngineTests.Collector masked = new InferenceEngineTests.Collector(1);
            engine.submit(
                    InferenceRequest.greedy(prompt, 80).withGrammar(automaton).withStopTokens(eos), masked);
            engine.submit(InferenceRequest.greedy(prompt, 30), free);
            masked.await();
            free.await();
            InferenceEngineTests.Collector wholeRows = new InferenceEngineTests.Collector(1);
            engine.submit(
                    InferenceRequest.greedy(prompt, 80)
                            .withGrammar(automaton)
                            .withStopTokens(eos)
                            .withTopLogprobs(0),
                    wholeRows);
            wholeRows.await();
            InferenceEngineTests.Collector freeAlone = new InferenceEngineTests.Collector(1);
            engine.submit(InferenceRequest.greedy(prompt, 30), freeAlone);
            freeAlone.await();

            String text = tokenizer.decode(masked.tokens(0));
            System.out.println("GPU constrained greedy answer: " + text);
            assertThat(grammar.matches(text)).as(text).isTrue();
            assertThat(masked.tokens(0)).containsExactly(wholeRows.tokens(0));
            assertThat(free.tokens(0)).containsExactly(freeAlone.tokens(0));
        }
    }
}
