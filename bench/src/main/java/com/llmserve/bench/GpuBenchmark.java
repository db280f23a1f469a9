package com.llmserve.bench;

import com.llmserve.engine.backend.Backends;
import com.llmserve.engine.backend.Batch;
import com.llmserve.engine.backend.KvCacheType;
import com.llmserve.engine.backend.KvStorage;
import com.llmserve.engine.backend.gpu.GpuBackend;
import com.llmserve.engine.backend.gpu.GpuOptions;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.gguf.GgufTensor;
import com.llmserve.engine.kv.BlockPool;
import com.llmserve.engine.kv.BlockTable;
import com.llmserve.engine.model.Architectures;
import com.llmserve.engine.model.LanguageModel;
import com.llmserve.engine.model.Logits;
import com.llmserve.engine.model.ModelOptions;
import com.llmserve.engine.model.PendingLogits;
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
import java.util.stream.IntStream;

/**
 * Engine-level speed of GGUF models on the first GPU: batch-1 decode, prefill, and aggregate
 * decode of many sequences, with the weight bandwidth decode achieves. Prints one table; every
 * figure is tokens per second of wall time around {@code LanguageModel.forward}, after warm-up,
 * with the greedy choice of each decode step made on the device (top-1, as the engine does for
 * greedy requests) or, with {@code --host-argmax}, with whole logit rows copied to the host.
 * Run {@code GpuBenchmark --help} for the options.
 */
public final class GpuBenchmark {

    /** Batch-1 decode steps run before the timed ones (see {@link #warmUp}). */
    /**
     * The host code a decode step runs once per step reaches the JIT's optimizing tier after some
     * thousands of steps: on an H100, 8B Q4_0 batch-1 steps carried 0.15-0.18 ms of host time after
     * 1,500 warm-up steps and 0.07-0.11 ms after 8,000 (qwen3-8b: 0.29-0.36 and 0.16-0.18 ms).
     */
    private static final int DEFAULT_WARM_UP_STEPS = 8000;

    /** The warm-up stops after this long even short of its steps (a 70B step takes 16 ms). */
    private static final long WARM_UP_NANOS = 20_000_000_000L;

    static final String USAGE = """
            usage: GpuBenchmark --model FILE[=LABEL[:DECODE,PREFILL,AGG]] ... [options]
              --model SPEC          a GGUF language model (repeatable); LABEL names its report row, and
                                    llama.cpp's figures for batch-1 decode, prefill and aggregate decode
                                    at the largest --sequences, when given, add ratios to them
              --decode-steps N      timed batch-1 decode steps (default 128)
              --warm-up N           untimed batch-1 decode steps before them, which the host code's
                                    compilation needs (default 8000, or 20 s if that comes first)
              --prefill N           prompt tokens of the prefill measurement (default 512)
              --sequences LIST      sequences decoded together, one column each (default 4,16,64)
              --prompt N            prompt tokens per sequence of the aggregate runs (default 128)
              --generate N          tokens generated per sequence of those, at least 3 (default 128)
              --no-graphs           launch every operation instead of replaying captured graphs
              --gemm-min-rows N     products of at least N rows run through the vendor BLAS
                                    (default: the backend's)
              --mmq-max-rows N      Q4_0/Q8_0 products of --gemm-min-rows to N rows without half copies
                                    run the int8 tensor-core kernels instead of dequantizing for the
                                    BLAS, 0 for never (default: the backend's)
              --no-expert-tensor-cores  a mixture's expert groups through GEMV passes of up to 8
                                    instead of the int8 tensor cores
              --no-half-tensor-products  the products --mmq-max-rows gives the tensor cores on the int8
                                    ones (ls_mmq_*) instead of the half ones (ls_mmh_*), and those
                                    of up to 48 rows over half copies through the BLAS
              --no-dependent-launches  every kernel launched once the one before it has ended (no
                                    programmatic dependent launch)
              --half-weights        half-precision copies of every weight for the BLAS products, while
                                    device memory lasts
              --half-weight-share S the share of free device memory the half copies may take, 0 for
                                    none (default: the service's, 0.5)
              --batch-invariant     every row computed as if alone (one-row kernels, fixed attention
                                    splits, one-pair expert groups): the option's cost
              --host-argmax         copy whole logit rows to the host instead of choosing on the device
              --kv-cache-type T     f16 (default) or q8_0: how the KV cache stores keys and values
              --tensor-parallel N   split each model over GPUs 0 to N-1 (heads and feed-forward
                                    columns, NCCL all-reduce); --profile then times shard 0 only
              --nccl-only           every all-reduce through NCCL (no peer-access kernel)
              --profile             then run a few steps of each phase once more with device events
                                    around every operation and print where the device time goes
                                    (those steps run without graphs)
              --ablate              then time the batch-1 graph with each kind of operation left out
                                    in turn: what each costs inside the captured step (the
                                    dependent launches' overlap included), which events cannot say
              --ablate-rows R,...   the same for decode steps of R sequences each (1 is --ablate;
                                    more rows start at position --prompt)
            """;

