package com.llmserve.bench;

import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.Backends;
import com.llmserve.engine.backend.Batch;
import com.llmserve.engine.backend.KvStorage;
import com.llmserve.engine.backend.gpu.GpuOptions;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.kv.BlockPool;
import com.llmserve.engine.kv.BlockTable;
import com.llmserve.engine.model.Architectures;
import com.llmserve.engine.model.LanguageModel;
import com.llmserve.engine.model.Logits;
import com.llmserve.engine.model.ModelOptions;
import com.llmserve.gpu.DevicePool;
import com.llmserve.gpu.RuntimeChoice;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.IntStream;

/**
 * A model split over GPUs against the same model whole on GPU 0, for files far larger than the
 * tests' tiny ones (a 70B shape over two GPUs): the whole model decodes a few synthetic prompts
 * greedily, one token a step as the service does (captured graphs); then the split model is fed
 * the same tokens, and decodes the prompts greedily on its own. Reported per prompt: the largest
 * |Δ log-probability| over the whole model's 10 most likely tokens of every step, the steps whose
 * choice differs where the whole model's margin (top-1 minus top-2 logit) is clear, and the first
 * step where the split's own greedy tokens leave the whole model's. The llama.cpp goldens' limits of
 * the quantized files are the defaults. Exit status 1 when a prompt is past them.
 */
public final class SplitParity {

    static final String USAGE = """
            usage: SplitParity --model FILE [options]
              --tensor-parallel N   GPUs the split spans, 0 to N-1 (default 2)
              --prompts N           synthetic prompts (default 4)
              --prompt-tokens N     tokens per prompt (default 32)
              --steps N             greedy steps per prompt (default 32)
              --tolerance X         largest |Δ log-probability| allowed (default 0.04)
              --margin X            a whole-model logit margin from which the split must choose the
                                    same token (default 0.03)
            """;

    private static final int BLOCK = 16;
    private static final int TOP = 10;

    record Options(
            Path model, int tensorParallel, int prompts, int promptTokens, int steps, double tolerance, double margin) {

        static Options parse(String[] args) {
            Arguments a = new Arguments(args);
            Path model = null;
            int tp = 2;
            int prompts = 4;
            int promptTokens = 32;
            int steps = 32;
            double tolerance = 0.04;
            double margin = 0.03;
            while (a.hasNext()) {
                String o = a.next();
                switch (o) {
                    case "--model" -> model = Path.of(a.value(o));
                    case "--tensor-parallel" -> tp = a.positive(o);
                    case "--prompts" -> prompts = a.positive(o);
                    case "--prompt-tokens" -> promptTokens = a.positive(o);
                    case "--steps" -> steps = a.positive(o);
                    case "--tolerance" -> tolerance = number(o, a.value(o));
                    case "--margin" -> margin = number(o, a.value(o));
                    default -> throw new IllegalArgumentException("unknown option " + o);
                }
            }
            if (model == null) {
                throw new IllegalArgumentException("--model is required");
            }
            if (tp < 2) {
                throw new IllegalArgumentException("--tensor-parallel must be 2 or more, not " + tp);
            }
            return new Options(model, tp, prompts, promptTokens, steps, tolerance, margin);
        }

        private static double number(String option, String s) {
            try {
                double d = Double.parseDouble(s);
                if (d >= 0 && Double.isFinite(d)) {
                    return d;
                }
            } catch (NumberFormatException e) {
                // said below
            }
            throw new IllegalArgumentException(option + ": '" + s + "' is not a number of 0 or more");
        }
    }

    /** One prompt's greedy run: the token chosen at each step and that step's log-probabilities. */
    record Run(int[] tokens, float[][] logProbs, float[] margins) {}

    private SplitParity() {}

