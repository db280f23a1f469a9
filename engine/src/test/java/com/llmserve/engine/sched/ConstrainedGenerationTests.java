package com.llmserve.engine.sched;

import static com.llmserve.engine.grammar.Expr.alt;
import static com.llmserve.engine.grammar.Expr.literal;
import static com.llmserve.engine.grammar.Expr.range;
import static com.llmserve.engine.grammar.Expr.repeat;
import static com.llmserve.engine.grammar.Expr.seq;
import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.engine.CpuLanguageModel;
import com.llmserve.engine.grammar.Grammar;
import com.llmserve.engine.grammar.TokenAutomaton;
import com.llmserve.engine.grammar.TokenTrie;
import com.llmserve.engine.model.LanguageModel;
import com.llmserve.engine.sampling.SamplingParams;
import com.llmserve.engine.tokenizer.Tokenizer;
import java.io.IOException;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Grammar-constrained choices inside continuous batching, on the CPU with a real model. */
class ConstrainedGenerationTests {

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

    /** {"name": "<2-12 lowercase letters>", "age": <1-3 digits>, "happy": true|false} */
    private static Grammar person() {
        return Grammar.of(seq(
                literal("{\"name\": \""),
                repeat(range('a', 'z'), 2, 12),
                literal("\", \"age\": "),
                range('1', '9'),
                repeat(range('0', '9'), 0, 2),
                literal(", \"happy\": "),
                alt(literal("true"), literal("false")),
                literal("}")));
    }

    private static TokenAutomaton automaton() {
        return TokenAutomaton.of(person(), TokenTrie.of(tokenizer));
    }

    private static Set<Integer> eos() {
        Set<Integer> stop = new HashSet<>();
        IntStream.range(0, tokenizer.vocabSize())
                .filter(tokenizer::isEndOfGeneration)
                .forEach(stop::add);
        return stop;
    }

    @Test
    void everySampledChoiceIsInTheLanguageAndStops() {
        Grammar grammar = person();
        TokenAutomaton automaton = automaton();
        int[] prompt = tokenizer.encode("Once upon a time", true, false);
        SamplingParams hot = SamplingParams.GREEDY.withTemperature(1.5f).withSeed(7);
        try (InferenceEngine engine =
                InferenceEngine.start("stories", model, EngineOptions.defaults(), EngineObserver.NONE)) {
            InferenceEngineTests.Collector c = new InferenceEngineTests.Collector(8);
            engine.submit(new InferenceRequest(prompt, 8, 200, hot, eos(), -1, -1, null, automaton), c);
            c.await();
            for (int choice = 0; choice < 8; choice++) {
                String text = tokenizer.decode(c.tokens(choice));
                assertThat(grammar.matches(text))
                        .as("choice %d: %s", choice, text)
                        .isTrue();
                assertThat(c.reasons.get(choice)).isEqualTo(FinishReason.STOP);
            }
        }
    }

    @Test
    void constrainedAndFreeRequestsShareABatchWithoutTouchingEachOther() {
        int[] prompt = tokenizer.encode("Once upon a time", true, false);
        int[] freeAlone;
        try (InferenceEngine engine =
                InferenceEngine.start("stories", model, EngineOptions.defaults(), EngineObserver.NONE)) {
            InferenceEngineTests.Collector alone = new InferenceEngineTests.Collector(1);
            engine.submit(InferenceRequest.greedy(prompt, 40), alone);
            alone.await();
            freeAlone = alone.tokens(0);

            InferenceEngineTests.Collector constrained = new InferenceEngineTests.Collector(1);
            InferenceEngineTests.Collector free = new InferenceEngineTests.Collector(1);
            engine.submit(
                    InferenceRequest.greedy(prompt, 200)
                            .withGrammar(automaton())
                            .withStopTokens(eos()),
                    constrained);
            engine.submit(InferenceRequest.greedy(prompt, 40), free);
            constrained.await();
            free.await();
            assertThat(free.tokens(0)).containsExactly(freeAlone);
            assertThat(person().matches(tokenizer.decode(constrained.tokens(0))))
                    .isTrue();
        }
    }

    @Test
    void withoutStopTokensAChoiceEndsWhenItsTextCannotGrow() {
        int[] prompt = tokenizer.encode("Once upon a time", true, false);
        try (InferenceEngine engine =
                InferenceEngine.start("stories", model, EngineOptions.defaults(), EngineObserver.NONE)) {
            InferenceEngineTests.Collector c = new InferenceEngineTests.Collector(1);
            engine.submit(InferenceRequest.greedy(prompt, 200).withGrammar(automaton()), c);
            c.await();
            assertThat(tokenizer.decode(c.tokens(0))).endsWith("}");
            assertThat(c.reasons.get(0)).isEqualTo(FinishReason.STOP);
        }
    }

    @Test
    void aChoiceNearItsTokenLimitClosesItsTextInsteadOfBeingCutOff() {
        // an unbounded string: without closing, a hot sample would rarely end it within 14 tokens
        Grammar grammar = Grammar.of(seq(
                literal("{\"story\": \""),
                com.llmserve.engine.grammar.Expr.star(
                        com.llmserve.engine.grammar.Expr.notRange('"', '"', '\\', '\\', 0, 0x1f)),
                literal("\"}")));
        TokenAutomaton automaton = TokenAutomaton.of(grammar, TokenTrie.of(tokenizer));
        int[] prompt = tokenizer.encode("Once upon a time", true, false);
        try (InferenceEngine engine =
                InferenceEngine.start("stories", model, EngineOptions.defaults(), EngineObserver.NONE)) {
            InferenceEngineTests.Collector c = new InferenceEngineTests.Collector(16);
            SamplingParams hot = SamplingParams.GREEDY.withTemperature(1f).withSeed(3);
            engine.submit(new InferenceRequest(prompt, 16, 14, hot, eos(), -1, -1, null, automaton), c);
            c.await();
            for (int choice = 0; choice < 16; choice++) {
                String text = tokenizer.decode(c.tokens(choice));
                assertThat(grammar.matches(text))
                        .as("choice %d: %s", choice, text)
                        .isTrue();
                assertThat(c.tokens(choice).length).isLessThanOrEqualTo(14);
                // closed by the last token it had: whole, so not cut off by length
                assertThat(c.reasons.get(choice))
                        .as("choice %d: %s", choice, text)
                        .isEqualTo(FinishReason.STOP);
            }
        }
    }

    @Test
    void greedyChoicesAreTheSameFromTheBackendsTopKAsFromWholeRows() {
        int[] prompt = tokenizer.encode("Once upon a time", true, false);
        try (InferenceEngine engine =
                InferenceEngine.start("stories", model, EngineOptions.defaults(), EngineObserver.NONE)) {
            InferenceEngineTests.Collector topK = new InferenceEngineTests.Collector(1);
            engine.submit(
                    InferenceRequest.greedy(prompt, 60).withGrammar(automaton()).withStopTokens(eos()), topK);
            topK.await();
            // asking for log-probabilities makes the engine read whole rows and mask them itself
            InferenceEngineTests.Collector wholeRows = new InferenceEngineTests.Collector(1);
            engine.submit(
                    InferenceRequest.greedy(prompt, 60)
                            .withGrammar(automaton())
                            .withStopTokens(eos())
                            .withTopLogprobs(0),
                    wholeRows);
            wholeRows.await();
            assertThat(topK.tokens(0)).containsExactly(wholeRows.tokens(0));
            assertThat(person().matches(tokenizer.decode(topK.tokens(0)))).isTrue();
        }
    }
}