    private static final int BLOCK = 16;

    /** A model to measure, its report label and llama.cpp's figures to compare with (or null). */
    record Target(Path file, String label, double[] anchors) {

        /** {@code FILE[=LABEL[:DECODE,PREFILL,AGG]]}. */
        static Target parse(String spec) {
            int eq = spec.indexOf('=');
            Path file = Path.of(eq < 0 ? spec : spec.substring(0, eq));
            String label = eq < 0 ? file.getFileName().toString() : spec.substring(eq + 1);
            double[] anchors = null;
            int colon = label.indexOf(':');
            if (colon >= 0) {
                try {
                    anchors = Arrays.stream(label.substring(colon + 1).split(","))
                            .mapToDouble(Double::parseDouble)
                            .toArray();
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(
                            "--model " + spec + ": anchors are numbers, as in =8B:257,10541,2673");
                }
                label = label.substring(0, colon);
            }
            return new Target(file, label, anchors);
        }
    }

    record Options(
            List<Target> models,
            int decodeSteps,
            int prefill,
            int[] sequences,
            int prompt,
            int generate,
            GpuOptions gpu,
            int topK,
            boolean profile,
            int[] ablateRows,
            int tensorParallel,
            int warmUpSteps,
            KvCacheType kvCacheType) {

        static Options parse(String[] args) {
            List<Target> models = new ArrayList<>();
            int decodeSteps = 128;
            int prefill = 512;
            int[] sequences = {4, 16, 64};
            int prompt = 128;
            int generate = 128;
            GpuOptions gpu = GpuOptions.defaults();
            int topK = 1;
            boolean profile = false;
            int[] ablateRows = {};
            int tensorParallel = 1;
            int warmUp = DEFAULT_WARM_UP_STEPS;
            KvCacheType kvCacheType = KvCacheType.F16;
            Arguments a = new Arguments(args);
            while (a.hasNext()) {
                String option = a.next();
                switch (option) {
                    case "--model" -> models.add(Target.parse(a.value(option)));
                    case "--decode-steps" -> decodeSteps = a.positive(option);
                    case "--warm-up" -> warmUp = a.positive(option);
                    case "--prefill" -> prefill = a.positive(option);
                    case "--sequences" -> sequences = a.positives(option);
                    case "--prompt" -> prompt = a.positive(option);
                    case "--generate" -> generate = a.positive(option);
                    case "--no-graphs" -> gpu = gpu.withGraphs(false);
                    case "--profile" -> profile = true;
                    case "--ablate" -> ablateRows = new int[] {1};
                    case "--ablate-rows" -> ablateRows = a.positives(option);
                    case "--host-argmax" -> topK = 0;
                    case "--kv-cache-type" -> kvCacheType = KvCacheType.parse(a.value(option));
                    case "--half-weights" -> gpu = gpu.withHalfWeights(true);
                    case "--half-weight-share" -> gpu = gpu.withHalfWeightShare(a.share(option));
                    case "--gemm-min-rows" -> gpu = gpu.withGemmMinRows(a.positive(option));
                    case "--mmq-max-rows" -> gpu = gpu.withMmqMaxRows(Integer.parseInt(a.value(option)));
                    case "--no-expert-tensor-cores" -> gpu = gpu.withExpertTensorCores(false);
                    case "--no-half-tensor-products" -> gpu = gpu.withHalfTensorProducts(false);
                    case "--no-dependent-launches" -> gpu = gpu.withDependentLaunches(false);
                    case "--batch-invariant" -> gpu = gpu.withBatchInvariant(true);
                    case "--tensor-parallel" -> tensorParallel = a.positive(option);
                    case "--nccl-only" -> gpu = gpu.withPeerAllReduce(false);
                    default -> throw new IllegalArgumentException("unknown option " + option);
                }
            }
            if (models.isEmpty()) {
                throw new IllegalArgumentException("no --model given");
            }
            // the first decode steps of each width capture their graphs and are left out of the timing
            if (generate < 3) {
                throw new IllegalArgumentException("--generate must be at least 3");
            }
            return new Options(
                    models,
                    decodeSteps,
                    prefill,
                    sequences,
                    prompt,
                    generate,
                    gpu,
                    topK,
                    profile,
                    ablateRows,
                    tensorParallel,
                    warmUp,
                    kvCacheType);
        }
    }