    public static void main(String[] args) throws IOException {
        Optional<Options> parsed = Arguments.parseOrExit(args, USAGE, Options::parse);
        if (parsed.isEmpty()) {
            return;
        }
        Options o = parsed.get();
        PrintStream out = System.out;
        try (DevicePool pool = DevicePool.open(RuntimeChoice.AUTO);
                GgufFile file = GgufFile.open(o.model())) {
            if (pool.devices().size() < o.tensorParallel()) {
                out.println("--tensor-parallel " + o.tensorParallel() + " on "
                        + pool.devices().size() + " GPU(s)");
                System.exit(1);
            }
            Backends backends = new Backends(pool, 1, GpuOptions.defaults());
            int[] shards = IntStream.range(0, o.tensorParallel()).toArray();
            if (!compare(file, () -> backends.openOn(0), () -> backends.openTensorParallel(shards), o, out)) {
                System.exit(1);
            }
        }
    }

    /**
     * The whole model on {@code whole}'s backend against the split one on {@code split}'s (each
     * opened in turn, and closed before the next: both need the first GPU's memory); whether every
     * prompt is within the tolerance.
     */
    static boolean compare(
            GgufFile file, Supplier<Backend> whole, Supplier<Backend> split, Options o, PrintStream out) {
        Run[] reference = new Run[o.prompts()];
        try (Backend be = whole.get()) {
            decode(file, be, o, reference, null, out);
        }
        Run[] forced = new Run[o.prompts()];
        Run[] free = new Run[o.prompts()];
        try (Backend be = split.get()) {
            decode(file, be, o, forced, reference, out);
            decode(file, be, o, free, null, out);
        }
        return report(o, reference, forced, free, out);
    }

    /**
     * Every prompt's run on {@code be}: greedy, or fed {@code feed}'s tokens when given (the
     * log-probabilities are then those of the same contexts as feed's).
     */
    private static void decode(GgufFile file, Backend be, Options o, Run[] runs, Run[] feed, PrintStream out) {
        long start = System.nanoTime();
        int length = o.promptTokens() + o.steps();
        try (LanguageModel model = Architectures.loadLanguageModel(file, be, new ModelOptions(length, 0))) {
            BlockPool blocks = new BlockPool((length + BLOCK - 1) / BLOCK + 1, BLOCK);
            try (KvStorage kv = model.newKvStorage(blocks.capacity(), BLOCK)) {
                for (int p = 0; p < runs.length; p++) {
                    BlockTable table = new BlockTable(blocks);
                    if (!table.ensureCapacity(length)) {
                        throw new IllegalStateException("KV block pool too small");
                    }
                    int[] prompt = prompt(o.promptTokens(), p, model.vocabSize());
                    Logits l = model.forward(
                            Batch.builder(BLOCK)
                                    .add(table.blocks(), 0, prompt, Batch.Logits.LAST)
                                    .build(),
                            kv);
                    Run r = new Run(new int[o.steps()], new float[o.steps()][], new float[o.steps()]);
                    for (int k = 0; k < o.steps(); k++) {
                        float[] row = l.row(0);
                        r.logProbs()[k] = logSoftmax(row);
                        r.tokens()[k] = argmax(row);
                        r.margins()[k] = margin(row);
                        if (k + 1 < o.steps()) {
                            int next = feed == null ? r.tokens()[k] : feed[p].tokens()[k];
                            l = model.forward(
                                    Batch.builder(BLOCK)
                                            .add(
                                                    table.blocks(),
                                                    o.promptTokens() + k,
                                                    new int[] {next},
                                                    Batch.Logits.LAST)
                                            .build(),
                                    kv);
                        }
                    }
                    runs[p] = r;
                    table.release();
                }
            }
            out.printf(
                    Locale.ROOT,
                    "%s on %s: %d prompts x (%d + %d) tokens, %s, in %.1f s%n",
                    file.path().getFileName(),
                    be.description(),
                    runs.length,
                    o.promptTokens(),
                    o.steps(),
                    feed == null ? "greedy" : "fed the whole model's tokens",
                    (System.nanoTime() - start) / 1e9);
        }
    }

