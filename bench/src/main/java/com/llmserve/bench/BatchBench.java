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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Measures continuous batching on the CPU: for each concurrency level, that many requests run
 * together through one {@link InferenceEngine}, and the report gives the aggregate decode rate
 * while all of them decode together, next to the single-stream rate. Usage:
 * {@code BatchBench --model FILE [--concurrency 1,4,16,64] [--prompt-length 128] [-n 64] [--threads N]}
 */
public final class BatchBench {

    private BatchBench() {}

    public static void main(String[] args) throws IOException, InterruptedException {
        Path model = null;
        int[] levels = {1, 4, 16, 64};
        int promptLength = 128;
        int generate = 64;
        int threads = Runtime.getRuntime().availableProcessors();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--model", "-m" -> model = Path.of(args[++i]);
                case "--concurrency" ->
                    levels = Arrays.stream(args[++i].split(","))
                            .mapToInt(Integer::parseInt)
                            .toArray();
                case "--prompt-length" -> promptLength = Integer.parseInt(args[++i]);
                case "-n", "--max-tokens" -> generate = Integer.parseInt(args[++i]);
                case "--threads", "-t" -> threads = Integer.parseInt(args[++i]);
                default -> {
                    System.err.println("unknown option " + args[i]);
                    System.exit(2);
                }
            }
        }
        if (model == null) {
            System.err.println(
                    "usage: BatchBench --model FILE [--concurrency 1,4,16,64] [--prompt-length N] [-n N] [--threads N]");
            System.exit(2);
        }
        run(model, levels, promptLength, generate, threads, System.out);
    }

    static void run(Path path, int[] levels, int promptLength, int generate, int threads, PrintStream out)
            throws IOException, InterruptedException {
        int maxLevel = Arrays.stream(levels).max().orElse(1);
        int blockSize = 16;
        long tokensPerSequence = promptLength + generate;
        int blocks = 2 + (int) (maxLevel * ((tokensPerSequence + blockSize - 1) / blockSize));
        try (GgufFile file = GgufFile.open(path);
                CpuBackend backend = new CpuBackend(threads);
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
                    "model %s, %d threads, prompt %d tokens, %d generated per request, no prefix caching%n",
                    path.getFileName(), threads, promptLength, generate);
            // warm the JIT up (prefill and batched decode paths) before measuring
            measure(engine, model, Math.min(4, maxLevel), Math.min(promptLength, 64), 16, 1000);
            out.println("concurrency | aggregate decode tok/s | per-stream tok/s | wall s | speed-up vs 1");
            double single = 0;
            for (int level : levels) {
                Result r = measure(engine, model, level, promptLength, generate, 7 + level);
                if (single == 0) {
                    single = r.decodeRate;
                }
                out.printf(
                        "%11d | %22.1f | %16.1f | %6.1f | %.2fx%n",
                        level, r.decodeRate, r.decodeRate / level, r.wallSeconds, r.decodeRate / single);
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