    private GpuBenchmark() {}

    public static void main(String[] args) throws IOException {
        Optional<Options> parsed = Arguments.parseOrExit(args, USAGE, Options::parse);
        if (parsed.isEmpty()) {
            return;
        }
        Options o = parsed.get();
        PrintStream out = System.out;
        try (DevicePool pool = DevicePool.open(RuntimeChoice.AUTO)) {
            if (pool.isEmpty()) {
                out.println("no GPU: " + pool.statuses());
                System.exit(1);
            }
            Device device = pool.device(0);
            out.printf(
                    Locale.ROOT,
                    "device: %s, %d multiprocessors, %.1f GiB; %s, %s KV cache%n",
                    device.info().name(),
                    device.info().multiprocessors(),
                    device.info().totalMemory() / (double) (1L << 30),
                    o.gpu(),
                    o.kvCacheType());
            List<String> rows = new ArrayList<>();
            for (Target t : o.models()) {
                rows.addAll(run(pool, t, o, out));
            }
            out.println();
            out.println("| model | weight GiB read/step | batch-1 decode tok/s | weight GB/s | prefill-" + o.prefill()
                    + " tok/s | "
                    + String.join(
                            " | ",
                            Arrays.stream(o.sequences())
                                    .mapToObj(s -> "agg decode @" + s + " tok/s")
                                    .toList())
                    + " | agg @" + o.sequences()[o.sequences().length - 1] + " incl. prefill tok/s |");
            out.println("|---|---|---|---|---|" + "---|".repeat(o.sequences().length) + "---|");
            rows.forEach(out::println);
        }
    }

