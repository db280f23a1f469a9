package com.llmserve.engine.sched;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.engine.backend.Batch;
import com.llmserve.engine.backend.KvCacheType;
import com.llmserve.engine.backend.KvStorage;
import com.llmserve.engine.model.ForwardProbe;
import com.llmserve.engine.model.LanguageModel;
import com.llmserve.engine.model.Logits;
import com.llmserve.engine.model.PendingLogits;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Every test of {@link InferenceEngineTests} with greedy steps overlapped: the engine issues a
 * greedy step's successor before reading it, its rows taking the tokens the step chooses. The CPU
 * waits on each submission, so the steps are the same ones, one after the other, and every
 * expectation there holds here; what is new is the engine's bookkeeping (rows of sequences that
 * ended, token limits, admission between chained steps), which these tests also count on.
 */
class OverlappedStepsTests extends InferenceEngineTests {

    /** Passes whose batch took the choices of the pass before, across the tests of this class. */
    private static final AtomicLong CHAINED = new AtomicLong();

    @Override
    InferenceEngine start(LanguageModel m, EngineOptions options) {
        return InferenceEngine.start("overlapped", new Counting(m), options, EngineObserver.NONE, true, true);
    }

    @Test
    void greedyStepsAfterTheFirstTakeTheirTokensFromTheStepBeforeAndEndAtTheirLimitsExactly() {
        int[] prompt = encode("Once upon a time");
        int[] expected = alone(prompt, 24);
        long before = CHAINED.get();
        try (InferenceEngine engine = start(InferenceEngineTests.model(), EngineOptions.defaults())) {
            Collector full = new Collector(1);
            Collector shorter = new Collector(1);
            Collector stopped = new Collector(1);
            engine.submit(InferenceRequest.greedy(prompt, 24), full);
            engine.submit(InferenceRequest.greedy(prompt, 7), shorter);
            engine.submit(InferenceRequest.greedy(prompt, 24).withStopTokens(Set.of(expected[9])), stopped);
            full.await();
            shorter.await();
            stopped.await();
            assertThat(full.tokens(0)).containsExactly(expected);
            assertThat(shorter.tokens(0)).containsExactly(Arrays.copyOf(expected, 7));
            assertThat(shorter.reasons.get(0)).isEqualTo(FinishReason.LENGTH);
            assertThat(stopped.tokens(0)).containsExactly(Arrays.copyOf(expected, 9));
            assertThat(stopped.reasons.get(0)).isEqualTo(FinishReason.STOP);
            awaitIdle(engine);
            assertThat(engine.stats().kvBlocksUsed()).isZero();
            // 24 tokens: a first step from the prompt, then chained ones (the stopped choice's row
            // after its stop token is computed for nothing, and not reported)
            assertThat(CHAINED.get() - before).isGreaterThanOrEqualTo(15);
            assertThat(engine.stats().generatedTokens()).isEqualTo(24 + 7 + 9);
        }
    }

    /** The model, counting the passes that take choices. */
    private record Counting(LanguageModel m) implements LanguageModel {

        @Override
        public String architecture() {
            return m.architecture();
        }

        @Override
        public int vocabSize() {
            return m.vocabSize();
        }

        @Override
        public int contextLength() {
            return m.contextLength();
        }

        @Override
        public int layers() {
            return m.layers();
        }

        @Override
        public int kvDim() {
            return m.kvDim();
        }

        @Override
        public KvCacheType kvCacheType() {
            return m.kvCacheType();
        }

        @Override
        public int slidingWindow(int layer) {
            return m.slidingWindow(layer);
        }

        @Override
        public KvStorage newKvStorage(int blocks, int blockSize) {
            return m.newKvStorage(blocks, blockSize);
        }

        @Override
        public KvStorage newKvStorage(int[] groupOfLayer, int[] blocksOfGroup, int blockSize) {
            return m.newKvStorage(groupOfLayer, blocksOfGroup, blockSize);
        }

        @Override
        public Logits forward(Batch batch, KvStorage kv, int topK, long[][] allowed) {
            return submit(batch, kv, topK, allowed).await();
        }

        @Override
        public PendingLogits submit(Batch batch, KvStorage kv, int topK, long[][] allowed) {
            if (batch.takesChoices()) {
                CHAINED.incrementAndGet();
            }
            return m.submit(batch, kv, topK, allowed);
        }

        @Override
        public void setProbe(ForwardProbe probe) {
            m.setProbe(probe);
        }

        @Override
        public void close() {
            m.close();
        }
    }
}
