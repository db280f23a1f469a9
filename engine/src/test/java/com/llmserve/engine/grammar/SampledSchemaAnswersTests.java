package com.llmserve.engine.grammar;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.engine.CpuLanguageModel;
import com.llmserve.engine.model.LanguageModel;
import com.llmserve.engine.sampling.SamplingParams;
import com.llmserve.engine.sampling.TokenLogprobs;
import com.llmserve.engine.sched.EngineObserver;
import com.llmserve.engine.sched.EngineOptions;
import com.llmserve.engine.sched.FinishReason;
import com.llmserve.engine.sched.InferenceEngine;
import com.llmserve.engine.sched.InferenceRequest;
import com.llmserve.engine.sched.TokenListener;
import com.llmserve.engine.tokenizer.Tokenizer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The promise of structured output, measured on a real model that knows nothing of JSON: 210
 * answers sampled at temperature 1 over three schemas (70 each, in continuous batches of 14
 * choices), every one parsed and validated against its schema by a validator written apart from
 * the compiler.
 */
class SampledSchemaAnswersTests {

    private static final String EXTRACTION = """
            {"type": "object", "properties": {
               "customer": {"type": "object", "properties": {
                  "name": {"type": "string"}, "email": {"type": "string", "maxLength": 40}},
                  "required": ["name"]},
               "items": {"type": "array", "minItems": 1, "maxItems": 4, "items": {"type": "object",
                  "properties": {"sku": {"type": "string", "pattern": "^[A-Z]{3}-[0-9]{2,4}$"},
                     "qty": {"type": "integer", "minimum": 1, "maximum": 99}},
                  "required": ["sku", "qty"], "additionalProperties": false}},
               "status": {"enum": ["open", "paid", "void", null]},
               "due": {"type": "string", "format": "date"}},
             "required": ["customer", "items", "status"], "additionalProperties": false}""";

    private static final String TREE = """
            {"$ref": "#/$defs/node", "$defs": {"node": {"type": "object", "properties": {
               "label": {"type": "string", "maxLength": 8},
               "children": {"type": "array", "items": {"$ref": "#/$defs/node"}, "maxItems": 2}},
             "required": ["label", "children"], "additionalProperties": false}}}""";

    private static final String EVENT = """
            {"type": "object", "properties": {
               "id": {"type": "string", "format": "uuid"},
               "kind": {"anyOf": [{"const": "click"}, {"type": "object", "properties": {
                  "scroll": {"type": "number"}}, "required": ["scroll"]}]},
               "at": {"type": "string", "format": "date-time"},
               "tags": {"type": ["array", "null"], "items": {"type": "string", "minLength": 1, "maxLength": 6}},
               "ok": {"type": "boolean"}},
             "required": ["id", "kind", "ok"]}""";

    private static CpuLanguageModel loaded;
    private static LanguageModel model;
    private static Tokenizer tokenizer;

    @BeforeAll
    static void load() throws IOException {
        loaded = CpuLanguageModel.load("stories260K.gguf");
        model = loaded.model();
        tokenizer = loaded.tokenizer();
    }

    @AfterAll
    static void unload() {
        loaded.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {EXTRACTION, TREE, EVENT})
    void everySampledAnswerParsesAndValidates(String schemaText) throws InterruptedException {
        Object schema = Schemas.json(schemaText);
        TokenAutomaton automaton = TokenAutomaton.of(JsonSchemaGrammar.compile(schema), TokenTrie.of(tokenizer));
        SchemaValidator validator = new SchemaValidator(schema);
        Set<Integer> stop = new HashSet<>();
        IntStream.range(0, tokenizer.vocabSize())
                .filter(tokenizer::isEndOfGeneration)
                .forEach(stop::add);
        int[] prompt = tokenizer.encode("Once upon a time", true, false);
        List<String> answers = new ArrayList<>();
        try (InferenceEngine engine =
                InferenceEngine.start("stories", model, EngineOptions.defaults(), EngineObserver.NONE)) {
            for (int request = 0; request < 5; request++) {
                SamplingParams hot = SamplingParams.GREEDY.withTemperature(1f).withSeed(100 + request);
                Choices choices = new Choices(14);
                engine.submit(new InferenceRequest(prompt, 14, 200, hot, stop, -1, -1, null, automaton), choices);
                answers.addAll(choices.await());
            }
        }
        assertThat(answers).hasSize(70);
        for (String answer : answers) {
            assertThat(JsonSchemaGrammar.compile(schema).matches(answer))
                    .as("in the language: %s", answer)
                    .isTrue();
            Object instance = Schemas.json(answer);
            assertThat(validator.errors(instance)).as(answer).isEmpty();
        }
    }

    /** Collects each choice's tokens and decodes them once all finished. */
    private static final class Choices implements TokenListener {
        private final Map<Integer, List<Integer>> tokens = new ConcurrentHashMap<>();
        private final CountDownLatch done;
        private final int n;

        Choices(int n) {
            this.n = n;
            this.done = new CountDownLatch(n);
        }

        @Override
        public void onToken(int choice, int token, TokenLogprobs logprobs) {
            tokens.computeIfAbsent(choice, c -> new ArrayList<>()).add(token);
        }

        @Override
        public void onFinish(int choice, FinishReason reason) {
            done.countDown();
        }

        List<String> await() throws InterruptedException {
            assertThat(done.await(120, TimeUnit.SECONDS))
                    .as("all choices finished")
                    .isTrue();
            List<String> out = new ArrayList<>();
            for (int c = 0; c < n; c++) {
                out.add(tokenizer.decode(tokens.getOrDefault(c, List.of()).stream()
                        .mapToInt(Integer::intValue)
                        .toArray()));
            }
            return out;
        }
    }
}