    private static List<String> run(DevicePool devices, Target t, Options o, PrintStream out) throws IOException {
        List<String> rows = new ArrayList<>();
        if (o.tensorParallel() > devices.devices().size()) {
            throw new IllegalArgumentException("--tensor-parallel " + o.tensorParallel() + " on "
                    + devices.devices().size() + " GPU(s)");
        }
        int[] shards = java.util.stream.IntStream.range(0, o.tensorParallel()).toArray();
        try (GgufFile file = GgufFile.open(t.file());
                GpuBackend gpu = (GpuBackend) new Backends(devices, 1, o.gpu()).openTensorParallel(shards)) {
            long stepBytes = weightBytesPerStep(file);
            long start = System.nanoTime();
            int maxTokens = Math.max(512, o.prefill());
            try (LanguageModel model = Architectures.loadLanguageModel(
                    file, gpu, new ModelOptions(maxTokens, 0).withKvCacheType(o.kvCacheType()))) {
                out.printf(
                        Locale.ROOT,
                        "%s: loaded in %.1f s (%s), %.2f GiB of weights read per decode step%n",
                        t.label(),
                        (System.nanoTime() - start) / 1e9,
                        model,
                        stepBytes / (double) (1L << 30));
                int maxSeq = IntStream.concat(Arrays.stream(o.sequences()), Arrays.stream(o.ablateRows()))
                        .max()
                        .orElse(1);
                int perSequence = IntStream.of(
                                o.prompt() + o.generate(),
                                o.prefill(),
                                16 + 8 + o.decodeSteps(),
                                o.prompt() + Math.max(64, o.decodeSteps()))
                        .max()
                        .getAsInt();
                BlockPool pool = new BlockPool(maxSeq * ((perSequence + BLOCK - 1) / BLOCK + 1) + 2, BLOCK);
                try (KvStorage kv = model.newKvStorage(pool.capacity(), BLOCK)) {
                    double decode = decodeOne(model, kv, pool, o, gpu, t.label(), out);
                    double prefill = prefill(model, kv, pool, o.prefill());
                    double[] aggregate = new double[o.sequences().length];
                    double total = 0;
                    for (int i = 0; i < aggregate.length; i++) {
                        double[] r = aggregate(model, kv, pool, o.sequences()[i], o.prompt(), o.generate(), o.topK());
                        aggregate[i] = r[0];
                        total = r[1];
                        out.printf(
                                Locale.ROOT,
                                "%s: %d sequences x (%d prompt + %d generated): decode %.0f tok/s%s, with prefill %.0f tok/s%n",
                                t.label(),
                                o.sequences()[i],
                                o.prompt(),
                                o.generate(),
                                r[0],
                                o.topK() > 0 && model.submitsAhead() ? " (steps overlapped)" : "",
                                r[1]);
                    }
                    double gbs = stepBytes * decode / 1e9;
                    out.printf(
                            Locale.ROOT,
                            "%s: batch-1 decode %.1f tok/s (%.0f GB/s of weights), prefill-%d %.0f tok/s; %s%n",
                            t.label(),
                            decode,
                            gbs,
                            o.prefill(),
                            prefill,
                            gpu.stats());
                    StringBuilder row = new StringBuilder(String.format(
                            Locale.ROOT,
                            "| %s | %.2f | %.1f%s | %.0f | %.0f%s |",
                            t.label(),
                            stepBytes / (double) (1L << 30),
                            decode,
                            ratio(decode, t.anchors(), 0),
                            gbs,
                            prefill,
                            ratio(prefill, t.anchors(), 1)));
                    for (int i = 0; i < aggregate.length; i++) {
                        boolean last = i == aggregate.length - 1;
                        row.append(String.format(
                                Locale.ROOT,
                                " %.0f%s |",
                                aggregate[i],
                                last ? ratio(aggregate[i], t.anchors(), 2) : ""));
                    }
                    row.append(String.format(Locale.ROOT, " %.0f |", total));
                    rows.add(row.toString());
                    if (o.profile()) {
                        profile(t.label(), gpu, model, kv, pool, o, out);
                    }
                    for (int width : o.ablateRows()) {
                        ablate(t.label(), gpu, model, kv, pool, o, width, out);
                    }
                }
            }
        }
        return rows;
    }

    /** Device time per operation kind for a few steps of each phase (decode 1, prefill, decode of many). */
    private static void profile(
            String label,
            GpuBackend gpu,
            LanguageModel model,
            KvStorage kv,
            BlockPool pool,
            Options o,
            PrintStream out) {
        int steps = 8;
        BlockTable one = sequence(pool, 16 + steps);
        prefillPrompt(model, kv, one, 16, 7);
        gpu.setProfiling(true);
        for (int s = 0; s < steps; s++) {
            model.forward(one(one, 16 + s, 100 + s), kv);
        }
        printProfile(label + " decode, 1 sequence at position 16", steps, gpu.takeProfile(), out);
        one.release();
        BlockTable p = sequence(pool, o.prefill());
        prefillPrompt(model, kv, p, o.prefill(), 3);
        printProfile(label + " prefill of " + o.prefill(), 1, gpu.takeProfile(), out);
        p.release();
        gpu.setProfiling(false);
        for (int sequences : o.sequences()) {
            List<BlockTable> tables = new ArrayList<>();
            Batch.Builder b = Batch.builder(BLOCK);
            for (int s = 0; s < sequences; s++) {
                BlockTable t = new BlockTable(pool);
                require(t.ensureCapacity(o.prompt() + steps));
                tables.add(t);
                b.add(t.blocks(), 0, prompt(o.prompt(), s), Batch.Logits.LAST);
            }
            model.forward(b.build(), kv);
            gpu.setProfiling(true);
            for (int step = 0; step < steps; step++) {
                Batch.Builder d = Batch.builder(BLOCK);
                for (int s = 0; s < sequences; s++) {
                    d.add(tables.get(s).blocks(), o.prompt() + step, new int[] {100 + s}, Batch.Logits.LAST);
                }
                model.forward(d.build(), kv);
            }
            printProfile(
                    label + " decode, " + sequences + " sequences at position " + o.prompt(),
                    steps,
                    gpu.takeProfile(),
                    out);
            gpu.setProfiling(false);
            tables.forEach(BlockTable::release);
        }
    }

