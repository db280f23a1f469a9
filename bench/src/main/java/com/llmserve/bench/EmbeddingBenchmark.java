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
import java.util.Optional;

/**
 * Engine-level speed of a GGUF embedding model on the first GPU: inputs per second of wall time
 * around {@code EmbeddingModel.embed} (pooled vectors copied to the host and normalised) for
 * batches of several sizes, after warm-up; what the service adds on top is tokenization and JSON.
 * Run {@code EmbeddingBenchmark --help} for the options.
 */
public final class EmbeddingBenchmark {

    static final String USAGE = """
            usage: EmbeddingBenchmark --model FILE [options]
              --model FILE          GGUF embedding model
              --inputs LIST         inputs per batch, one report line each (default 32,160)
              --tokens N            tokens per input, [CLS] and [SEP] included, at least 2 (default 102)
              --half-weights        half-precision copies of every weight for the BLAS products, while
                                    device memory lasts
              --half-weight-share S the share of free device memory the half copies may take, 0 for
                                    none (default: the service's, 0.5)
              --profile             then embed one batch of each size once more with device events
                                    around every operation and print where the device time goes
            """;

    record Options(Path model, int[] sizes, int tokens, GpuOptions gpu, boolean profile) {

        static Options parse(String[] args) {
            Path model = null;
            int[] sizes = {32, 160};
            int tokens = 102;
            GpuOptions gpu = GpuOptions.defaults();
            boolean profile = false;
            Arguments a = new Arguments(args);
            while (a.hasNext()) {
                String option = a.next();
                switch (option) {
                    case "--model" -> model = Path.of(a.value(option));
                    case "--inputs" -> sizes = a.positives(option);
                    case "--tokens" -> tokens = a.positive(option);
                    case "--half-weights" -> gpu = gpu.withHalfWeights(true);
                    case "--half-weight-share" -> gpu = gpu.withHalfWeightShare(a.share(option));
                    case "--profile" -> profile = true;
                    default -> throw new IllegalArgumentException("unknown option " + option);
                }
            }
            if (model == null) {
                throw new IllegalArgumentException("no --model given");
            }
            if (tokens < 2) {
                throw new IllegalArgumentException("--tokens must be at least 2, for [CLS] and [SEP]");
            }
            return new Options(model, sizes, tokens, gpu, profile);
        }
    }

    private EmbeddingBenchmark() {}

    public static void main(String[] args) throws IOException {
        Optional<Options> parsed = Arguments.parseOrExit(args, USAGE, Options::parse);
        if (parsed.isEmpty()) {
            return;
        }
        Options o = parsed.get();
        PrintStream out = System.out;
        int largest = Arrays.stream(o.sizes()).max().orElseThrow();
        try (DevicePool pool = DevicePool.open(RuntimeChoice.AUTO)) {
            if (pool.isEmpty()) {
                out.println("no GPU: " + pool.statuses());
                System.exit(1);
            }
            Device device = pool.device(0);
            try (GgufFile gguf = GgufFile.open(o.model());
                    GpuBackend gpu = GpuBackend.open(device, o.gpu());
                    EmbeddingModel model =
                            Architectures.loadEmbeddingModel(gguf, gpu, new ModelOptions(largest * o.tokens(), 0))) {
                out.printf(Locale.ROOT, "device: %s; %s; %s%n", device.info().name(), model, o.gpu());
                for (int size : o.sizes()) {
                    List<int[]> batch = inputs(size, o.tokens());
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
                            o.tokens(),
                            1e3 * seconds / runs,
                            size * runs / seconds,
                            (double) size * o.tokens() * runs / seconds);
                }
                if (o.profile()) {
                    for (int size : o.sizes()) {
                        gpu.setProfiling(true);
                        model.embed(inputs(size, o.tokens()));
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
