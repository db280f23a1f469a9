package com.llmserve.engine.sched;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.engine.CpuLanguageModel;
import com.llmserve.engine.kv.KvLayout;
import com.llmserve.engine.sampling.TokenLogprobs;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The engine with a model of windowed and global layers (tiny-gemma3: layers 0 and 2 windowed to 8
 * positions, 1 and 3 global): the windowed layers' blocks go back once they left the window, so a
 * sequence's windowed blocks stop growing while its global ones grow, and what it generates is
 * exactly what it generates when every block is kept. A batch-invariant backend, so that a
 * sequence's results do not depend on what it shares its steps with (preemption included).
 */
class SlidingWindowKvTests {

    private static CpuLanguageModel gemma3;

    @BeforeAll
    static void load() throws IOException {
        gemma3 = CpuLanguageModel.loadBatchInvariant("tiny-gemma3-F16.gguf");
    }

    @AfterAll
    static void unload() {
        gemma3.close();
    }

    private static EngineOptions options(int kvBlocks, int blockSize, int stepTokens, int running) {
        return new EngineOptions(kvBlocks, blockSize, stepTokens, running, 64, true, Duration.ofMinutes(5), true);
    }

    private static InferenceEngine start(EngineOptions options, boolean free) {
        return InferenceEngine.start("tiny-gemma3", gemma3.model(), options, EngineObserver.NONE, free);
    }

    private static int[] prompt(int length, int seed) {
        Random r = new Random(seed);
        int[] p = new int[length];
        for (int i = 0; i < length; i++) {
            p[i] = 3 + r.nextInt(gemma3.model().vocabSize() - 3);
        }
        return p;
    }

    @Test
    void theLayoutPutsWindowedAndGlobalLayersApart() {
        KvLayout layout = InferenceEngine.kvLayout(gemma3.model(), options(1024, 16, 64, 8), true);
        assertThat(layout.groupOfLayer()).containsExactly(1, 0, 1, 0);
        assertThat(layout.windowOfGroup()).containsExactly(0, 8);
        // 8 sequences of 3 blocks, a step's 4, the reserved one: the rest of the memory is the global layers'
        assertThat(layout.blocksOfGroup()).containsExactly(1024 + (1024 - 29), 29);
        assertThat(InferenceEngine.kvLayout(gemma3.model(), options(1024, 16, 64, 8), false)
                        .groups())
                .isOne();
        // never fewer blocks than one group of the same memory would have
        assertThat(InferenceEngine.kvLayout(gemma3.model(), options(20, 16, 64, 8), true)
                        .blocksOfGroup())
                .containsExactly(20, 20);
    }

    /** Blocks held per group while one sequence grows to {@code length} tokens. */
    private static long[][] blocksWhileGrowing(boolean free, int length, Recorder r) {
        try (InferenceEngine engine = start(options(1024, 16, 64, 8), free)) {
            r.engine = engine;
            engine.submit(InferenceRequest.greedy(prompt(20, 1), length - 20), r);
            r.await();
            awaitIdle(engine);
            assertThat(engine.stats().kvBlocksUsed()).isZero();
            assertThat(engine.kvBlocksUsedPerGroup()).containsOnly(0L);
            return r.perGroup.toArray(long[][]::new);
        }
    }

    @Test
    void aLongSequenceHoldsABoundedNumberOfWindowedBlocksAndAGrowingNumberOfGlobalOnes() {
        Recorder freeing = new Recorder();
        long[][] held = blocksWhileGrowing(true, 2048, freeing);
        // tiny-gemma3's context is 2048 tokens; held[k]: the blocks in use as generated token k + 1
        // arrives (snapshots lag a step), so the last is of a sequence of about 2048 tokens
        long mostWindowed = 0;
        for (long[] h : held) {
            mostWindowed = Math.max(mostWindowed, h[1]);
        }
        assertThat(mostWindowed).isLessThanOrEqualTo(KvLayout.windowBlocksPerSequence(8, 16) + 1);
        long[] at2048 = held[2048 - 20 - 1];
        assertThat(at2048[0]).isBetween(2048 / 16 - 1L, 2048 / 16 + 1L); // the global layers keep every block
        assertThat(at2048[1]).isLessThanOrEqualTo(3);
        Recorder keeping = new Recorder();
        long[][] kept = blocksWhileGrowing(false, 2048, keeping);
        assertThat(kept[2048 - 20 - 1][0]).isEqualTo(at2048[0]);
        assertThat(freeing.tokens).containsExactlyElementsOf(keeping.tokens);
        System.out.printf(
                "tiny-gemma3 at 2048 tokens, blocks of 16: freeing: %d global-layer + %d windowed-layer blocks"
                        + " (%d in blocks of every layer); keeping: %d blocks of every layer%n",
                at2048[0], at2048[1], freeing.equivalentAt2048, kept[2048 - 20 - 1][0], keeping.equivalentAt2048);
        assertThat(freeing.equivalentAt2048).isLessThan(keeping.equivalentAt2048);
    }