    /**
     * What each kind of operation (a profile key) costs inside a captured decode step of {@code rows}
     * sequences: the graph's device time with every operation, then with each kind left out in turn
     * ({@link GpuBackend#omitFromLaunches}). Events around each launch time a kernel alone; this
     * times what removing it saves, overlap with its neighbours included. The tokens are fixed (the
     * outputs are meaningless while anything is left out); the routing a mixture left in place
     * keeps its last experts. One row starts at position 16, more at {@code --prompt}.
     */
    private static void ablate(
            String label,
            GpuBackend gpu,
            LanguageModel model,
            KvStorage kv,
            BlockPool pool,
            Options o,
            int rows,
            PrintStream out) {
        int steps = Math.max(64, o.decodeSteps());
        int start = rows == 1 ? 16 : o.prompt();
        List<BlockTable> tables = new ArrayList<>();
        for (int r = 0; r < rows; r++) {
            BlockTable table = sequence(pool, start + steps);
            prefillPrompt(model, kv, table, start, 5 + r);
            tables.add(table);
        }
        gpu.setProfiling(true);
        model.forward(step(tables, start, 0), kv, o.topK());
        List<GpuBackend.ProfileEntry> kinds = gpu.takeProfile();
        gpu.setProfiling(false);
        double all = graphMillis(gpu, model, kv, tables, start, steps, o.topK());
        out.printf(
                Locale.ROOT,
                "ablation %s: %d-row graph %.3f ms a step at positions %d-%d with every operation; without each kind:%n",
                label,
                rows,
                all,
                start,
                start + steps - 1);
        for (GpuBackend.ProfileEntry kind : kinds) {
            gpu.omitFromLaunches(kind.key()::equals);
            double without = graphMillis(gpu, model, kv, tables, start, steps, o.topK());
            out.printf(
                    Locale.ROOT,
                    "  %-62s %5.0f a step  without %.3f ms  saves %.3f ms (%.1f%%, %.2f us each)%n",
                    kind.key(),
                    (double) kind.calls(),
                    without,
                    all - without,
                    100 * (all - without) / all,
                    1e3 * (all - without) / kind.calls());
        }
        gpu.omitFromLaunches(null);
        tables.forEach(BlockTable::release);
    }

    /**
     * The graphs' device time per decode step over {@code steps} steps (after one that captures
     * them): a step may replay more than one (its body, its logits); NaN where any of its runs was
     * launched without a graph (a BLAS product), whose time no event here measures.
     */
    private static double graphMillis(
            GpuBackend gpu,
            LanguageModel model,
            KvStorage kv,
            List<BlockTable> tables,
            int start,
            int steps,
            int topK) {
        model.forward(step(tables, start, 0), kv, topK);
        GpuBackend.Stats before = gpu.stats();
        for (int s = 0; s < steps; s++) {
            model.forward(step(tables, start + s, s), kv, topK);
        }
        GpuBackend.Stats after = gpu.stats();
        boolean eager = after.eagerSteps() > before.eagerSteps();
        return eager ? Double.NaN : (after.graphMillis() - before.graphMillis()) / steps;
    }

    /** One decode step of every table's sequence at {@code position}, with fixed tokens. */
    private static Batch step(List<BlockTable> tables, int position, int s) {
        Batch.Builder b = Batch.builder(BLOCK);
        for (int r = 0; r < tables.size(); r++) {
            b.add(tables.get(r).blocks(), position, new int[] {100 + (s + r) % 400}, Batch.Logits.LAST);
        }
        return b.build();
    }

