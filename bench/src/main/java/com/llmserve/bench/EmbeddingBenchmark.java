package com.llmserve.bench;

import com.llmserve.engine.backend.gpu.GpuBackend;
import com.llmserve.engine.backend.gpu.GpuOptions;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.model.Architectures;
import com.llmserve.engine.model.EmbeddingModel;
import com.llmserve.engine.model.ModelOptions;
import com.llmserve.gpu.Device;
import com.llmserve.gpu.DevicePool;
import com.llmserve.gpu.RuntimeChoice;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Engine-level speed of a GGUF embedding model on the first GPU: inputs per second of wall time
 * around {@code EmbeddingModel.embed} (pooled vectors copied to the host and normalised) for
 * batches of several sizes, after warm-up; what the service adds on top is tokenization and JSON.
 *
 * <pre>
 * EmbeddingBenchmark --model FILE [--inputs 32,160] [--tokens 102] [--half-weights] [--profile]
 * </pre>
 * {@code --profile} then embeds one batch of each size once more with device events around every
 * operation and prints where the device time goes.
 */
public final class EmbeddingBenchmark {

    private EmbeddingBenchmark() {}

    public static void main(String[] args) throws IOException {
        Path file = null;
        int[] sizes = {32, 160};
        int tokens = 102;
        GpuOptions options = GpuOptions.defaults();
        boolean profile = false;
        for (int i = 0; i < args.length; i++) {
            String v = i + 1 < args.length ? args[i + 1] : "";
            switch (args[i]) {
                case "--model" -> {
                    file = Path.of(v);
                    i++;
                }
                case "--inputs" -> {
                    sizes = Arrays.stream(v.split(","))
                            .mapToInt(Integer::parseInt)
                            .toArray();
                    i++;
                }
                case "--tokens" -> {
                    tokens = Integer.parseInt(v);
                    i++;
                }
                case "--half-weights" -> options = options.withHalfWeights(true);
                case "--profile" -> profile = true;
                default -> {
                    System.err.println("error: unknown option " + args[i]);
                    System.exit(2);
                }
            }
        }
        if (file == null) {
            System.err.println("error: no --model given");
            System.exit(2);
        }
        PrintStream out = System.out;
        int largest = Arrays.stream(sizes).max().orElseThrow();
        try (DevicePool pool = DevicePool.open(RuntimeChoice.AUTO)) {
            if (pool.isEmpty()) {
                out.println("no GPU: " + pool.statuses());
                System.exit(1);
            }
            Device device = pool.device(0);
            try (GgufFile gguf = GgufFile.open(file);
                    GpuBackend gpu = GpuBackend.open(device, options);
                    EmbeddingModel model =
                            Architectures.loadEmbeddingModel(gguf, gpu, new ModelOptions(largest * tokens, 0))) {
                out.printf(Locale.ROOT, "device: %s; %s; %s%n", device.info().name(), model, options);
                for (int size : sizes) {
                    List<int[]> batch = inputs(size, tokens);
                    for (int i = 0; i < 10; i++) {
                        model.embed(batch);
                    }
                    int runs = 0;
                    long start = System.nanoTime();
                    while (runs < 20 || System.nanoTime() - start < 2_000_000_000L) {
                        model.embed(batch);
                        runs++;
                    }
                    double seconds = (System.nanoTime() - start) / 1e9;
                    out.printf(
                            Locale.ROOT,
                            "batch of %d inputs x %d tokens: %.2f ms per batch, %.0f inputs/s, %.0f tokens/s%n",
                            size,
                            tokens,
                            1e3 * seconds / runs,
                            size * runs / seconds,
                            (double) size * tokens * runs / seconds);
                }
                if (profile) {
                    for (int size : sizes) {
                        gpu.setProfiling(true);
                        model.embed(inputs(size, tokens));
                        GpuBenchmark.printProfile("embedding batch of " + size, 1, gpu.takeProfile(), out);
                        gpu.setProfiling(false);
                    }
                }
            }
        }
    }

    /** {@code size} inputs of {@code tokens} ids each: [CLS], ids counting up from a per-input start, [SEP]. */
    private static List<int[]> inputs(int size, int tokens) {
        List<int[]> inputs = new ArrayList<>(size);
        for (int s = 0; s < size; s++) {
            int[] ids = new int[tokens];
            ids[0] = 101;
            for (int i = 1; i < tokens - 1; i++) {
                ids[i] = 1000 + (s * 37 + i * 11) % 20000;
            }
            ids[tokens - 1] = 102;
            inputs.add(ids);
        }
        return inputs;
    }
}
