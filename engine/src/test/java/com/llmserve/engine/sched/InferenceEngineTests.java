package com.llmserve.engine.sched;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.llmserve.engine.CpuLanguageModel;
import com.llmserve.engine.backend.KvCacheType;
import com.llmserve.engine.backend.cpu.CpuBackend;
import com.llmserve.engine.backend.cpu.CpuKernels;
import com.llmserve.engine.generate.Generation;
import com.llmserve.engine.generate.GenerationRequest;
import com.llmserve.engine.generate.Generator;
import com.llmserve.engine.kv.BlockPool;
import com.llmserve.engine.model.LanguageModel;
import com.llmserve.engine.model.ModelOptions;
import com.llmserve.engine.sampling.SamplingParams;
import com.llmserve.engine.sampling.TokenLogprobs;
import com.llmserve.engine.tokenizer.Tokenizer;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class InferenceEngineTests {

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

    private static final String[] PROMPTS = {
        "Once upon a time", "Lily and Tom went to the park", "The little dog", "One day, a big", "The sun was",
        "Tim had a red ball", "She liked to", "The cat and the bird", "Mom said", "It was a rainy day",
    };

    @Test
    void greedyOutputMatchesTheSequentialGenerator() {
        int[] prompt = encode("Once upon a time");
        int[] expected = alone(prompt, 40);
        try (InferenceEngine engine = start(EngineOptions.defaults())) {
            Collector c = new Collector(1);
            engine.submit(InferenceRequest.greedy(prompt, 40), c);
            c.await();
            assertThat(c.tokens(0)).containsExactly(expected);
            assertThat(c.reasons.get(0)).isEqualTo(FinishReason.LENGTH);
            assertThat(tokenizer.decode(c.tokens(0))).startsWith(", there was a little girl named Lily");
        }
    }

    @Test
    void thirtyTwoConcurrentStreamsEachProduceWhatTheyProduceAlone() throws InterruptedException {
        int streams = 32;
        int[][] prompts = new int[streams][];
        Reference[] expected = new Reference[streams];
        for (int i = 0; i < streams; i++) {
            prompts[i] = encode(streamPrompt(i));
            expected[i] = aloneWithMargins(prompts[i], 30);
        }
        try (InferenceEngine engine = start(EngineOptions.defaults().withMaxBatchTokens(64))) {
            int[][] together = greedyTogether(engine, prompts, 30);
            for (int i = 0; i < streams; i++) {
                assertSameUpToNearTies("stream " + i, together[i], expected[i]);
            }
            awaitIdle(engine);
            assertThat(engine.stats().kvBlocksUsed()).isZero();
            assertThat(engine.stats().generatedTokens()).isEqualTo(streams * 30L);
        }
    }

    /**
     * On a batch-invariant backend, 32 greedy streams and a seeded sampled one running together give
     * exactly what each gives alone, near-ties included (stories260K-q8_0: on the default backend
     * some of them differ).
     */
    @Test
    void thirtyTwoConcurrentGreedyStreamsOnABatchInvariantBackendAreExactlyTheirSoloRuns() throws Exception {
        int streams = 32;
        try (CpuLanguageModel q8 = CpuLanguageModel.loadBatchInvariant("stories260K-q8_0.gguf");
                InferenceEngine engine =
                        start(q8.model(), EngineOptions.defaults().withMaxBatchTokens(64))) {
            List<InferenceRequest> requests = new ArrayList<>();
            for (int i = 0; i < streams; i++) {
                requests.add(InferenceRequest.greedy(q8.tokenizer().encode(streamPrompt(i), true, false), 30));
            }
            requests.add(InferenceRequest.greedy(q8.tokenizer().encode("Once upon a time", true, false), 30)
                    .withSampling(SamplingParams.GREEDY.withTemperature(1.0f).withSeed(42)));
            int[][] solo = new int[requests.size()][];
            for (int i = 0; i < requests.size(); i++) {
                solo[i] = together(engine, List.of(requests.get(i)))[0];
            }
            int[][] together = together(engine, requests);
            for (int i = 0; i < requests.size(); i++) {
                assertThat(together[i])
                        .as(i < streams ? "stream %d" : "the seeded sampled stream", i)
                        .containsExactly(solo[i]);
            }
            awaitIdle(engine);
        }
    }

    /**
     * A Q8_0 KV cache keeps the batch invariance: a row's keys and values are quantized the same
     * way in every batch, so 32 greedy streams (and a seeded sampled one) are their solo runs.
     */
    @ParameterizedTest
    @ValueSource(strings = {"tiny-Q8_0.gguf", "tiny-gemma3-F16.gguf"})
    void thirtyTwoConcurrentStreamsWithAQ8KvCacheAreExactlyTheirSoloRuns(String file) throws Exception {
        int streams = 32;
        try (CpuLanguageModel m = CpuLanguageModel.loadBatchInvariant(
                        file, ModelOptions.DEFAULT.withKvCacheType(KvCacheType.Q8_0));
                InferenceEngine engine =
                        start(m.model(), EngineOptions.defaults().withMaxBatchTokens(64))) {
            assertThat(m.model().kvCacheType()).isEqualTo(KvCacheType.Q8_0);
            List<InferenceRequest> requests = new ArrayList<>();
            for (int i = 0; i < streams; i++) {
                requests.add(InferenceRequest.greedy(m.tokenizer().encode(streamPrompt(i), true, false), 30));
            }
            requests.add(InferenceRequest.greedy(m.tokenizer().encode("Once upon a time", true, false), 30)
                    .withSampling(SamplingParams.GREEDY.withTemperature(1.0f).withSeed(42)));
            int[][] solo = new int[requests.size()][];
            for (int i = 0; i < requests.size(); i++) {
                solo[i] = together(engine, List.of(requests.get(i)))[0];
            }
            int[][] together = together(engine, requests);
            for (int i = 0; i < requests.size(); i++) {
                assertThat(together[i])
                        .as(i < streams ? "stream %d" : "the seeded sampled stream", i)
                        .containsExactly(solo[i]);
            }
            awaitIdle(engine);
        }
    }

    /**
     * The native CPU kernels compute a row the same way in every batch: on them, 32 greedy streams of
     * a file whose matrices they all cover are their solo runs without the batch-invariant mode (on
     * the Java kernels some differ).
     */
    @ParameterizedTest
    @ValueSource(strings = {"tiny-Q8_0.gguf", "tiny-Q4_K_M.gguf"})
    void thirtyTwoConcurrentGreedyStreamsOnTheNativeKernelsAreExactlyTheirSoloRuns(String file) throws Exception {
        assumeTrue(CpuBackend.nativeKernelsAvailable(), "no native CPU kernels here");
        int streams = 32;
        try (CpuLanguageModel m = CpuLanguageModel.load(file, CpuKernels.NATIVE);
                InferenceEngine engine =
                        start(m.model(), EngineOptions.defaults().withMaxBatchTokens(64))) {
            assertThat(m.backend().batchInvariant()).isFalse();
            int[][] prompts = new int[streams][];
            int[][] solo = new int[streams][];
            for (int i = 0; i < streams; i++) {
                prompts[i] = m.tokenizer().encode(streamPrompt(i), true, false);
                solo[i] = greedyTogether(engine, new int[][] {prompts[i]}, 30)[0];
            }
            int[][] together = greedyTogether(engine, prompts, 30);
            for (int i = 0; i < streams; i++) {
                assertThat(together[i]).as("stream %d", i).containsExactly(solo[i]);
            }
            awaitIdle(engine);
        }
    }

    @Test
    void aLongPromptIsPrefilledInChunksWithoutChangingTheResult() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 12; i++) {
            text.append(PROMPTS[i % PROMPTS.length]).append(". ");
        }
        int[] prompt = encode(text.toString());
        assertThat(prompt.length).isGreaterThan(60);
        int[] expected = alone(prompt, 20);
        try (InferenceEngine engine = start(EngineOptions.defaults().withMaxBatchTokens(16))) {
            Collector c = new Collector(1);
            engine.submit(InferenceRequest.greedy(prompt, 20), c);
            c.await();
            assertThat(c.tokens(0)).containsExactly(expected);
        }
    }

    @Test
    void repeatedPromptsReuseCachedBlocks() {
        int[] prompt =
                encode("Once upon a time, there was a little girl named Lily. She loved to play outside in the park.");
        try (InferenceEngine engine = start(EngineOptions.defaults())) {
            Collector first = new Collector(1);
            engine.submit(InferenceRequest.greedy(prompt, 10), first);
            first.await();
            long computedBefore = engine.stats().promptTokens();
            Collector second = new Collector(1);
            RequestHandle h = engine.submit(InferenceRequest.greedy(prompt, 10), second);
            second.await();
            awaitIdle(engine);
            assertThat(second.tokens(0)).containsExactly(first.tokens(0));
            int full = (prompt.length - 1) / 16 * 16;
            assertThat(h.cachedPromptTokens()).isEqualTo(full);
            assertThat(engine.stats().promptTokens() - computedBefore).isEqualTo(prompt.length - full);
            assertThat(engine.stats().prefixCacheHits()).isGreaterThanOrEqualTo(full / 16);
        }
    }

    @Test
    void nChoicesShareThePromptAndSampleIndependentlyButRepeatably() {
        int[] prompt = encode("Once upon a time, there was a little girl named Lily. She");
        SamplingParams sampling = SamplingParams.GREEDY.withTemperature(1.0f).withSeed(7);
        try (InferenceEngine engine = start(EngineOptions.defaults())) {
            Collector a = new Collector(4);
            engine.submit(InferenceRequest.greedy(prompt, 25).withN(4).withSampling(sampling), a);
            a.await();
            Collector b = new Collector(4);
            engine.submit(InferenceRequest.greedy(prompt, 25).withN(4).withSampling(sampling), b);
            b.await();
            for (int i = 0; i < 4; i++) {
                assertThat(b.tokens(i))
                        .as("choice %d repeats with the same seed", i)
                        .containsExactly(a.tokens(i));
            }
            assertThat(a.tokens(0)).isNotEqualTo(a.tokens(1));
            assertThat(engine.stats().prefixCacheHits()).isPositive();
        }
    }

    @Test
    void logprobsComeWithEachTokenWhenAsked() {
        int[] prompt = encode("Once upon a time");
        try (InferenceEngine engine = start(EngineOptions.defaults())) {
            Collector c = new Collector(1);
            engine.submit(InferenceRequest.greedy(prompt, 3).withTopLogprobs(5), c);
            c.await();
            TokenLogprobs first = c.logprobs.get(0).getFirst();
            assertThat(first.token()).isEqualTo(432);
            assertThat(first.topTokens()).hasSize(5).startsWith(432);
            // golden/generation/stories260K.json, first case, step 0: -0.0317530669
            assertThat((double) first.logprob()).isCloseTo(-0.0317, org.assertj.core.data.Offset.offset(0.01));
        }
    }

    @Test
    void stopTokensEndAChoiceWithoutBeingReported() {
        int[] prompt = encode("Once upon a time");
        int[] expected = alone(prompt, 10);
        try (InferenceEngine engine = start(EngineOptions.defaults())) {
            Collector c = new Collector(1);
            engine.submit(InferenceRequest.greedy(prompt, 10).withStopTokens(Set.of(expected[3])), c);
            c.await();
            assertThat(c.tokens(0)).containsExactly(Arrays.copyOf(expected, 3));
            assertThat(c.reasons.get(0)).isEqualTo(FinishReason.STOP);
        }
    }

    @Test
    void aFullQueueAndAnOverlongPromptAreRefusedBeforeTheyQueue() {
        try (InferenceEngine engine = start(EngineOptions.defaults().withMaxWaiting(0))) {
            assertThatThrownBy(() -> engine.submit(InferenceRequest.greedy(encode("Hi"), 5), new Collector(1)))
                    .isInstanceOfSatisfying(AdmissionException.class, e -> {
                        assertThat(e.reason()).isEqualTo(AdmissionException.Reason.QUEUE_FULL);
                        assertThat(e.retryAfter()).isPositive();
                    });
        }
        try (InferenceEngine engine = start(EngineOptions.defaults())) {
            int[] huge = new int[model.contextLength()];
            Arrays.fill(huge, 300);
            assertThatThrownBy(() -> engine.submit(InferenceRequest.greedy(huge, 5), new Collector(1)))
                    .isInstanceOfSatisfying(AdmissionException.class, e -> assertThat(e.reason())
                            .isEqualTo(AdmissionException.Reason.PROMPT_TOO_LONG));
            assertThat(engine.stats().steps()).isZero();
        }
    }

    @Test
    void cancellationAndTimeoutEndChoicesAndFreeTheirBlocks() {
        try (InferenceEngine engine = start(EngineOptions.defaults())) {
            Collector cancelled = new Collector(1);
            cancelled.cancelAfter = 3;
            RequestHandle h = engine.submit(InferenceRequest.greedy(encode("Once upon a time"), 500), cancelled);
            cancelled.handle = h;
            Collector timedOut = new Collector(1);
            engine.submit(
                    InferenceRequest.greedy(encode("The little dog"), 500).withTimeout(Duration.ofMillis(30)),
                    timedOut);
            cancelled.await();
            timedOut.await();
            assertThat(cancelled.reasons.get(0)).isEqualTo(FinishReason.CANCELLED);
            assertThat(cancelled.tokens(0).length).isLessThan(500);
            assertThat(timedOut.reasons.get(0)).isEqualTo(FinishReason.TIMEOUT);
            awaitIdle(engine);
            assertThat(engine.stats().kvBlocksUsed()).isZero();
        }
    }

    @Test
    void whenBlocksRunOutSequencesArePreemptedAndStillFinishCorrectly() throws InterruptedException {
        // 25 usable blocks of 16 tokens: a sequence of 100+ tokens needs 7, so at most three fit
        // at once, and the six (all submitted within a millisecond) must preempt each other
        EngineOptions tight = EngineOptions.defaults().withKvBlocks(26).withPrefixCaching(false);
        int[][] prompts = new int[6][];
        Reference[] expected = new Reference[6];
        for (int i = 0; i < 6; i++) {
            prompts[i] = encode(PROMPTS[i]);
            expected[i] = aloneWithMargins(prompts[i], 100);
        }
        try (InferenceEngine engine = start(tight)) {
            List<Collector> cs = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                Collector c = new Collector(1);
                cs.add(c);
                engine.submit(InferenceRequest.greedy(prompts[i], 100), c);
            }
            for (int i = 0; i < 6; i++) {
                cs.get(i).await();
                assertSameUpToNearTies("sequence " + i, cs.get(i).tokens(0), expected[i]);
            }
            assertThat(engine.stats().preemptions()).isPositive();
            awaitIdle(engine);
            assertThat(engine.stats().kvBlocksUsed()).isZero();
        }
    }

    @Test
    void aSoakOfRandomCancelsAndTimeoutsLeavesNoBlocksAndNoThreads() throws InterruptedException {
        Random random = new Random(3);
        int requests = 2000;
        long threadsBefore = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("llmserve-engine"))
                .count();
        try (InferenceEngine engine =
                start(EngineOptions.defaults().withKvBlocks(129).withMaxWaiting(requests))) {
            List<Collector> all = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                Collector c = new Collector(1 + random.nextInt(2));
                int mode = random.nextInt(4);
                InferenceRequest r = InferenceRequest.greedy(
                                encode(PROMPTS[random.nextInt(PROMPTS.length)]), 1 + random.nextInt(12))
                        .withN(c.choices);
                if (mode == 1) {
                    r = r.withTimeout(Duration.ofMillis(1 + random.nextInt(5)));
                }
                RequestHandle h = engine.submit(r, c);
                if (mode == 2) {
                    h.cancel();
                } else if (mode == 3) {
                    c.handle = h;
                    c.cancelAfter = 1 + random.nextInt(3);
                }
                all.add(c);
            }
            for (Collector c : all) {
                c.await();
            }
            awaitIdle(engine);
            assertThat(engine.stats().kvBlocksUsed()).isZero();
            assertThat(engine.stats().runningSequences()).isZero();
            assertThat(engine.stats().waitingRequests()).isZero();
        }
        Thread.sleep(50);
        long threadsAfter = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("llmserve-engine"))
                .count();
        assertThat(threadsAfter).isEqualTo(threadsBefore);
    }

    @Test
    void aListenerThatThrowsEndsOnlyItsOwnRequest() {
        int[] prompt = encode("Once upon a time");
        try (InferenceEngine engine = start(EngineOptions.defaults())) {
            Collector healthy = new Collector(1);
            Collector broken = new Collector(1) {
                @Override
                public void onToken(int choice, int token, TokenLogprobs lp) {
                    throw new IllegalStateException("client gone");
                }
            };
            engine.submit(InferenceRequest.greedy(prompt, 20), broken);
            engine.submit(InferenceRequest.greedy(prompt, 20), healthy);
            broken.await();
            healthy.await();
            assertThat(broken.reasons.get(0)).isEqualTo(FinishReason.CANCELLED);
            assertThat(healthy.reasons.get(0)).isEqualTo(FinishReason.LENGTH);
            assertThat(healthy.tokens(0)).hasSize(20);
            awaitIdle(engine);
            assertThat(engine.stats().kvBlocksUsed()).isZero();
        }
    }

    @Test
    void promptLogprobsAreThoseOfTheTeacherForcedPrompt() {
        // long enough for several scored chunks, and sent twice so that the second finds it cached
        int[] prompt = encode(String.join(" ", PROMPTS) + " " + String.join(" ", PROMPTS));
        assertThat(prompt.length).isGreaterThan(Scheduler.SCORED_CHUNK + 10);
        float[][] reference = teacherForced(prompt);
        try (InferenceEngine engine = start(EngineOptions.defaults())) {
            Collector warm = new Collector(1);
            engine.submit(InferenceRequest.greedy(prompt, 2), warm);
            warm.await();
            Collector c = new Collector(2);
            engine.submit(InferenceRequest.greedy(prompt, 3).withN(2).withPromptLogprobs(2), c);
            c.await();
            assertThat(c.prompt.keySet())
                    .as("every prompt position but the first, once")
                    .containsExactlyElementsOf(java.util.stream.IntStream.range(1, prompt.length)
                            .boxed()
                            .toList());
            for (int p = 1; p < prompt.length; p++) {
                TokenLogprobs lp = c.prompt.get(p);
                float[] row = reference[p - 1];
                assertThat(lp.token()).isEqualTo(prompt[p]);
                assertThat(lp.logprob()).as("position %d", p).isCloseTo(logSoftmax(row, prompt[p]), within(5e-3f));
                assertThat(lp.topTokens()).hasSize(2);
                assertThat(lp.topTokens()[0]).isEqualTo(argmax(row));
            }
            assertThat(c.tokens(0))
                    .as("generation goes on after a scored prompt")
                    .hasSize(3);
            assertThat(c.tokens(1)).as("greedy choices agree").containsExactly(c.tokens(0));
            // listeners hear the end before the scheduler thread returns the blocks
            awaitIdle(engine);
            assertThat(engine.stats().kvBlocksUsed()).isZero();
        }
    }

    @Test
    void aPromptOnlyScoredGeneratesNothing() {
        int[] prompt = encode("Once upon a time there was a little girl");
        try (InferenceEngine engine = start(EngineOptions.defaults())) {
            Collector c = new Collector(1);
            engine.submit(new InferenceRequest(prompt, 1, 0, SamplingParams.GREEDY, Set.of(), -1, 0, null, null), c);
            c.await();
            assertThat(c.tokens(0)).isEmpty();
            assertThat(c.reasons.get(0)).isEqualTo(FinishReason.LENGTH);
            assertThat(c.prompt).hasSize(prompt.length - 1);
        }
        assertThatThrownBy(
                        () -> new InferenceRequest(prompt, 1, 0, SamplingParams.GREEDY, Set.of(), -1, -1, null, null))
                .hasMessageContaining("0 only to score the prompt");
    }

    /** Logits after every position of {@code prompt}, computed in one forward pass. */
    private static float[][] teacherForced(int[] prompt) {
        BlockPool pool = new BlockPool(64, 16);
        try (var kv = model.newKvStorage(pool.capacity(), pool.blockSize())) {
            var table = new com.llmserve.engine.kv.BlockTable(pool);
            table.ensureCapacity(prompt.length);
            var logits = model.forward(
                    com.llmserve.engine.backend.Batch.builder(16)
                            .add(table.blocks(), 0, prompt, com.llmserve.engine.backend.Batch.Logits.ALL)
                            .build(),
                    kv);
            float[][] rows = new float[prompt.length][];
            for (int i = 0; i < prompt.length; i++) {
                rows[i] = logits.row(i);
            }
            table.release();
            return rows;
        }
    }

    private static float logSoftmax(float[] row, int token) {
        double max = Double.NEGATIVE_INFINITY;
        for (float v : row) {
            max = Math.max(max, v);
        }
        double sum = 0;
        for (float v : row) {
            sum += Math.exp(v - max);
        }
        return (float) (row[token] - max - Math.log(sum));
    }

    private static int argmax(float[] row) {
        int best = 0;
        for (int i = 1; i < row.length; i++) {
            if (row[i] > row[best]) {
                best = i;
            }
        }
        return best;
    }

    static LanguageModel model() {
        return model;
    }

    private InferenceEngine start(EngineOptions options) {
        return start(model, options);
    }

    /** An engine for {@code m} as these tests run it (a subclass overlaps its greedy steps). */
    InferenceEngine start(LanguageModel m, EngineOptions options) {
        return InferenceEngine.start("test", m, options, EngineObserver.NONE);
    }

    /** Stream {@code i}'s prompt text: the prompts in turn, varied past their count. */
    static String streamPrompt(int i) {
        return PROMPTS[i % PROMPTS.length] + (i >= PROMPTS.length ? " and" : "");
    }

    /** Submits a greedy request per prompt from its own client thread, all at once; returns each one's tokens. */
    static int[][] greedyTogether(InferenceEngine engine, int[][] prompts, int maxTokens) throws InterruptedException {
        return together(
                engine,
                Arrays.stream(prompts)
                        .map(p -> InferenceRequest.greedy(p, maxTokens))
                        .toList());
    }

    /** Submits each request from its own client thread, all at once; returns each one's tokens (of choice 0). */
    static int[][] together(InferenceEngine engine, List<InferenceRequest> requests) throws InterruptedException {
        List<Collector> collectors = new ArrayList<>();
        List<Thread> clients = new ArrayList<>();
        for (InferenceRequest r : requests) {
            Collector c = new Collector(1);
            collectors.add(c);
            clients.add(Thread.ofVirtual().start(() -> engine.submit(r, c)));
        }
        for (Thread t : clients) {
            t.join();
        }
        int[][] tokens = new int[requests.size()][];
        for (int i = 0; i < requests.size(); i++) {
            collectors.get(i).await();
            tokens[i] = collectors.get(i).tokens(0);
        }
        return tokens;
    }

    static int[] encode(String text) {
        return tokenizer.encode(text, true, false);
    }

    static int[] alone(int[] prompt, int n) {
        try (Generator g = new Generator(model, new BlockPool(64, 16))) {
            Generation out = g.generate(new GenerationRequest(prompt, n, SamplingParams.GREEDY, Set.of()), t -> {});
            return out.tokens();
        }
    }

    /** A sequence decoded alone, one token per step, with each step's top-1/top-2 logit margin. */
    record Reference(int[] tokens, float[] margins) {}

    private static Reference aloneWithMargins(int[] prompt, int n) {
        BlockPool pool = new BlockPool(64, 16);
        try (var kv = model.newKvStorage(pool.capacity(), pool.blockSize())) {
            var table = new com.llmserve.engine.kv.BlockTable(pool);
            table.ensureCapacity(prompt.length + n);
            int[] tokens = new int[n];
            float[] margins = new float[n];
            var logits = model.forward(
                    com.llmserve.engine.backend.Batch.builder(16)
                            .add(table.blocks(), 0, prompt, com.llmserve.engine.backend.Batch.Logits.LAST)
                            .build(),
                    kv);
            for (int k = 0; k < n; k++) {
                float[] row = logits.row(0);
                int best = 0;
                for (int i = 1; i < row.length; i++) {
                    if (row[i] > row[best]) {
                        best = i;
                    }
                }
                float second = Float.NEGATIVE_INFINITY;
                for (int i = 0; i < row.length; i++) {
                    if (i != best) {
                        second = Math.max(second, row[i]);
                    }
                }
                tokens[k] = best;
                margins[k] = row[best] - second;
                if (k + 1 < n) {
                    logits = model.forward(
                            com.llmserve.engine.backend.Batch.builder(16)
                                    .add(
                                            table.blocks(),
                                            prompt.length + k,
                                            new int[] {best},
                                            com.llmserve.engine.backend.Batch.Logits.LAST)
                                    .build(),
                            kv);
                }
            }
            table.release();
            return new Reference(tokens, margins);
        }
    }

    /**
     * Batching changes which kernels run (dot products for a lone token, tiles for batches, a whole
     * recomputed prefix after preemption), and their float sums differ in the last bits; greedy
     * output must therefore match the lone run exactly, except that a near-tie (logit margin below
     * {@link #NEAR_TIE}) may go the other way, after which the texts legitimately part.
     */
    private static void assertSameUpToNearTies(String what, int[] actual, Reference expected) {
        int k = 0;
        while (k < Math.min(actual.length, expected.tokens().length) && actual[k] == expected.tokens()[k]) {
            k++;
        }
        if (k == expected.tokens().length && actual.length == k) {
            return;
        }
        assertThat(k)
                .as(
                        "%s: first difference at step %d, where the lone run's margin was %s",
                        what, k, k < expected.margins().length ? expected.margins()[k] : "n/a")
                .isLessThan(expected.tokens().length);
        assertThat(expected.margins()[k])
                .as("%s: step %d differs though its margin is clear", what, k)
                .isLessThan(NEAR_TIE);
    }

    private static final float NEAR_TIE = 1e-3f;

    static void awaitIdle(InferenceEngine engine) {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (engine.stats().runningSequences() > 0 || engine.stats().kvBlocksUsed() > 0) {
            if (System.nanoTime() > until) {
                break;
            }
            Thread.onSpinWait();
        }
    }

    /** Records what a request's listener hears and lets a test wait for every choice to finish. */
    static class Collector implements TokenListener {
        final int choices;
        final Map<Integer, List<Integer>> tokens = new ConcurrentHashMap<>();
        final Map<Integer, List<TokenLogprobs>> logprobs = new ConcurrentHashMap<>();
        final Map<Integer, FinishReason> reasons = new ConcurrentHashMap<>();
        final Map<Integer, TokenLogprobs> prompt = new java.util.concurrent.ConcurrentSkipListMap<>();
        final CountDownLatch done;
        final AtomicInteger seen = new AtomicInteger();
        volatile RequestHandle handle;
        volatile int cancelAfter = -1;

        Collector(int choices) {
            this.choices = choices;
            this.done = new CountDownLatch(choices);
        }

        @Override
        public void onToken(int choice, int token, TokenLogprobs lp) {
            tokens.computeIfAbsent(choice, k -> new ArrayList<>()).add(token);
            if (lp != null) {
                logprobs.computeIfAbsent(choice, k -> new ArrayList<>()).add(lp);
            }
            // >= rather than ==: the handle is set just after submit returns, maybe after the token came
            if (seen.incrementAndGet() >= cancelAfter && cancelAfter > 0 && handle != null) {
                handle.cancel();
            }
        }

        @Override
        public void onPromptToken(int position, TokenLogprobs lp) {
            assertThat(prompt.put(position, lp))
                    .as("position %d scored once", position)
                    .isNull();
        }

        @Override
        public void onFinish(int choice, FinishReason reason) {
            assertThat(reasons.put(choice, reason)).as("one finish per choice").isNull();
            done.countDown();
        }

        int[] tokens(int choice) {
            return tokens.getOrDefault(choice, List.of()).stream()
                    .mapToInt(Integer::intValue)
                    .toArray();
        }

        void await() {
            try {
                assertThat(done.await(60, TimeUnit.SECONDS))
                        .as("all choices finished")
                        .isTrue();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }
    }
}
