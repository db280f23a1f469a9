package com.llmserve.engine.backend.gpu;

import static com.llmserve.kernels.KernelConstants.LS_MMH_COLS;
import static com.llmserve.kernels.KernelConstants.LS_MMH_KBLOCKS;
import static com.llmserve.kernels.KernelConstants.LS_MMH_ROWS;
import static com.llmserve.kernels.KernelConstants.LS_MMH_THREADS;
import static com.llmserve.kernels.KernelConstants.LS_MMQ_COLS;
import static com.llmserve.kernels.KernelConstants.LS_MMQ_KBLOCKS;
import static com.llmserve.kernels.KernelConstants.LS_MMQ_ROWS;
import static com.llmserve.kernels.KernelConstants.LS_MMQ_THREADS;
import static com.llmserve.kernels.KernelConstants.LS_MMV_MAX_COLS;
import static com.llmserve.kernels.KernelConstants.LS_QK;
import static com.llmserve.kernels.KernelConstants.LS_QK_K;

import com.llmserve.engine.backend.gpu.Scratch.Slot;
import com.llmserve.gpu.BlasType;
import com.llmserve.gpu.DeviceBuffer;
import com.llmserve.gpu.KernelArgs;
import com.llmserve.gpu.LaunchConfig;
import com.llmserve.gpu.Transpose;
import com.llmserve.kernels.Kernel;

/**
 * {@code out[t] = W x[t]}, one band of the weight at a time: quantized GEMV kernels (up to
 * {@code LS_MMV_MAX_COLS} rows per pass), the half (every quantized format) or int8 (Q4_0, Q8_0)
 * tensor-core kernels for batches, or, for many rows, the weight in half (its half copy, or
 * dequantized a band at a time) times half activations through the vendor BLAS.
 *
 * @param path         the kernels the product takes (decided when recorded)
 * @param prequantized the operation before it already wrote x's Q8_0 form to the scratch
 */