    static void printProfile(String phase, int steps, List<GpuBackend.ProfileEntry> entries, PrintStream out) {
        double total =
                entries.stream().mapToDouble(GpuBackend.ProfileEntry::millis).sum();
        out.printf(
                Locale.ROOT,
                "profile %s: %.3f ms of device time per step (%d kernels' operations)%n",
                phase,
                total / steps,
                entries.stream().mapToLong(GpuBackend.ProfileEntry::calls).sum() / steps);
        for (GpuBackend.ProfileEntry e : entries) {
            String bandwidth = e.weightBytes() > 0
                    ? String.format(Locale.ROOT, " %7.0f GB/s", e.weightBytes() * e.calls() / (e.millis() / 1e3) / 1e9)
                    : "";
            out.printf(
                    Locale.ROOT,
                    "  %-62s %6.1f calls %8.3f ms %5.1f%%%s%n",
                    e.key(),
                    e.calls() / (double) steps,
                    e.millis() / steps,
                    100 * e.millis() / total,
                    bandwidth);
        }
    }

    private static String ratio(double value, double[] anchors, int i) {
        return anchors != null && anchors.length > i && anchors[i] > 0
                ? String.format(Locale.ROOT, " (%.2fx)", value / anchors[i])
                : "";
    }

    /**
     * Bytes of every matrix a batch-1 decode step multiplies: all 2-D weights except an untied token
     * table (only gathered), and of a mixture's stacked experts the share one token uses.
     */
    static long weightBytesPerStep(GgufFile file) {
        boolean tied = file.findTensor("output.weight").isEmpty();
        String arch = file.metadata().getString("general.architecture");
        int experts = file.metadata().findInt(arch + ".expert_count").orElse(0);
        int used = file.metadata().findInt(arch + ".expert_used_count").orElse(0);
        long bytes = 0;
        for (GgufTensor t : file.tensors()) {
            if (t.dims() == 3 && experts > 0 && used > 0) {
                bytes += t.byteSize() / experts * used;
            } else if (t.dims() >= 2 && (tied || !t.name().equals("token_embd.weight"))) {
                bytes += t.byteSize();
            }
        }
        return bytes;
    }