    private static boolean report(Options o, Run[] whole, Run[] forced, Run[] free, PrintStream out) {
        boolean ok = true;
        double worst = 0;
        for (int p = 0; p < whole.length; p++) {
            double maxDiff = 0;
            int clearSteps = 0;
            int differs = 0;
            for (int k = 0; k < o.steps(); k++) {
                float[] a = whole[p].logProbs()[k];
                float[] b = forced[p].logProbs()[k];
                for (int id : top(a, TOP)) {
                    maxDiff = Math.max(maxDiff, Math.abs(a[id] - b[id]));
                }
                if (whole[p].margins()[k] >= o.margin()) {
                    clearSteps++;
                    differs += forced[p].tokens()[k] != whole[p].tokens()[k] ? 1 : 0;
                }
            }
            int firstDiverging = -1;
            for (int k = 0; k < o.steps() && firstDiverging < 0; k++) {
                if (free[p].tokens()[k] != whole[p].tokens()[k]) {
                    firstDiverging = k;
                }
            }
            boolean pass = maxDiff <= o.tolerance() && differs == 0;
            ok &= pass;
            worst = Math.max(worst, maxDiff);
            out.printf(
                    Locale.ROOT,
                    "prompt %d: max |dlogprob| over the top %d %.5f; tokens differing at clear margins %d of %d;"
                            + " split's own greedy tokens %s; %s%n",
                    p,
                    TOP,
                    maxDiff,
                    differs,
                    clearSteps,
                    firstDiverging < 0
                            ? "all " + o.steps() + " the whole model's"
                            : "the whole model's up to step " + firstDiverging + " (margin there "
                                    + String.format(Locale.ROOT, "%.4f", whole[p].margins()[firstDiverging]) + ")",
                    pass ? "within tolerance" : "PAST tolerance");
        }
        out.printf(
                Locale.ROOT,
                "split over %d against whole: max |dlogprob| %.5f (tolerance %.3f, margin %.3f): %s%n",
                o.tensorParallel(),
                worst,
                o.tolerance(),
                o.margin(),
                ok ? "pass" : "FAIL");
        return ok;
    }

    /** A synthetic prompt: BOS, then ids striding over the vocabulary's first thousands (past its specials). */
    private static int[] prompt(int n, int seed, int vocab) {
        int low = Math.min(100, vocab / 4);
        int span = Math.min(4000, vocab - low);
        int[] p = new int[n];
        p[0] = 1;
        for (int i = 1; i < n; i++) {
            p[i] = low + (seed * 7919 + i * 131) % span;
        }
        return p;
    }

    static float[] logSoftmax(float[] row) {
        double max = Double.NEGATIVE_INFINITY;
        for (float v : row) {
            max = Math.max(max, v);
        }
        double sum = 0;
        for (float v : row) {
            sum += Math.exp(v - max);
        }
        double log = max + Math.log(sum);
        float[] out = new float[row.length];
        for (int i = 0; i < row.length; i++) {
            out[i] = (float) (row[i] - log);
        }
        return out;
    }

    static int argmax(float[] row) {
        int best = 0;
        for (int i = 1; i < row.length; i++) {
            if (row[i] > row[best]) {
                best = i;
            }
        }
        return best;
    }

    /** Top-1 minus top-2 logit. */
    static float margin(float[] row) {
        int best = argmax(row);
        float second = Float.NEGATIVE_INFINITY;
        for (int i = 0; i < row.length; i++) {
            if (i != best) {
                second = Math.max(second, row[i]);
            }
        }
        return row[best] - second;
    }

    /** The ids of the {@code k} largest values, largest first. */
    static int[] top(float[] row, int k) {
        return IntStream.range(0, row.length)
                .boxed()
                .sorted((x, y) -> Float.compare(row[y], row[x]))
                .limit(k)
                .mapToInt(Integer::intValue)
                .toArray();
    }
}