    @Test
    void tokensAndLogprobsAreThoseOfKeptBlocksWithPromptChunksCrossingTheWindow() {
        // a 100-token prompt in steps of 16 (blocks of 4: every chunk crosses a window of 8), then 150 tokens
        InferenceRequest request = InferenceRequest.greedy(prompt(100, 2), 150).withTopLogprobs(3);
        Recorder[] runs = new Recorder[2];
        for (int free = 0; free < 2; free++) {
            try (InferenceEngine engine = start(options(256, 4, 16, 4), free == 1)) {
                runs[free] = new Recorder();
                engine.submit(request, runs[free]);
                runs[free].await();
                awaitIdle(engine);
                assertThat(engine.stats().kvBlocksUsed()).isZero();
            }
        }
        assertThat(runs[1].tokens).hasSize(150).containsExactlyElementsOf(runs[0].tokens);
        for (int k = 0; k < 150; k++) {
            TokenLogprobs a = runs[0].logprobs.get(k);
            TokenLogprobs b = runs[1].logprobs.get(k);
            assertThat(b.logprob()).as("token %d", k).isEqualTo(a.logprob());
            assertThat(b.topTokens()).isEqualTo(a.topTokens());
            assertThat(b.topLogprobs()).isEqualTo(a.topLogprobs());
        }
    }

    @Test
    void preemptedSequencesRecomputeToWhatTheyGenerateAlone() throws InterruptedException {
        int n = 6;
        List<InferenceRequest> requests = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            requests.add(InferenceRequest.greedy(prompt(10 + 7 * i, 10 + i), 90));
        }
        List<List<Integer>> alone = new ArrayList<>();
        try (InferenceEngine engine = start(options(256, 4, 16, 8), false)) {
            for (InferenceRequest q : requests) {
                Recorder r = new Recorder();
                engine.submit(q, r);
                r.await();
                alone.add(r.tokens);
            }
        }
        // 40 blocks of 4 for every layer: the windowed group gets 8 x 4 + 4 + 1 = 37, the global one
        // 40 + 3 (168 tokens): six sequences of 100 to 135 tokens must preempt each other
        EngineOptions tight = options(40, 4, 16, 8).withPrefixCaching(false);
        try (InferenceEngine engine = start(tight, true)) {
            assertThat(engine.kvLayout().groups()).isEqualTo(2);
            List<Recorder> rs = new ArrayList<>();
            for (InferenceRequest q : requests) {
                Recorder r = new Recorder();
                rs.add(r);
                engine.submit(q, r);
            }
            for (int i = 0; i < n; i++) {
                rs.get(i).await();
                assertThat(rs.get(i).tokens).as("sequence %d", i).containsExactlyElementsOf(alone.get(i));
            }
            awaitIdle(engine);
            assertThat(engine.stats().preemptions()).isPositive();
            assertThat(engine.stats().kvBlocksUsed()).isZero();
            assertThat(engine.kvBlocksUsedPerGroup()).containsOnly(0L);
        }
    }

    @Test
    void aCachedPrefixIsTakenOnlyWhileTheWindowedLayersStillHoldItsLastWindow() {
        int[] p = prompt(100, 3);
        // the windowed pool: 2 sequences of 3 blocks, a step's 1 and the reserved one
        EngineOptions options = options(64, 16, 16, 2);
        try (InferenceEngine engine = start(options, true)) {
            assertThat(engine.kvLayout().blocksOfGroup()[1]).isEqualTo(8);
            Recorder first = new Recorder();
            engine.submit(InferenceRequest.greedy(p, 10), first);
            first.await();
            awaitIdle(engine);
            // again at once: the blocks of positions 80..95, given back while the first decoded, are still cached
            Recorder again = new Recorder();
            RequestHandle h = engine.submit(InferenceRequest.greedy(p, 10), again);
            again.await();
            awaitIdle(engine);
            assertThat(h.cachedPromptTokens()).isEqualTo(96);
            assertThat(again.tokens).containsExactlyElementsOf(first.tokens);
            // another prompt takes every windowed block in turn: the global blocks stay cached, the windowed not
            Recorder other = new Recorder();
            engine.submit(InferenceRequest.greedy(prompt(150, 4), 5), other);
            other.await();
            awaitIdle(engine);
            Recorder third = new Recorder();
            RequestHandle h3 = engine.submit(InferenceRequest.greedy(p, 10), third);
            third.await();
            awaitIdle(engine);
            assertThat(h3.cachedPromptTokens()).isZero();
            assertThat(third.tokens).containsExactlyElementsOf(first.tokens);
            assertThat(engine.stats().kvBlocksUsed()).isZero();
            assertThat(engine.kvBlocksUsedPerGroup()).containsOnly(0L);
        }
    }

    private static void awaitIdle(InferenceEngine engine) {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (engine.stats().runningSequences() > 0 || engine.stats().kvBlocksUsed() > 0) {
            if (System.nanoTime() > until) {
                break;
            }
            Thread.onSpinWait();
        }
    }

    /** Tokens, log-probs, and the engine's blocks per group as each token arrives. */
    static final class Recorder implements TokenListener {
        final List<Integer> tokens = new ArrayList<>();
        final List<TokenLogprobs> logprobs = new ArrayList<>();
        final List<long[]> perGroup = new ArrayList<>();
        final CountDownLatch done = new CountDownLatch(1);
        volatile InferenceEngine engine;
        int equivalentAt2048;

        @Override
        public void onToken(int choice, int token, TokenLogprobs lp) {
            tokens.add(token);
            if (lp != null) {
                logprobs.add(lp);
            }
            if (engine != null) {
                perGroup.add(engine.kvBlocksUsedPerGroup());
                if (perGroup.size() == 2048 - 20) {
                    equivalentAt2048 = engine.stats().kvBlocksUsed();
                }
            }
        }

        @Override
        public void onFinish(int choice, FinishReason reason) {
            done.countDown();
        }

        void await() {
            try {
                assertThat(done.await(120, TimeUnit.SECONDS)).as("finished").isTrue();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }
    }
}
