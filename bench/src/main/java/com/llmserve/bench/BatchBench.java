package com.llmserve.bench;

import com.llmserve.engine.backend.cpu.CpuBackend;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.model.Architectures;
import com.llmserve.engine.model.LanguageModel;
import com.llmserve.engine.model.ModelOptions;
import com.llmserve.engine.sampling.TokenLogprobs;
import com.llmserve.engine.sched.EngineObserver;
import com.llmserve.engine.sched.EngineOptions;
import com.llmserve.engine.sched.FinishReason;
import com.llmserve.engine.sched.InferenceEngine;
import com.llmserve.engine.sched.InferenceRequest;
import com.llmserve.engine.sched.TokenListener;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Measures continuous batching on the CPU: for each concurrency level, that many requests run
 * together through one {@link InferenceEngine}, and the report gives the aggregate decode rate
 * while all of them decode together, next to the single-stream rate. Run {@code BatchBench --help}
 * for the options.
 */
public final class BatchBench {

    static final String USAGE = """
            usage: BatchBench --model FILE [options]
              --model FILE          GGUF language model
              --concurrency LIST    requests running together, one report row per level (default 1,4,16,64)
              --prompt-length N     prompt tokens per request (default 128)
              -n, --max-tokens N    tokens generated per request, at least 2 (default 64)
              --threads N           CPU threads (default: all processors)
              --batch-invariant     the CPU backend's batch-invariant mode (single-token kernels for every batch)
            """;

    // Before measuring, a few short requests warm the JIT up on the prefill and batched decode paths.
    private static final int WARM_UP_REQUESTS = 4;
    private static final int WARM_UP_PROMPT = 64;
    private static final int WARM_UP_TOKENS = 16;
    private static final int KV_BLOCK = 16;

    record Options(Path model, int[] levels, int promptLength, int generate, int threads, boolean batchInvariant) {

        static Options parse(String[] args) {
            Path model = null;
            int[] levels = {1, 4, 16, 64};
            int promptLength = 128;
            int generate = 64;
            int threads = Runtime.getRuntime().availableProcessors();
            boolean batchInvariant = false;
            Arguments a = new Arguments(args);
            while (a.hasNext()) {
                String option = a.next();
                switch (option) {
                    case "--model", "-m" -> model = Path.of(a.value(option));
                    case "--concurrency" -> levels = a.positives(option);
                    case "--prompt-length" -> promptLength = a.positive(option);
                    case "-n", "--max-tokens" -> generate = a.positive(option);
                    case "--threads", "-t" -> threads = a.positive(option);
                    case "--batch-invariant" -> batchInvariant = true;
                    default -> throw new IllegalArgumentException("unknown option " + option);
                }
            }
            if (model == null) {
                throw new IllegalArgumentException("--model is required");
            }
            // the decode rate is timed from each request's first token to its last
            if (generate < 2) {
                throw new IllegalArgumentException("--max-tokens must be at least 2");
            }
            return new Options(model, levels, promptLength, generate, threads, batchInvariant);
        }
    }

    private BatchBench() {}

    public static void main(String[] args) throws IOException, InterruptedException {
        Optional<Options> parsed = Arguments.parseOrExit(args, USAGE, Options::parse);
        if (parsed.isEmpty()) {
            return;
        }
        Options o = parsed.get();
        run(o, System.out);
    }

    static void run(Options o, PrintStream out) throws IOException, InterruptedException {
        int maxLevel = Arrays.stream(o.levels()).max().orElse(1);
        int warmUpRequests = Math.min(WARM_UP_REQUESTS, maxLevel);
        int warmUpPrompt = Math.min(o.promptLength(), WARM_UP_PROMPT);
        long tokensPerSequence = Math.max(o.promptLength() + o.generate(), warmUpPrompt + WARM_UP_TOKENS);
        int blocks = 2 + (int) (maxLevel * ((tokensPerSequence + KV_BLOCK - 1) / KV_BLOCK));
        try (GgufFile file = GgufFile.open(o.model());
                CpuBackend backend = new CpuBackend(o.threads(), true, o.batchInvariant());
                LanguageModel model = Architectures.loadLanguageModel(file, backend, new ModelOptions(512, 0));
                InferenceEngine engine = InferenceEngine.start(
                        "bench",
                        model,
                        EngineOptions.defaults()
                                .withKvBlocks(blocks)
                                .withMaxRunning(maxLevel)
                                .withMaxWaiting(maxLevel)
                                .withPrefixCaching(false)
                                .withMaxBatchTokens(512),
                        EngineObserver.NONE)) {
            out.printf(
                    Locale.ROOT,
                    "model %s, %d threads, prompt %d tokens, %d generated per request, no prefix caching%s%n",
                    o.model().getFileName(),
                    o.threads(),
                    o.promptLength(),
                    o.generate(),
                    o.batchInvariant() ? ", batch-invariant" : "");
            measure(engine, model, warmUpRequests, warmUpPrompt, WARM_UP_TOKENS, 1000);
            out.println("concurrency | aggregate decode tok/s | per-stream tok/s | wall s | speed-up vs 1");
            double single = 0;
            for (int level : o.levels()) {
                Result r = measure(engine, model, level, o.promptLength(), o.generate(), 7 + level);
                if (single == 0) {
                    single = r.decodeRate;
                }
                out.printf(
                        Locale.ROOT,
                        "%11d | %22.1f | %16.1f | %6.1f | %.2fx%n",
                        level,
                        r.decodeRate,
                        r.decodeRate / level,
                        r.wallSeconds,
                        r.decodeRate / single);
            }
        }
    }

    private record Result(double decodeRate, double wallSeconds) {}

    /**
     * Runs {@code concurrency} requests at once. The decode rate is taken over the window in which
     * all of them are decoding together: from the last request's first token (every prefill done)
     * to the first request's end, counting every token produced inside it.
     */
    private static Result measure(
            InferenceEngine engine, LanguageModel model, int concurrency, int promptLength, int generate, int seed)
            throws InterruptedException {
        CountDownLatch done = new CountDownLatch(concurrency);
        long[][] times = new long[concurrency][generate];
        int[] counts = new int[concurrency];
        long start = System.nanoTime();
        for (int c = 0; c < concurrency; c++) {
            int[] prompt = new int[promptLength];
            for (int i = 0; i < promptLength; i++) {
                prompt[i] = 1 + Math.floorMod(seed * 7919 + c * 104729 + i * 31, model.vocabSize() - 1);
            }
            int stream = c;
            engine.submit(InferenceRequest.greedy(prompt, generate), new TokenListener() {
                @Override
                public void onToken(int choice, int token, TokenLogprobs logprobs) {
                    times[stream][counts[stream]++] = System.nanoTime();
                }

                @Override
                public void onFinish(int choice, FinishReason reason) {
                    done.countDown();
                }
            });
        }
        if (!done.await(30, TimeUnit.MINUTES)) {
            throw new IllegalStateException("benchmark requests did not finish");
        }
        long end = System.nanoTime();
        long from = 0;
        long to = Long.MAX_VALUE;
        for (int c = 0; c < concurrency; c++) {
            from = Math.max(from, times[c][0]);
            to = Math.min(to, times[c][counts[c] - 1]);
        }
        long inside = 0;
        for (int c = 0; c < concurrency; c++) {
            for (int k = 0; k < counts[c]; k++) {
                if (times[c][k] > from && times[c][k] <= to) {
                    inside++;
                }
            }
        }
        double window = (to - from) / 1e9;
        return new Result(window > 0 ? inside / window : 0, (end - start) / 1e9);
    }
}