record Matmul(GpuWeight weight, GpuActivations x, int n, GpuActivations out, Path path, boolean prequantized)
        implements DeviceOp {

    /** Which kernels multiply. */
    enum Path {
        /** {@code ls_mmvq_*} / {@code ls_mmvf_*}, up to {@code LS_MMV_MAX_COLS} rows per pass. */
        GEMV,
        /** {@code ls_mmq_*}: Q4_0 and Q8_0 weights against int8 activations on int8 tensor cores. */
        MMQ,
        /**
         * {@code ls_mmh_*}: quantized weights turned into half in registers, as their half
         * copies would hold them, against the BLAS path's half activations, on half tensor cores.
         */
        MMH,
        /** F16 weights (half copies or dequantized bands) times F16 activations through the vendor BLAS. */
        BLAS
    }

    /**
     * A product of {@code n} padded rows, on the path the options choose for it.
     *
     * @param int8TensorCores whether the device runs the {@code ls_mmq_*} kernels' matrix-core path
     *                        (NVIDIA sm_80 on, AMD gfx90a, gfx942 and gfx11)
     * @param halfTensorCores whether it runs the {@code ls_mmh_*} kernels' (the same devices)
     * @param decodeRows      every row is its sequence's only one in the step (a decode step), so
     *                        rounding weights and activations to half below {@code gemmMinRows}
     *                        costs no prompt the GEMV's exact block sums
     */
    static Matmul of(
            GpuWeight w,
            GpuActivations x,
            int n,
            GpuActivations out,
            GpuOptions options,
            boolean int8TensorCores,
            boolean halfTensorCores,
            boolean decodeRows) {
        return new Matmul(w, x, n, out, path(w, x, n, options, int8TensorCores, halfTensorCores, decodeRows), false);
    }

    private static Path path(
            GpuWeight w,
            GpuActivations x,
            int n,
            GpuOptions options,
            boolean int8TensorCores,
            boolean halfTensorCores,
            boolean decodeRows) {
        if (w.cols() % 8 != 0) {
            return Path.BLAS;
        }
        if (options.batchInvariant()) {
            // the GEMV kernels whatever the batch
            return Path.GEMV;
        }
        boolean tensorCoreRows = n <= options.mmqMaxRows() && x.cols() % LS_QK == 0;
        boolean halfProducts = tensorCoreRows
                && halfTensorCores
                && options.halfTensorProducts()
                && w.everyBand(b -> b.format().halfTensorCoreKernel() != null)
                && (w.everyBand(b -> b.half() == null)
                        || (w.everyBand(b -> b.format().halfProductsOverCopies())
                                && halfProductsOverCopies(n, w.rows() * w.cols())));
        if (n < options.gemmMinRows()) {
            // a decode step's rows read the weight once where they can (prompt rows: the GEMV's exact sums)
            if (!decodeRows || n < HALF_COPY_MIN_ROWS) {
                return Path.GEMV;
            }
            if (halfProducts) {
                return Path.MMH;
            }
            if (!w.everyBand(b -> b.half() != null)) {
                return Path.GEMV;
            }
        }
        // where BLAS would dequantize the weights each step, the tensor cores read them as they are
        if (!tensorCoreRows) {
            return Path.BLAS;
        }
        if (halfProducts) {
            return Path.MMH;
        }
        boolean int8Formats = w.everyBand(b -> b.format().tensorCoreKernel() != null && b.half() == null);
        return int8TensorCores && int8Formats ? Path.MMQ : Path.BLAS;
    }

    /**
     * Rows from which a decode step's product below {@code gemmMinRows} takes the half tensor cores
     * where its formats allow (half copies or not), else the BLAS over a weight with half copies of
     * every band: the GEMV reads the quantized weight once per {@code LS_MMV_MAX_COLS} rows, those
     * once (a step of 9 to 11 rows runs as a graph bucket of 12). llama-8b Q4_0 on an H200, decode
     * tok/s at 8 / 12 / 16 / 24 sequences: 2010 / 2104 / 2254 / 2309 through the GEMV passes, 2014 /
     * 2358 / 3082 / 4521 with the BLAS over half copies from 9 rows (gemm-min-rows 9); at 16 / 24,
     * 3751 / 5264 through {@code ls_mmh_*} (half copies or not; 3116 / 4515 through the BLAS over
     * them). Prompt rows keep the GEMV's exact block sums there: over half rounding stories260K-q4_0's
     * prompts (under 32 tokens) missed llama.cpp's golden (0.395 against 0.35).
     */
    static final int HALF_COPY_MIN_ROWS = 12;

    /**
     * Rows up to which a Q4_0 / Q8_0 product takes {@code ls_mmh_*} even where its weight has half
     * copies: the same half operands and float sums as the BLAS over those copies, reading a quarter
     * (Q4_0) of the bytes. The 8B's four products of a layer on an H200 ({@code bench/kernels/run.sh
     * mmh}, Q4_0, us at 12 / 16 / 24 / 32 / 48 / 64 tokens): 100.9 / 102.1 / 108.1 / 111.4 / 124.6 /
     * 139.3 through {@code ls_mmh_*}, 126.7 / 127.8 / 127.8 / 129.5 / 132.1 / 132.7 through cuBLAS
     * over half copies; decode of 40 / 48 sequences 6589 / 7980 -> 7232 / 8670 tok/s. From 64 rows
     * the BLAS keeps them.
     */
    static final int HALF_PRODUCTS_OVER_COPIES_MAX_ROWS = 48;

    /**
     * Weights (values) from which a Q4_0 / Q8_0 product past {@link
     * #HALF_PRODUCTS_OVER_COPIES_MAX_ROWS} rows (up to one block's {@code LS_MMH_COLS} tokens and
     * {@code mmq-max-rows}) still takes {@code ls_mmh_*} over half copies. The 8B's 64-row decode
     * step on an H200, each product's share of the step's graph ({@code GpuBenchmark --ablate-rows
     * 64}, us a product): gate|up (117 M values) 57.6 through {@code ls_mmh_*} against 64.6 through
     * cuBLAS over the half copy, down (59 M) 38.7 against 41.7, qkv (25 M) 22.2 against 19.4, the
     * output projection (17 M) 23.7 against 14.3: the small ones split their blocks eight and five
     * ways, and at 64 tokens the split sums they write and read approach the quantized weight's own
     * bytes.
     */
    static final long LARGE_HALF_PRODUCT_WEIGHTS = 32L << 20;

    /** Whether a product of {@code n} rows over a Q4_0 / Q8_0 weight of {@code values} with half copies takes {@code ls_mmh_*}. */
    static boolean halfProductsOverCopies(int n, long values) {
        return n <= HALF_PRODUCTS_OVER_COPIES_MAX_ROWS || (n <= LS_MMH_COLS && values >= LARGE_HALF_PRODUCT_WEIGHTS);
    }

    /** Rows of a weight of row length k dequantized per BLAS call: a multiple of 64 fitting the band size. */
    static int dequantRows(int k, int rows, long bandBytes) {
        long fit = Math.max(64, bandBytes / ((long) k * 2) / 64 * 64);
        return (int) Math.min(rows, fit);
    }

    /** Whether every band multiplies int8 activations (Q4_0, Q8_0, Q4_1, Q5_0, Q5_1), which a norm or SwiGLU before it can write. */
    boolean takesQ8() {
        return (path == Path.GEMV || path == Path.MMQ)
                && x.cols() % LS_QK == 0
                && weight.everyBand(b -> b.format().integerGemv());
    }

    /**
     * Whether the launch leaves the int8 activation scratch (Q8_0 values, scales, sums) as it found
     * it: every band multiplies the floats themselves, or reads the int8 form its producer wrote.
     */
    boolean keepsQ8Scratch() {
        return (path == Path.GEMV || path == Path.MMQ)
                && weight.everyBand(b -> {
                    Prepared p = gemvRounding(b);
                    return p == Prepared.NONE || (prequantized && p == Prepared.Q8_0_INT);
                });
    }

    Matmul afterQuantizingProducer() {
        return new Matmul(weight, x, n, out, path, true);
    }

    @Override
    public void reserve(Workspace w) {
        int k = weight.cols();
        GpuOptions options = w.options();
        // GEMV scratch sized for the largest bucket at once: growing it would make every graph stale
        long q = path == Path.BLAS ? n : Math.max(n, Math.min(options.maxGraphRows(), x.rows()));
        for (GpuWeight.Band band : weight.bands) {
            WeightFormat f = band.format();
            if (path == Path.MMH) {
                w.reserve(Slot.XH, (long) n * k * Short.BYTES);
                reserveMmhSplits(w, Math.toIntExact(band.rows()));
            } else if (path == Path.BLAS) {
                if (f != WeightFormat.F32) {
                    w.reserve(Slot.XH, (long) n * k * Short.BYTES);
                }
                if (f != WeightFormat.F32 && f != WeightFormat.F16 && band.half() == null) {
                    int rows = dequantRows(k, Math.toIntExact(band.rows()), options.dequantBandBytes());
                    w.reserve(Slot.WDEQ, (long) rows * k * Short.BYTES);
                }
            } else if (f.integerGemv()) {
                if (path == Path.MMQ) {
                    reserveSplits(w, Math.toIntExact(band.rows()));
                }
                w.reserve(Slot.XQ, q * k);
                w.reserve(Slot.XD, q * (k / LS_QK) * Float.BYTES);
                w.reserve(Slot.XS, q * (k / LS_QK) * Integer.BYTES);
            } else if (f.kIntegerGemv()) {
                w.reserve(Slot.XQ, q * k);
                w.reserve(Slot.XD, q * (k / LS_QK_K) * Float.BYTES);
            } else if (band.activation() != WeightFormat.Activation.FLOAT) {
                w.reserve(Slot.XF, q * k * Float.BYTES);
            }
        }
    }

    /** The split-K partials and counters of {@link #mmq} over a band of {@code rows}. */
    private void reserveSplits(Workspace w, int rows) {
        int tiles = mmqTiles(rows, n);
        reservePartials(
                w,
                tiles,
                mmqSplits(tiles, weight.cols() / LS_QK, w.device().info().multiprocessors()),
                LS_MMQ_ROWS * LS_MMQ_COLS);
    }

    /** The split-K partials and counters of {@link #mmh} over a band of {@code rows}. */
    private void reserveMmhSplits(Workspace w, int rows) {
        int tiles = mmhTiles(rows, n);
        reservePartials(
                w,
                tiles,
                mmhSplits(tiles, weight.cols() / LS_QK, w.device().info().multiprocessors()),
                LS_MMH_ROWS * LS_MMH_COLS);
    }

    private static void reservePartials(Workspace w, int tiles, int splits, int tileSums) {
        if (splits > 1) {
            w.reserve(Slot.MMQ_PARTIALS, (long) tiles * splits * tileSums * Float.BYTES);
            w.reserve(Slot.MMQ_ARRIVALS, (long) tiles * Integer.BYTES);
        }
    }

    @Override
    public boolean graphable() {
        return path != Path.BLAS;
    }

    /** Which rounding of the activations is in the scratch buffers, so fused bands share it. */
    enum Prepared {
        NONE,
        Q8_0_INT,
        Q8_0_FLOAT,
        Q8_K_FLOAT,
        /** Q8_K as int8 values and a float scale per 256, for {@code ls_mmvk_*}. */
        Q8_K_INT,
        Q8_0_HALF,
        Q8_K_HALF,
        PLAIN_HALF
    }

    @Override
    public void launch(Launch l) {
        int k = weight.cols();
        Prepared prepared = prequantized ? Prepared.Q8_0_INT : Prepared.NONE;
        for (GpuWeight.Band band : weight.bands) {
            long yOffset = band.firstRow() * Float.BYTES;
            WeightFormat f = band.format();
            if (path == Path.BLAS) {
                prepared = blas(l, band, f, prepared, yOffset);
                continue;
            }
            if (path == Path.MMH) {
                prepared = prepareHalf(l, band, prepared);
                mmh(l, band, Math.toIntExact(band.rows()), yOffset);
                continue;
            }
            Prepared wanted = gemvRounding(band);
            if (wanted != Prepared.NONE && wanted != prepared) {
                prepare(l, x, n, k, wanted);
                prepared = wanted;
            }
            int rows = Math.toIntExact(band.rows());
            if (path == Path.MMQ) {
                mmq(l, band, rows, yOffset);
                continue;
            }
            // batch-invariant: one row per pass, so every row takes the one-row kernel's sums
            int perPass = l.options().batchInvariant() ? 1 : LS_MMV_MAX_COLS;
            for (int c0 = 0; c0 < n; c0 += perPass) {
                int cols = Math.min(perPass, n - c0);
                int blockRows = f.gemvRows(cols);
                LaunchConfig grid = LaunchConfig.of(
                        (rows + blockRows - 1) / blockRows, f.gemvThreads(cols, rows, l.multiprocessors()));
                KernelArgs args = KernelArgs.of().pointer(band.data()).pointer(band.data(), band.scalesOffset());
                if (f.integerGemv()) {
                    l.q8(args, c0, k);
                } else if (f.kIntegerGemv()) {
                    args.pointer(l.scratch(Slot.XQ), (long) c0 * k)
                            .pointer(l.scratch(Slot.XD), (long) c0 * (k / LS_QK_K) * Float.BYTES);
                } else if (band.activation() != WeightFormat.Activation.FLOAT) {
                    args.pointer(l.scratch(Slot.XF), (long) c0 * k * Float.BYTES);
                } else {
                    args.pointer(x.buffer, (long) c0 * k * Float.BYTES);
                }
                args.pointer(out.buffer, (long) c0 * out.cols() * Float.BYTES + yOffset)
                        .i32(rows)
                        .i32(k)
                        .i32(out.cols())
                        .i32(0);
                l.kernel(f.gemvKernel(cols), grid, args);
            }
        }
    }

    /** All {@code n} rows through {@code ls_mmq_*}, one block per LS_MMQ_ROWS weight rows, LS_MMQ_COLS tokens and split. */
    private void mmq(Launch l, GpuWeight.Band band, int rows, long yOffset) {
        int splits = mmqSplits(mmqTiles(rows, n), weight.cols() / LS_QK, l.multiprocessors());
        tiled(
                l,
                band.format().tensorCoreKernel(),
                band,
                rows,
                yOffset,
                LS_MMQ_ROWS,
                LS_MMQ_COLS,
                LS_MMQ_THREADS,
                splits,
                Slot.XQ,
                Slot.XD);
    }

    /** All {@code n} rows through {@code ls_mmh_*}, one block per LS_MMH_ROWS weight rows, LS_MMH_COLS tokens and split. */
    private void mmh(Launch l, GpuWeight.Band band, int rows, long yOffset) {
        int splits = mmhSplits(mmhTiles(rows, n), weight.cols() / LS_QK, l.multiprocessors());
        tiled(
                l,
                band.format().halfTensorCoreKernel(),
                band,
                rows,
                yOffset,
                LS_MMH_ROWS,
                LS_MMH_COLS,
                LS_MMH_THREADS,
                splits,
                Slot.XH);
    }

    /**
     * A tiled product of {@code kernel} (mmq.hip's argument list: weight, scales, the {@code
     * activations} scratch, output, shape, then the split-K partials and counters) over a grid of
     * weight-row tiles x token tiles x splits.
     */
    private void tiled(
            Launch l,
            Kernel kernel,
            GpuWeight.Band band,
            int rows,
            long yOffset,
            int tileRows,
            int tileCols,
            int threads,
            int splits,
            Slot... activations) {
        LaunchConfig grid = new LaunchConfig(
                (rows + tileRows - 1) / tileRows, (n + tileCols - 1) / tileCols, splits, threads, 1, 1, 0);
        KernelArgs args = KernelArgs.of().pointer(band.data()).pointer(band.data(), band.scalesOffset());
        for (Slot a : activations) {
            args.pointer(l.scratch(a));
        }
        args.pointer(out.buffer, yOffset)
                .i32(rows)
                .i32(weight.cols())
                .i32(n)
                .i32(out.cols())
                .i32(0);
        if (splits > 1) {
            args.pointer(l.scratch(Slot.MMQ_PARTIALS)).pointer(l.scratch(Slot.MMQ_ARRIVALS));
        } else {
            args.nullPointer().nullPointer();
        }
        l.kernel(kernel, grid, args.i32(splits));
    }

    /** Blocks of {@code ls_mmh_*} over {@code rows} weight rows and {@code n} tokens, before splitting K. */
    static int mmhTiles(int rows, int n) {
        return ((rows + LS_MMH_ROWS - 1) / LS_MMH_ROWS) * ((n + LS_MMH_COLS - 1) / LS_MMH_COLS);
    }

    /**
     * How many shares of the weight blocks {@code ls_mmh_*} splits a product's {@code tiles} into:
     * as many as one wave of two blocks per multiprocessor holds (its register bound; a second
     * wave costs more than it gains), each share at least four groups of {@code LS_MMH_KBLOCKS}
     * blocks. H200, Q4_0 at 16-64 tokens ({@code bench/kernels/run.sh mmh}): 28672 x 4096 best
     * whole (224 tiles), 4096 x 14336 and 4096 x 4096 best in 8 shares (32 tiles; 9 is 20-30% slower),
     * 6144 x 4096 in 4-5.
     */
    static int mmhSplits(int tiles, int blocks, int multiprocessors) {
        int groups = (blocks + LS_MMH_KBLOCKS - 1) / LS_MMH_KBLOCKS;
        return Math.max(1, Math.min(2 * multiprocessors / tiles, groups / 4));
    }

    /** Blocks of {@code ls_mmq_*} over {@code rows} weight rows and {@code n} tokens, before splitting K. */
    static int mmqTiles(int rows, int n) {
        return ((rows + LS_MMQ_ROWS - 1) / LS_MMQ_ROWS) * ((n + LS_MMQ_COLS - 1) / LS_MMQ_COLS);
    }

    /**
     * How many shares of the weight blocks {@code ls_mmq_*} splits a product's {@code tiles} into:
     * enough for two blocks per multiprocessor (a 4096-row weight has 64 tiles of 64 rows at 64
     * tokens), each share at least four stages long. H100, 4096 x 14336 Q4_0 at 64 tokens: 149 us
     * whole, 78 us in 5 shares, 82 us in 10 ({@code bench/kernels/run.sh mmq}).
     */
    static int mmqSplits(int tiles, int blocks, int multiprocessors) {
        int stages = (blocks + LS_MMQ_KBLOCKS - 1) / LS_MMQ_KBLOCKS;
        int splits = Math.min((2 * multiprocessors + tiles - 1) / tiles, stages / 4);
        return Math.max(1, splits);
    }

    /** The GEMV rounding of a band's activations ({@link Prepared#NONE}: the floats themselves). */
    static Prepared gemvRounding(GpuWeight.Band band) {
        return band.format().kIntegerGemv() ? Prepared.Q8_K_INT : expertGemvRounding(band);
    }

    /** The rounding of a mixture's expert GEMV ({@code ls_mmv*_ex_*}), whose K-quants read floats. */
    static Prepared expertGemvRounding(GpuWeight.Band band) {
        return band.format().integerGemv()
                ? Prepared.Q8_0_INT
                : switch (band.activation()) {
                    case Q8_0 -> Prepared.Q8_0_FLOAT;
                    case Q8_K -> Prepared.Q8_K_FLOAT;
                    case FLOAT -> Prepared.NONE;
                };
    }

    /** Rounds rows {@code [0, rows)} of {@code x} (of {@code k} columns) into the scratch as {@code p} says. */
    static void prepare(Launch l, GpuActivations x, int rows, int k, Prepared p) {
        int total = Math.multiplyExact(rows, k);
        KernelArgs args = KernelArgs.of().pointer(x.buffer);
        switch (p) {
            case Q8_0_INT ->
                l.kernel(
                        Kernel.QUANTIZE_Q8_0,
                        Launch.covering(total),
                        l.q8(args, 0, k).i32(total));
            case Q8_0_FLOAT ->
                l.kernel(
                        Kernel.QUANTIZE_Q8_0_F32,
                        Launch.covering(total),
                        args.pointer(l.scratch(Slot.XF)).i32(total));
            case Q8_K_FLOAT ->
                l.kernel(
                        Kernel.QUANTIZE_Q8_K,
                        LaunchConfig.of(total / LS_QK_K, LS_QK_K),
                        args.pointer(l.scratch(Slot.XF))
                                .nullPointer()
                                .nullPointer()
                                .nullPointer()
                                .i32(total));
            case Q8_K_INT ->
                l.kernel(
                        Kernel.QUANTIZE_Q8_K,
                        LaunchConfig.of(total / LS_QK_K, LS_QK_K),
                        args.nullPointer()
                                .nullPointer()
                                .pointer(l.scratch(Slot.XQ))
                                .pointer(l.scratch(Slot.XD))
                                .i32(total));
            case Q8_0_HALF ->
                l.kernel(
                        Kernel.QUANTIZE_Q8_0_F16,
                        Launch.covering(total),
                        args.pointer(l.scratch(Slot.XH)).i32(total));
            case Q8_K_HALF ->
                l.kernel(
                        Kernel.QUANTIZE_Q8_K,
                        LaunchConfig.of(total / LS_QK_K, LS_QK_K),
                        args.nullPointer()
                                .pointer(l.scratch(Slot.XH))
                                .nullPointer()
                                .nullPointer()
                                .i32(total));
            case PLAIN_HALF ->
                l.kernel(
                        Kernel.F32_TO_F16,
                        Launch.covering(total),
                        args.pointer(l.scratch(Slot.XH)).i32(total));
            case NONE -> {}
        }
    }

    /**
     * Row-major {@code out[t][r] = sum_k W[r][k] x[t][k]} through column-major BLAS: {@code out^T = W x^T},
     * W (band rows x k, row-major) as op(A) = A^T with lda = k, x^T as B (k x n, ldb = k).
     */
    private Prepared blas(Launch l, GpuWeight.Band band, WeightFormat f, Prepared prepared, long yOffset) {
        int k = weight.cols();
        int rows = Math.toIntExact(band.rows());
        if (f == WeightFormat.F32) {
            gemm(l, rows, band.data(), BlasType.F32, x.buffer, BlasType.F32, yOffset);
            return prepared;
        }
        Prepared wanted = prepareHalf(l, band, prepared);
        DeviceBuffer xh = l.scratch(Slot.XH);
        if (f == WeightFormat.F16 || band.half() != null) {
            DeviceBuffer a = f == WeightFormat.F16 ? band.data() : band.half();
            gemm(l, rows, a, BlasType.F16, xh, BlasType.F16, yOffset);
            return wanted;
        }
        DeviceBuffer deq = l.scratch(Slot.WDEQ);
        int bandRows = dequantRows(k, rows, l.options().dequantBandBytes());
        for (int r0 = 0; r0 < rows; r0 += bandRows) {
            int r = Math.min(bandRows, rows - r0);
            l.kernel(
                    f.dequantF16Kernel(),
                    Launch.covering((long) r * k / 8),
                    KernelArgs.of()
                            .pointer(band.data())
                            .pointer(band.data(), band.scalesOffset())
                            .pointer(deq)
                            .i32(r0)
                            .i32(r)
                            .i32(k));
            gemm(l, r, deq, BlasType.F16, xh, BlasType.F16, yOffset + (long) r0 * Float.BYTES);
        }
        return wanted;
    }

    /** Writes x's half form for {@code band} (rounded as the CPU rounds that band's activations) to the scratch unless {@code prepared} is it. */
    private Prepared prepareHalf(Launch l, GpuWeight.Band band, Prepared prepared) {
        Prepared wanted =
                switch (band.activation()) {
                    case Q8_0 -> Prepared.Q8_0_HALF;
                    case Q8_K -> Prepared.Q8_K_HALF;
                    case FLOAT -> Prepared.PLAIN_HALF;
                };
        if (wanted != prepared) {
            prepare(l, x, n, weight.cols(), wanted);
        }
        return wanted;
    }

    /**
     * {@code rows} weight rows of {@code a} (row-major, k wide) times the n rows of {@code b}
     * (row-major, k wide, of {@code bType}) into {@code out} at {@code yOffset}: one BLAS call, or
     * one per row when batch-invariant, the same shape whatever the batch.
     */
    private void gemm(
            Launch l, int rows, DeviceBuffer a, BlasType aType, DeviceBuffer b, BlasType bType, long yOffset) {
        int k = weight.cols();
        int ldc = out.cols();
        int perCall = l.options().batchInvariant() ? 1 : n;
        long bRowBytes = (long) k * bType.bytes();
        for (int c0 = 0; c0 < n; c0 += perCall) {
            l.blas()
                    .gemm(
                            Transpose.TRANSPOSE,
                            Transpose.NONE,
                            rows,
                            Math.min(perCall, n - c0),
                            k,
                            1f,
                            a,
                            0,
                            aType,
                            k,
                            b,
                            c0 * bRowBytes,
                            bType,
                            k,
                            0f,
                            out.buffer,
                            yOffset + (long) c0 * ldc * Float.BYTES,
                            BlasType.F32,
                            ldc);
        }
    }

    @Override
    public long weightBytes() {
        return weight.byteSize();
    }

    @Override
    public String profileKey() {
        return "matmul "
                + weight.bands.stream().map(b -> b.format().name()).distinct().toList() + " " + weight.rows() + "x"
                + weight.cols() + " n=" + n + " " + path.name().toLowerCase(java.util.Locale.ROOT);
    }
}