    /**
     * Batch-1 decode after the {@link #warmUp}, then a 16-token prompt and 8 more untimed steps:
     * steps one after the other (each read before the next is recorded), then, where the model
     * submits ahead, steps overlapped as the engine runs greedy ones (step n+1 issued, its token
     * taken on the device, before step n is read); returns the overlapped rate where there is one.
     */
    private static double decodeOne(
            LanguageModel model,
            KvStorage kv,
            BlockPool pool,
            Options o,
            GpuBackend gpu,
            String label,
            PrintStream out) {
        int steps = o.decodeSteps();
        int topK = o.topK();
        warmUp(model, kv, pool, 16 + 8 + steps, topK, o.warmUpSteps());
        BlockTable table = sequence(pool, 16 + 8 + steps);
        Logits l = prefillPrompt(model, kv, table, 16, 0);
        int pos = 16;
        int token = l.best(0);
        for (int s = 0; s < 8; s++) {
            token = model.forward(one(table, pos++, token), kv, topK).best(0);
        }
        GpuBackend.Stats before = gpu.stats();
        long start = System.nanoTime();
        for (int s = 0; s < steps; s++) {
            token = model.forward(one(table, pos++, token), kv, topK).best(0);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        GpuBackend.Stats after = gpu.stats();
        table.release();
        printStepTimes(label, seconds * 1e3 / steps, before, after, steps, out);
        double sequential = steps / seconds;
        if (topK == 0 || !model.submitsAhead()) {
            return sequential;
        }
        table = sequence(pool, 16 + 8 + steps);
        token = prefillPrompt(model, kv, table, 16, 0).best(0);
        pos = overlapped(model, kv, table, 16, token, 8, topK);
        before = gpu.stats();
        start = System.nanoTime();
        overlapped(model, kv, table, pos, token, steps, topK);
        seconds = (System.nanoTime() - start) / 1e9;
        after = gpu.stats();
        table.release();
        printStepTimes(label + " overlapped", seconds * 1e3 / steps, before, after, steps, out);
        out.printf(
                Locale.ROOT,
                "%s: batch-1 decode %.1f tok/s with steps overlapped, %.1f one after the other%n",
                label,
                steps / seconds,
                sequential);
        return steps / seconds;
    }

    /**
     * {@code steps} greedy batch-1 steps from {@code pos}, each issued before the one before it is
     * read and taking its token from it (the first takes {@code token}); returns the next position.
     */
    private static int overlapped(
            LanguageModel model, KvStorage kv, BlockTable table, int pos, int token, int steps, int topK) {
        PendingLogits pending = model.submit(one(table, pos++, token), kv, topK, null);
        for (int s = 1; s < steps; s++) {
            Batch next = Batch.builder(BLOCK)
                    .addChoice(table.blocks(), pos++, 0, Batch.Logits.LAST)
                    .build();
            PendingLogits after = model.submit(next, kv, topK, null);
            pending.await().best(0);
            pending = after;
        }
        pending.await();
        return pos;
    }

    /**
     * {@code total} batch-1 decode steps (or {@link #WARM_UP_NANOS} of them) on throwaway sequences
     * of at most {@code capacity} positions first, so that the timed steps run the host code
     * compiled, as a serving engine does after its first seconds, not interpreted.
     */
    private static void warmUp(LanguageModel model, KvStorage kv, BlockPool pool, int capacity, int topK, int total) {
        int done = 0;
        long end = System.nanoTime() + WARM_UP_NANOS;
        boolean ahead = topK > 0 && model.submitsAhead();
        while (done < total && System.nanoTime() < end) {
            BlockTable table = sequence(pool, capacity);
            int token = prefillPrompt(model, kv, table, 16, 1).best(0);
            if (ahead) { // both paths, alternately: the timed runs take both
                int steps = Math.min(capacity - 16, total - done);
                overlapped(model, kv, table, 16, token, steps, topK);
                done += steps;
                ahead = false;
            } else {
                for (int pos = 16; pos < capacity && done < total; pos++, done++) {
                    token = model.forward(one(table, pos, token), kv, topK).best(0);
                }
                ahead = topK > 0 && model.submitsAhead();
            }
            table.release();
        }
    }

    /**
     * Where a batch-1 step's wall time goes: the graph's device time, the host issuing it (metadata,
     * launch, copy back), waiting for it, and the rest (the model recording its operations).
     */
    private static void printStepTimes(
            String label, double wallMs, GpuBackend.Stats before, GpuBackend.Stats after, int steps, PrintStream out) {
        double launch = (after.launchMillis() - before.launchMillis()) / steps;
        double wait = (after.waitMillis() - before.waitMillis()) / steps;
        long replays = after.graphReplays() - before.graphReplays();
        double graph = replays > 0 ? (after.graphMillis() - before.graphMillis()) / replays : Double.NaN;
        double copies = replays > 0 ? (after.copyMillis() - before.copyMillis()) / replays : Double.NaN;
        out.printf(
                Locale.ROOT,
                "%s: batch-1 step %.3f ms wall: graph %.3f ms of device time (%d of %d steps replayed),"
                        + " copies around it %.3f ms; host %.3f ms issuing, %.3f ms waiting, %.3f ms recording%n",
                label,
                wallMs,
                graph,
                replays,
                steps,
                copies,
                launch,
                wait,
                wallMs - launch - wait);
    }

    /** One sequence's prompt of {@code n} tokens in one forward pass; the median of three after a warm-up. */
    private static double prefill(LanguageModel model, KvStorage kv, BlockPool pool, int n) {
        double[] times = new double[4];
        for (int i = 0; i < times.length; i++) {
            BlockTable table = new BlockTable(pool);
            require(table.ensureCapacity(n));
            Batch b = Batch.builder(BLOCK)
                    .add(table.blocks(), 0, prompt(n, i), Batch.Logits.LAST)
                    .build();
            long start = System.nanoTime();
            Logits l = model.forward(b, kv);
            times[i] = (System.nanoTime() - start) / 1e9;
            requireFinite(l);
            table.release();
        }
        double[] timed = Arrays.copyOfRange(times, 1, times.length);
        Arrays.sort(timed);
        return n / timed[timed.length / 2];
    }

    /**
     * {@code sequences} sequences prefilled together, then decoded together one token each per
     * step; returns decode tokens/s and (prompt + generated) tokens/s over both phases.
     */
    private static double[] aggregate(
            LanguageModel model,
            KvStorage kv,
            BlockPool pool,
            int sequences,
            int promptLength,
            int generate,
            int topK) {
        List<BlockTable> tables = new ArrayList<>();
        Batch.Builder prefill = Batch.builder(BLOCK);
        for (int s = 0; s < sequences; s++) {
            BlockTable t = new BlockTable(pool);
            require(t.ensureCapacity(promptLength + generate));
            tables.add(t);
            prefill.add(t.blocks(), 0, prompt(promptLength, s), Batch.Logits.LAST);
        }
        long start = System.nanoTime();
        Logits l = model.forward(prefill.build(), kv);
        requireFinite(l);
        int[] tokens = new int[sequences];
        for (int s = 0; s < sequences; s++) {
            tokens[s] = l.best(s);
        }
        // as the engine runs greedy steps where it can: each issued before the one before it is
        // read, its tokens taken on the device; the first decode step of a width captures its
        // graph (and, overlapped, the second that of a step taking choices): timed after them
        boolean ahead = topK > 0 && model.submitsAhead();
        int timedFrom = ahead ? 2 : 1;
        long decodeStart = 0;
        PendingLogits pending = null;
        for (int step = 0; step < generate; step++) {
            if (step == timedFrom) {
                decodeStart = System.nanoTime();
            }
            Batch.Builder b = Batch.builder(BLOCK);
            for (int s = 0; s < sequences; s++) {
                if (ahead && step > 0) {
                    b.addChoice(tables.get(s).blocks(), promptLength + step, s, Batch.Logits.LAST);
                } else {
                    b.add(tables.get(s).blocks(), promptLength + step, new int[] {tokens[s]}, Batch.Logits.LAST);
                }
            }
            PendingLogits next = model.submit(b.build(), kv, topK, null);
            if (ahead) {
                if (pending != null) {
                    pending.await();
                }
                pending = next;
            } else {
                l = next.await();
                for (int s = 0; s < sequences; s++) {
                    tokens[s] = l.best(s);
                }
            }
        }
        if (pending != null) {
            pending.await();
        }
        long end = System.nanoTime();
        tables.forEach(BlockTable::release);
        return new double[] {
            (double) sequences * (generate - timedFrom) / ((end - decodeStart) / 1e9),
            (double) sequences * (promptLength + generate) / ((end - start) / 1e9)
        };
    }

    /** A new sequence's block table with room for {@code capacity} positions. */
    private static BlockTable sequence(BlockPool pool, int capacity) {
        BlockTable table = new BlockTable(pool);
        require(table.ensureCapacity(capacity));
        return table;
    }

    /** Prefills {@code table}'s sequence with a synthetic prompt of {@code length} tokens; its last logits. */
    private static Logits prefillPrompt(LanguageModel model, KvStorage kv, BlockTable table, int length, int seed) {
        return model.forward(
                Batch.builder(BLOCK)
                        .add(table.blocks(), 0, prompt(length, seed), Batch.Logits.LAST)
                        .build(),
                kv);
    }

    private static Batch one(BlockTable table, int position, int token) {
        return Batch.builder(BLOCK)
                .add(table.blocks(), position, new int[] {token}, Batch.Logits.LAST)
                .build();
    }

    /** A synthetic prompt: BOS, then ids counting up from a per-sequence start. */
    private static int[] prompt(int n, int seed) {
        int[] p = new int[n];
        p[0] = 1;
        for (int i = 1; i < n; i++) {
            p[i] = 100 + (seed * 37 + i) % 400;
        }
        return p;
    }

    private static void requireFinite(Logits l) {
        float[] a = l.array();
        for (int r = 0; r < l.rows(); r++) {
            for (int i = 0; i < l.vocabSize(); i++) {
                if (!Float.isFinite(a[l.offset(r) + i])) {
                    throw new IllegalStateException(
                            "non-finite logit " + a[l.offset(r) + i] + " at row " + r + ", token " + i);
                }
            }
        }
    }

    private static void require(boolean ok) {
        if (!ok) {
            throw new IllegalStateException("KV block pool too small for the benchmark");
        }
    }
}
