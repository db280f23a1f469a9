package com.llmserve.engine.backend.cpu;

import com.llmserve.engine.gguf.GgmlType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The native CPU kernels ({@code src/main/c/llmserve_cpu.c}, compiled at build time into the jar),
 * bound through FFM: byte dot products ({@code vpdpbusd}) the Vector API cannot express. One x86-64
 * library holds a variant per instruction set; the best this processor runs is bound, or a lower
 * one when asked ({@link Isa}). Weights are re-laid out once ({@link #pack}) into groups of 16
 * rows; activations are quantized as llama.cpp does ({@link #quantizeQ8_0}); a product of any
 * number of tokens ({@link #gemm}) computes each row and token the same way, so its results do not
 * depend on the batch.
 *
 * <p>Heap arrays are passed straight to the library ({@link Linker.Option#critical critical}
 * downcalls: the calls are short and never block).
 */
final class NativeKernels {

    private static final Logger LOG = LoggerFactory.getLogger(NativeKernels.class);

    static final String RESOURCE = "/com/llmserve/engine/backend/cpu/native/linux-x86_64/libllmserve_cpu.so";

    /** Rows per group of the packed layout. */
    static final int GROUP = 16;

    /** The instruction-set variants, best first. */
    enum Isa {
        AVX512_VNNI("avx512vnni", 3),
        AVX_VNNI("avxvnni", 2),
        AVX2("avx2", 1);

        final String suffix;
        final int level;

        Isa(String suffix, int level) {
            this.suffix = suffix;
            this.level = level;
        }

        static Isa parse(String s) {
            for (Isa isa : values()) {
                if (isa.suffix.equals(s.trim().toLowerCase(Locale.ROOT))) {
                    return isa;
                }
            }
            throw new IllegalArgumentException("unknown CPU instruction set '" + s + "': avx512vnni, avxvnni or avx2");
        }
    }

    private static final Linker LINKER = Linker.nativeLinker();
    private static final Linker.Option CRITICAL = Linker.Option.critical(true);
    private static final ValueLayout.OfLong LONG = ValueLayout.JAVA_LONG;
    private static final ValueLayout.OfInt INT = ValueLayout.JAVA_INT;
    private static final ValueLayout.OfFloat FLOAT = ValueLayout.JAVA_FLOAT;
    private static final java.lang.foreign.AddressLayout ADDRESS = ValueLayout.ADDRESS;

    /** The library, or why it cannot be used here; loaded once per process. */
    private static final class Library {
        static final SymbolLookup LOOKUP;
        static final Isa BEST;
        static final String FAILURE;

        static {
            SymbolLookup lookup = null;
            Isa best = null;
            String failure = null;
            try {
                lookup = load();
                MethodHandle isa =
                        LINKER.downcallHandle(lookup.find("ls_cpu_isa").orElseThrow(), FunctionDescriptor.of(INT));
                int level = (int) isa.invokeExact();
                for (Isa i : Isa.values()) {
                    if (i.level <= level) {
                        best = i;
                        break;
                    }
                }
                if (best == null) {
                    failure = "the processor lacks AVX2, FMA or F16C";
                }
            } catch (Throwable t) {
                failure = t.getMessage() == null ? t.toString() : t.getMessage();
            }
            LOOKUP = lookup;
            BEST = best;
            FAILURE = failure;
        }

        private static SymbolLookup load() throws IOException {
            String os = System.getProperty("os.name", "");
            String arch = System.getProperty("os.arch", "");
            if (!os.startsWith("Linux") || !(arch.equals("amd64") || arch.equals("x86_64"))) {
                throw new UnsupportedOperationException(
                        "native CPU kernels are built for x86-64 Linux, not " + os + " on " + arch);
            }
            try (InputStream in = NativeKernels.class.getResourceAsStream(RESOURCE)) {
                if (in == null) {
                    throw new UnsupportedOperationException(
                            "the jar holds no native CPU kernels (built with -Dcpu-kernels=skip?)");
                }
                Path file = Files.createTempFile("libllmserve_cpu", ".so");
                try {
                    Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
                    return SymbolLookup.libraryLookup(file, Arena.global());
                } finally {
                    Files.deleteIfExists(file); // mapped once loaded
                }
            }
        }
    }

    /** The variant this processor runs best, or empty with the reason. */
    static Optional<Isa> best() {
        return Optional.ofNullable(Library.BEST);
    }

    /** Why the native kernels cannot run here; empty when they can. */
    static Optional<String> unavailable() {
        return Optional.ofNullable(Library.FAILURE);
    }

    private static volatile NativeKernels shared;

    /**
     * The kernels of the best variant here, or of {@code llmserve.engine.cpu-isa} when that system
     * property names a lower one; empty when the library cannot run here.
     */
    static Optional<NativeKernels> load() {
        if (Library.BEST == null) {
            return Optional.empty();
        }
        NativeKernels k = shared;
        if (k == null) {
            synchronized (NativeKernels.class) {
                if (shared == null) {
                    String forced =
                            System.getProperty("llmserve.engine.cpu-isa", "").trim();
                    Isa isa = forced.isEmpty() ? Library.BEST : Isa.parse(forced);
                    shared = of(isa);
                    LOG.info("native CPU kernels: {} (best here: {})", isa.suffix, Library.BEST.suffix);
                }
                k = shared;
            }
        }
        return Optional.of(k);
    }

    /** The kernels of {@code isa}, which this processor must run (tests compare the variants). */
    static NativeKernels of(Isa isa) {
        if (Library.BEST == null) {
            throw new IllegalStateException("native CPU kernels unavailable: " + Library.FAILURE);
        }
        if (isa.level > Library.BEST.level) {
            throw new IllegalArgumentException(
                    "this processor runs " + Library.BEST.suffix + " at best, not " + isa.suffix);
        }
        return new NativeKernels(isa);
    }

    final Isa isa;
    private final MethodHandle packQ4_0;
    private final MethodHandle packQ8_0;
    private final MethodHandle packQ4_K;
    private final MethodHandle packQ6_K;
    private final MethodHandle packMXFP4;
    private final MethodHandle quantizeQ8_0;
    private final MethodHandle quantizeQ8_K;
    private final MethodHandle splitSums;
    private final MethodHandle widenHalves;
    private final MethodHandle dequantQ8Rows;
    private final MethodHandle attentionScores;
    private final MethodHandle attentionValues;
    private final MethodHandle attentionSoftmax;
    private final MethodHandle gemmQ4_0;
    private final MethodHandle gemmQ8_0;
    private final MethodHandle gemmQ4_K;
    private final MethodHandle gemmMXFP4;

    private final MethodHandle gemmQ6_K;

    private NativeKernels(Isa isa) {
        this.isa = isa;
        FunctionDescriptor pack = FunctionDescriptor.ofVoid(ADDRESS, LONG, INT, LONG, ADDRESS);
        packQ4_0 = bind("ls_pack_q4_0", pack);
        packQ8_0 = bind("ls_pack_q8_0", pack);
        packQ4_K = bind("ls_pack_q4_k", pack);
        packQ6_K = bind("ls_pack_q6_k", pack);
        packMXFP4 = bind("ls_pack_mxfp4", pack);
        FunctionDescriptor quantize = FunctionDescriptor.ofVoid(ADDRESS, LONG, ADDRESS, ADDRESS, ADDRESS);
        quantizeQ8_0 = bind("ls_quantize_q8_0", quantize);
        quantizeQ8_K = bind("ls_quantize_q8_k", quantize);
        splitSums = bind("ls_q8_k_split_sums", FunctionDescriptor.ofVoid(ADDRESS, LONG, ADDRESS));
        widenHalves = bind("ls_widen_halves", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, INT, INT, ADDRESS));
        dequantQ8Rows =
                bind("ls_dequant_q8_rows", FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, ADDRESS, INT, INT, ADDRESS));
        // the AVX-512 forms want heads of a multiple of 16 (of at most 512 for the scores)
        String attention = isa == Isa.AVX512_VNNI ? "_avx512" : "";
        attentionScores = bind(
                "ls_att_scores_f16" + attention,
                FunctionDescriptor.ofVoid(
                        ADDRESS, ADDRESS, INT, INT, INT, ADDRESS, INT, INT, FLOAT, ADDRESS, INT, INT));
        attentionValues = bind(
                "ls_att_values_f16" + attention,
                FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, INT, INT, INT, ADDRESS, INT, INT, INT, ADDRESS, INT));
        attentionSoftmax = bind("ls_att_softmax", FunctionDescriptor.ofVoid(ADDRESS, INT, INT, INT, INT, ADDRESS));
        FunctionDescriptor gemm = FunctionDescriptor.ofVoid(
                ADDRESS, INT, LONG, LONG, LONG, ADDRESS, ADDRESS, ADDRESS, INT, ADDRESS, LONG, LONG);
        gemmQ4_0 = bind("ls_q4_0_gemm_" + isa.suffix, gemm);
        gemmQ8_0 = bind("ls_q8_0_gemm_" + isa.suffix, gemm);
        gemmQ4_K = bind("ls_q4_k_gemm_" + isa.suffix, gemm);
        gemmQ6_K = bind("ls_q6_k_gemm_" + isa.suffix, gemm);
        gemmMXFP4 = bind("ls_mxfp4_gemm_" + isa.suffix, gemm);
    }

    private static MethodHandle bind(String symbol, FunctionDescriptor descriptor) {
        MemorySegment address = Library.LOOKUP
                .find(symbol)
                .orElseThrow(() -> new IllegalStateException("native CPU kernels: no symbol " + symbol));
        return LINKER.downcallHandle(address, descriptor, CRITICAL);
    }

    /** Whether {@code type} has native kernels in this variant. */
    boolean supports(GgmlType type) {
        return switch (type) {
            case Q4_0, Q8_0, Q4_K, Q6_K, MXFP4 -> true;
            default -> false;
        };
    }

    /** The types with native kernels in this variant, for messages. */
    String types() {
        return "Q4_0, Q8_0, Q4_K, Q6_K and MXFP4";
    }

    /**
     * Bytes per group of 16 rows and block of the packed layout: the file's, but for Q4_K, whose
     * scales and mins are unpacked to a byte each (+64 bytes per 16 rows and 256 elements, 2.8%),
     * and MXFP4, whose 16 scale bytes are padded to 32 (+16 bytes per 16 rows and block, 5.9%).
     */
    static int groupBlockBytes(GgmlType type) {
        return switch (type) {
            case Q4_0 -> 32 + 4 * 64;
            case Q8_0 -> 32 + 8 * 64;
            case MXFP4 -> 32 + 4 * 64; // the 16 rows' E8M0 bytes padded to 32, then Q4_0's runs
            case Q4_K -> 64 + 256 + 32 * 64;
            case Q6_K -> 32 + 48 * 64 + 16 * 64;
            default -> throw new IllegalArgumentException(type + " has no native kernels");
        };
    }

    /** {@code rows} rows of {@code type} from {@code source} in the packed layout, in memory from {@code arena}. */
    MemorySegment pack(GgmlType type, MemorySegment source, long rows, int blocks, long rowBytes, Arena arena) {
        if (!supports(type)) {
            throw new IllegalArgumentException(type + " has no native kernels in " + this);
        }
        long groups = (rows + GROUP - 1) / GROUP;
        MemorySegment out = arena.allocate(groups * blocks * groupBlockBytes(type), 64);
        MethodHandle h =
                switch (type) {
                    case Q4_0 -> packQ4_0;
                    case Q8_0 -> packQ8_0;
                    case Q4_K -> packQ4_K;
                    case Q6_K -> packQ6_K;
                    case MXFP4 -> packMXFP4;
                    default -> throw new IllegalArgumentException(type + " has no native kernels");
                };
        try {
            h.invokeExact(source, rows, blocks, rowBytes, out);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        return out;
    }

    /**
     * Quantizes {@code x[from, to)} (multiples of {@code q}'s block size) into {@code q}'s elements
     * {@code [from, to)}, in {@code q}'s format.
     */
    void quantize(float[] x, int from, int to, NativeQ8 q) {
        int block = q.format.blockSize();
        int sumSize = q.format == ActivationFormat.Q8_K ? 16 : 32;
        // the library checks nothing
        if (from < 0 || from > to || to > x.length || to > q.capacity() || from % block != 0 || to % block != 0) {
            throw new IndexOutOfBoundsException("quantize [" + from + ", " + to + ") of " + x.length + " into "
                    + q.capacity() + " in blocks of " + block);
        }
        MethodHandle h = q.format == ActivationFormat.Q8_K ? quantizeQ8_K : quantizeQ8_0;
        try {
            h.invokeExact(
                    MemorySegment.ofArray(x).asSlice(4L * from),
                    (long) (to - from),
                    MemorySegment.ofArray(q.values).asSlice(from),
                    MemorySegment.ofArray(q.scales).asSlice(4L * (from / block)),
                    MemorySegment.ofArray(q.sums).asSlice(4L * (from / sumSize)));
            if (q.split != null) {
                splitSums.invokeExact(
                        MemorySegment.ofArray(q.sums).asSlice(4L * (from / 16)),
                        (long) ((to - from) / 256),
                        MemorySegment.ofArray(q.split).asSlice(from / 256 * 16L));
            }
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@link #quantize} into Q8_0 activations. */
    void quantizeQ8_0(float[] x, int from, int to, NativeQ8 q) {
        quantize(x, from, to, q);
    }

    /**
     * {@code y[t*yStride + yOffset + r] = row r · x_(firstToken + t)} for the rows of groups
     * {@code [g0, g1)} of {@code w} (rows past {@code rows} are not written) and tokens {@code [0, tokens)}.
     */
    void gemm(
            GgmlType type,
            MemorySegment w,
            int blocks,
            long rows,
            long g0,
            long g1,
            NativeQ8 x,
            int firstToken,
            int tokens,
            float[] y,
            int yOffset,
            int yStride) {
        MethodHandle h =
                switch (type) {
                    case Q4_0 -> gemmQ4_0;
                    case Q8_0 -> gemmQ8_0;
                    case Q4_K -> gemmQ4_K;
                    case Q6_K -> gemmQ6_K;
                    case MXFP4 -> gemmMXFP4;
                    default -> null;
                };
        if (h == null) {
            throw new IllegalArgumentException(type + " has no native kernels in " + this);
        }
        long first = (long) firstToken * blocks * type.blockSize(); // the token's first element
        int sumSize = x.format == ActivationFormat.Q8_K ? 16 : 32;
        // Q4_K takes its activations' sums split for its mins
        MemorySegment sums = type == GgmlType.Q4_K
                ? MemorySegment.ofArray(x.split).asSlice(first / 256 * 16)
                : MemorySegment.ofArray(x.sums).asSlice(4 * (first / sumSize));
        try {
            h.invokeExact(
                    w,
                    blocks,
                    rows,
                    g0,
                    g1,
                    MemorySegment.ofArray(x.values).asSlice(first),
                    MemorySegment.ofArray(x.scales).asSlice(4 * (first / x.format.blockSize())),
                    sums,
                    tokens,
                    MemorySegment.ofArray(y),
                    (long) yStride,
                    (long) yOffset);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * Dequantizes {@code count} rows of {@code hd} values (a multiple of 32) of a Q8_0 KV cache
     * ({@link Q8Kv}), row {@code i}'s bytes at {@code offsets[i]} of {@code quants} (a multiple of
     * 32) and its scales at half {@code offsets[i] / 32} of {@code scales}, into {@code out[i*hd ..]}:
     * what {@link Q8Kv#dequantize} does row by row, in one call, with the same bits.
     */
    void dequantQ8Rows(MemorySegment quants, MemorySegment scales, long[] offsets, int count, int hd, float[] out) {
        long limit = quants.byteSize() - hd;
        if (hd % Q8Kv.BLOCK != 0 || quants.byteSize() / Q8Kv.BLOCK > scales.byteSize() / 2) {
            throw new IllegalArgumentException("rows of " + hd + " values over " + quants.byteSize() + " bytes and "
                    + scales.byteSize() / 2 + " scales");
        }
        for (int i = 0; i < count; i++) {
            if (offsets[i] < 0 || offsets[i] > limit || offsets[i] % Q8Kv.BLOCK != 0) {
                throw new IndexOutOfBoundsException("row at byte " + offsets[i] + " of " + quants.byteSize());
            }
        }
        if (count > offsets.length || (long) count * hd > out.length) {
            throw new IndexOutOfBoundsException(count + " rows of " + hd + " into " + out.length);
        }
        try {
            dequantQ8Rows.invokeExact(
                    MemorySegment.ofAddress(quants.address()),
                    MemorySegment.ofAddress(scales.address()),
                    MemorySegment.ofArray(offsets),
                    count,
                    hd,
                    MemorySegment.ofArray(out));
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * Widens {@code count} rows of {@code hd} halves of {@code halves}, row {@code i} at half
     * {@code offsets[i]}, into {@code out[i*hd ..]}: what {@link FloatMath#widenHalves} does row by
     * row, in one call (NaN payloads aside).
     */
    void widenHalves(MemorySegment halves, long[] offsets, int count, int hd, float[] out) {
        long limit = halves.byteSize() / 2 - hd;
        for (int i = 0; i < count; i++) {
            if (offsets[i] < 0 || offsets[i] > limit) {
                throw new IndexOutOfBoundsException("row at half " + offsets[i] + " of " + halves.byteSize() / 2);
            }
        }
        if (count > offsets.length || (long) count * hd > out.length) {
            throw new IndexOutOfBoundsException(count + " rows of " + hd + " into " + out.length);
        }
        try {
            // the address without the cache's shared session: no contended acquire per call; the
            // cache outlives every attention over it
            widenHalves.invokeExact(
                    MemorySegment.ofAddress(halves.address()),
                    MemorySegment.ofArray(offsets),
                    count,
                    hd,
                    MemorySegment.ofArray(out));
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * Scores of {@code group} query heads ({@code q[qAt + g * hd ..]}, heads that {@link #attends})
     * against the keys of {@code count} cached positions, position {@code i}'s halves at half
     * {@code offsets[start + i]} of {@code keys}: {@code scores[sAt + g * sStride + i] = scale * q . k}.
     * Each score is the same bits whatever other positions a call covers. Offsets are the caller's
     * checked ones ({@link #checkRows}).
     */
    void attentionScores(
            MemorySegment keys,
            long[] offsets,
            int start,
            int count,
            int hd,
            float[] q,
            int qAt,
            int group,
            float scale,
            float[] scores,
            int sAt,
            int sStride) {
        checkRun(offsets, start, count, hd, group);
        if (qAt < 0 || qAt + (long) group * hd > q.length) {
            throw new IndexOutOfBoundsException(group + " queries of " + hd + " at " + qAt + " of " + q.length);
        }
        checkSpan(scores, sAt, group, sStride, count);
        try {
            attentionScores.invokeExact(
                    MemorySegment.ofAddress(keys.address()),
                    MemorySegment.ofArray(offsets),
                    start,
                    count,
                    hd,
                    MemorySegment.ofArray(q),
                    qAt,
                    group,
                    scale,
                    MemorySegment.ofArray(scores),
                    sAt,
                    sStride);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * Adds to {@code out[oAt + g * hd + d]}, for {@code group} query heads, the values of
     * {@code count} cached positions (as in {@link #attentionScores}) weighted by
     * {@code w[wAt + g * wStride + i]}: one fma per position in position order, the bits of
     * {@link FloatMath#weightedSum}'s vector lanes.
     */
    void attentionValues(
            MemorySegment values,
            long[] offsets,
            int start,
            int count,
            int hd,
            float[] w,
            int wAt,
            int wStride,
            int group,
            float[] out,
            int oAt) {
        checkRun(offsets, start, count, hd, group);
        checkSpan(w, wAt, group, wStride, count);
        checkSpan(out, oAt, group, hd, hd);
        try {
            attentionValues.invokeExact(
                    MemorySegment.ofAddress(values.address()),
                    MemorySegment.ofArray(offsets),
                    start,
                    count,
                    hd,
                    MemorySegment.ofArray(w),
                    wAt,
                    wStride,
                    group,
                    MemorySegment.ofArray(out),
                    oAt);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * The softmax of {@code group} query heads' {@code count} scores ({@code s[at + g * stride ..]}),
     * written back as weights rounded to half: {@code half(exp(x - max) / sum)}, with
     * {@link Simd#exp}'s arithmetic; head {@code g}'s sink ({@code sinks[sinkAt + g]}, when
     * {@code sinks} is not null) joins the maximum and the denominator only.
     */
    void attentionSoftmax(float[] s, int at, int stride, int count, int group, float[] sinks, int sinkAt) {
        if (group <= 0 || count <= 0) {
            throw new IllegalArgumentException(group + " heads of " + count + " scores");
        }
        checkSpan(s, at, group, stride, count);
        if (sinks != null && (sinkAt < 0 || sinkAt + group > sinks.length)) {
            throw new IndexOutOfBoundsException(group + " sinks from " + sinkAt + " of " + sinks.length);
        }
        MemorySegment sinkRow = sinks == null
                ? MemorySegment.NULL
                : MemorySegment.ofArray(sinks).asSlice((long) sinkAt * Float.BYTES);
        try {
            attentionSoftmax.invokeExact(MemorySegment.ofArray(s), at, stride, count, group, sinkRow);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * Checks that rows of {@code hd} halves at {@code offsets} lie inside {@code halves} (each
     * run's positions are checked once here, not per call).
     */
    static void checkRows(MemorySegment halves, long[] offsets, int count, int hd) {
        long limit = halves.byteSize() / 2 - hd;
        for (int i = 0; i < count; i++) {
            if (offsets[i] < 0 || offsets[i] > limit) {
                throw new IndexOutOfBoundsException("row at half " + offsets[i] + " of " + halves.byteSize() / 2);
            }
        }
    }

    /** Whether {@link #attentionScores} and {@link #attentionValues} take heads of {@code hd} values. */
    boolean attends(int hd) {
        return hd > 0 && hd <= 512 && hd % (isa == Isa.AVX512_VNNI ? 16 : 8) == 0;
    }

    private void checkRun(long[] offsets, int start, int count, int hd, int group) {
        if (!attends(hd) || group <= 0 || count < 0) {
            throw new IllegalArgumentException(group + " heads of " + hd + " over " + count + " positions");
        }
        if (start < 0 || start + (long) count > offsets.length) {
            throw new IndexOutOfBoundsException(count + " positions from " + start + " of " + offsets.length);
        }
    }

    private static void checkSpan(float[] a, int at, int group, int stride, int width) {
        if (at < 0 || stride < width || at + (long) (group - 1) * stride + width > a.length) {
            throw new IndexOutOfBoundsException(
                    group + " spans of " + width + " every " + stride + " from " + at + " of " + a.length);
        }
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        if (t instanceof IOException io) {
            return new UncheckedIOException(io);
        }
        return new IllegalStateException(t);
    }

    @Override
    public String toString() {
        return "native " + isa.suffix;
    }
}
