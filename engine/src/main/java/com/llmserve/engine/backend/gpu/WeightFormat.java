package com.llmserve.engine.backend.gpu;

import com.llmserve.engine.gguf.GgmlType;
import com.llmserve.kernels.Kernel;
import com.llmserve.kernels.KernelConstants;
import java.util.Optional;

/**
 * How a weight sits in device memory, and the kernels that read it. Q4_0 and Q8_0 are repacked at
 * upload (quant blocks, then the f16 scales: aligned 16-byte loads); Q4_1, Q5_0, Q5_1, the K-quants
 * (Q2_K to Q6_K), F16, BF16 and F32 keep GGML's layout, so a weight takes its file's bytes on the
 * device. MXFP4 (gpt-oss's experts) is transcoded on the host to {@link #Q8_0} blocks, which hold
 * its doubled E2M1 codes as int8 and its power-of-two scale as an f16: the same integer products as
 * llama.cpp's MXFP4 x Q8_0, at twice MXFP4's bytes (half of F16's). A type without a format here
 * (none the CPU backend reads today) would be dequantized on the host to {@link #F16}.
 */
enum WeightFormat {
    Q4_0(
            GgmlType.Q4_0,
            Activation.Q8_0,
            16,
            Kernel.EMBED_Q4_0,
            Kernel.DEQUANT_Q4_0_F16,
            Kernel.MMVQ_Q4_0_1,
            Kernel.MMVQ_Q4_0_2,
            Kernel.MMVQ_Q4_0_3,
            Kernel.MMVQ_Q4_0_4,
            Kernel.MMVQ_Q4_0_5,
            Kernel.MMVQ_Q4_0_6,
            Kernel.MMVQ_Q4_0_7,
            Kernel.MMVQ_Q4_0_8),
    Q8_0(
            GgmlType.Q8_0,
            Activation.Q8_0,
            32,
            Kernel.EMBED_Q8_0,
            Kernel.DEQUANT_Q8_0_F16,
            Kernel.MMVQ_Q8_0_1,
            Kernel.MMVQ_Q8_0_2,
            Kernel.MMVQ_Q8_0_3,
            Kernel.MMVQ_Q8_0_4,
            Kernel.MMVQ_Q8_0_5,
            Kernel.MMVQ_Q8_0_6,
            Kernel.MMVQ_Q8_0_7,
            Kernel.MMVQ_Q8_0_8),
    Q4_1(
            GgmlType.Q4_1,
            Activation.Q8_0,
            0,
            Kernel.EMBED_Q4_1,
            Kernel.DEQUANT_Q4_1_F16,
            Kernel.MMVQ_Q4_1_1,
            Kernel.MMVQ_Q4_1_2,
            Kernel.MMVQ_Q4_1_3,
            Kernel.MMVQ_Q4_1_4,
            Kernel.MMVQ_Q4_1_5,
            Kernel.MMVQ_Q4_1_6,
            Kernel.MMVQ_Q4_1_7,
            Kernel.MMVQ_Q4_1_8),
    Q5_0(
            GgmlType.Q5_0,
            Activation.Q8_0,
            0,
            Kernel.EMBED_Q5_0,
            Kernel.DEQUANT_Q5_0_F16,
            Kernel.MMVQ_Q5_0_1,
            Kernel.MMVQ_Q5_0_2,
            Kernel.MMVQ_Q5_0_3,
            Kernel.MMVQ_Q5_0_4,
            Kernel.MMVQ_Q5_0_5,
            Kernel.MMVQ_Q5_0_6,
            Kernel.MMVQ_Q5_0_7,
            Kernel.MMVQ_Q5_0_8),
    Q5_1(
            GgmlType.Q5_1,
            Activation.Q8_0,
            0,
            Kernel.EMBED_Q5_1,
            Kernel.DEQUANT_Q5_1_F16,
            Kernel.MMVQ_Q5_1_1,
            Kernel.MMVQ_Q5_1_2,
            Kernel.MMVQ_Q5_1_3,
            Kernel.MMVQ_Q5_1_4,
            Kernel.MMVQ_Q5_1_5,
            Kernel.MMVQ_Q5_1_6,
            Kernel.MMVQ_Q5_1_7,
            Kernel.MMVQ_Q5_1_8),
    Q2_K(
            GgmlType.Q2_K,
            Activation.Q8_K,
            0,
            Kernel.EMBED_Q2_K,
            Kernel.DEQUANT_Q2_K_F16,
            Kernel.MMVF_Q2_K_1,
            Kernel.MMVF_Q2_K_2,
            Kernel.MMVF_Q2_K_3,
            Kernel.MMVF_Q2_K_4,
            Kernel.MMVF_Q2_K_5,
            Kernel.MMVF_Q2_K_6,
            Kernel.MMVF_Q2_K_7,
            Kernel.MMVF_Q2_K_8),
    Q3_K(
            GgmlType.Q3_K,
            Activation.Q8_K,
            0,
            Kernel.EMBED_Q3_K,
            Kernel.DEQUANT_Q3_K_F16,
            Kernel.MMVK_Q3_K_1,
            Kernel.MMVK_Q3_K_2,
            Kernel.MMVK_Q3_K_3,
            Kernel.MMVK_Q3_K_4,
            Kernel.MMVK_Q3_K_5,
            Kernel.MMVK_Q3_K_6,
            Kernel.MMVK_Q3_K_7,
            Kernel.MMVK_Q3_K_8),
    Q4_K(
            GgmlType.Q4_K,
            Activation.Q8_K,
            0,
            Kernel.EMBED_Q4_K,
            Kernel.DEQUANT_Q4_K_F16,
            Kernel.MMVK_Q4_K_1,
            Kernel.MMVK_Q4_K_2,
            Kernel.MMVK_Q4_K_3,
            Kernel.MMVK_Q4_K_4,
            Kernel.MMVK_Q4_K_5,
            Kernel.MMVK_Q4_K_6,
            Kernel.MMVK_Q4_K_7,
            Kernel.MMVK_Q4_K_8),
    Q5_K(
            GgmlType.Q5_K,
            Activation.Q8_K,
            0,
            Kernel.EMBED_Q5_K,
            Kernel.DEQUANT_Q5_K_F16,
            Kernel.MMVK_Q5_K_1,
            Kernel.MMVK_Q5_K_2,
            Kernel.MMVK_Q5_K_3,
            Kernel.MMVK_Q5_K_4,
            Kernel.MMVK_Q5_K_5,
            Kernel.MMVK_Q5_K_6,
            Kernel.MMVK_Q5_K_7,
            Kernel.MMVK_Q5_K_8),
    Q6_K(
            GgmlType.Q6_K,
            Activation.Q8_K,
            0,
            Kernel.EMBED_Q6_K,
            Kernel.DEQUANT_Q6_K_F16,
            Kernel.MMVK_Q6_K_1,
            Kernel.MMVK_Q6_K_2,
            Kernel.MMVK_Q6_K_3,
            Kernel.MMVK_Q6_K_4,
            Kernel.MMVK_Q6_K_5,
            Kernel.MMVK_Q6_K_6,
            Kernel.MMVK_Q6_K_7,
            Kernel.MMVK_Q6_K_8),
    F16(
            GgmlType.F16,
            Activation.FLOAT,
            0,
            Kernel.EMBED_F16,
            Kernel.DEQUANT_F16_F16,
            Kernel.MMVF_F16_1,
            Kernel.MMVF_F16_2,
            Kernel.MMVF_F16_3,
            Kernel.MMVF_F16_4,
            Kernel.MMVF_F16_5,
            Kernel.MMVF_F16_6,
            Kernel.MMVF_F16_7,
            Kernel.MMVF_F16_8),
    BF16(
            GgmlType.BF16,
            Activation.FLOAT,
            0,
            Kernel.EMBED_BF16,
            Kernel.DEQUANT_BF16_F16,
            Kernel.MMVF_BF16_1,
            Kernel.MMVF_BF16_2,
            Kernel.MMVF_BF16_3,
            Kernel.MMVF_BF16_4,
            Kernel.MMVF_BF16_5,
            Kernel.MMVF_BF16_6,
            Kernel.MMVF_BF16_7,
            Kernel.MMVF_BF16_8),
    F32(
            GgmlType.F32,
            Activation.FLOAT,
            0,
            Kernel.EMBED_F32,
            Kernel.DEQUANT_F32_F16,
            Kernel.MMVF_F32_1,
            Kernel.MMVF_F32_2,
            Kernel.MMVF_F32_3,
            Kernel.MMVF_F32_4,
            Kernel.MMVF_F32_5,
            Kernel.MMVF_F32_6,
            Kernel.MMVF_F32_7,
            Kernel.MMVF_F32_8);

    /**
     * What a weight's activations are rounded to before the product, as llama.cpp's CPU backend
     * and our CPU backend do (the type's {@code vec_dot_type}), so GPU and CPU multiply the same
     * values.
     */
    enum Activation {
        /**
         * Blocks of 32: int8 values, f16-rounded scale; the GEMV kernels use the integers (and each
         * block's sum of them, for Q4_0's and Q5_0's offsets and Q4_1's and Q5_1's mins). llama.cpp's
         * Q4_1 and Q5_1 take Q8_1, whose integers and scale are Q8_0's; the CPU backend rounds all
         * five to Q8_0.
         */
        Q8_0,
        /** Blocks of 256, scale from the signed value of largest magnitude, rounded back to floats. */
        Q8_K,
        /** Unchanged floats (F16, BF16 and F32 weights). */
        FLOAT
    }

    private final GgmlType type;
    private final Activation activation;
    private final int repackedBlockBytes;
    private final Kernel embed;
    private final Kernel dequantF16;
    private final Kernel[] gemv;

    WeightFormat(
            GgmlType type,
            Activation activation,
            int repackedBlockBytes,
            Kernel embed,
            Kernel dequantF16,
            Kernel... gemv) {
        this.type = type;
        this.activation = activation;
        this.repackedBlockBytes = repackedBlockBytes;
        this.embed = embed;
        this.dequantF16 = dequantF16;
        this.gemv = gemv;
    }

    /** The rounding llama.cpp applies to the activations of a weight of {@code type} (CpuTensor's rule). */
    static Activation activationOf(GgmlType type) {
        return switch (type) {
            case F32, F16, BF16 -> Activation.FLOAT;
            case Q2_K, Q3_K, Q4_K, Q5_K, Q6_K -> Activation.Q8_K;
            default -> Activation.Q8_0;
        };
    }

    /**
     * The device format of a type's weights: its own for every type the CPU backend reads (MXFP4:
     * Q8_0 blocks), else F16 (dequantized on the host, which refuses a type the CPU cannot read).
     * Rows whose length is not a multiple of 8 do not fit the vector loads of the GEMV and gather
     * kernels: they are kept as F32 and always go through BLAS.
     */
    static WeightFormat forType(GgmlType type, int cols) {
        if (cols % 8 != 0) {
            return F32;
        }
        if (type == GgmlType.MXFP4) {
            // its codes are small integers: Q8_0 blocks hold them exactly (WeightUploader transcodes)
            return Q8_0;
        }
        return of(type).orElse(F16);
    }

    /** The device format of a GGUF type, or empty when it has none (the host would dequantize it to F16). */
    static Optional<WeightFormat> of(GgmlType type) {
        for (WeightFormat f : values()) {
            if (f.type == type) {
                return Optional.of(f);
            }
        }
        return Optional.empty();
    }

    GgmlType type() {
        return type;
    }

    Activation activation() {
        return activation;
    }

    /** Whether the upload splits GGML blocks into quants and scales (Q4_0, Q8_0). */
    boolean repacked() {
        return repackedBlockBytes > 0;
    }

    /** Quant bytes per 32-element block in the repacked layout. */
    int repackedBlockBytes() {
        return repackedBlockBytes;
    }

    /** Device bytes of {@code rows} rows of {@code cols}: the GGML size, plus nothing for repacked (same total). */
    long byteSize(long rows, int cols) {
        return type.byteSize(rows * cols);
    }

    Kernel embedKernel() {
        return embed;
    }

    Kernel dequantF16Kernel() {
        return dequantF16;
    }

    /** The GEMV kernel for {@code columns} tokens (1 to {@code LS_MMV_MAX_COLS}). */
    Kernel gemvKernel(int columns) {
        return gemv[columns - 1];
    }

    /** Weight rows per block of {@link #gemvKernel} ({@code ls_mmv_rows} / {@code ls_mmvq_rows} in gemv.hip). */
    int gemvRows(int columns) {
        if (columns >= KernelConstants.LS_MMV_WIDE_COLS) {
            return KernelConstants.LS_MMV_WIDE_ROWS;
        }
        if (!repacked()) {
            return KernelConstants.LS_MMV_NARROW_ROWS;
        }
        return columns == 1 ? KernelConstants.LS_MMVQ_ONE_ROWS : KernelConstants.LS_MMVQ_FEW_ROWS;
    }

    /**
     * Threads per block of {@link #gemvKernel} over {@code rows} weight rows on a device of {@code
     * multiprocessors}: a one-token Q4_0 / Q8_0 GEMV whose grid fits the device at once takes
     * {@code LS_MMVQ_WAVE_THREADS}, so that each thread loads all its weights before its wait (the
     * 8B's output and down projections on an H200), other Q4_0 / Q8_0 GEMVs of few tokens {@code
     * LS_MMVQ_NARROW_THREADS}.
     */
    int gemvThreads(int columns, long rows, int multiprocessors) {
        if (!repacked() || columns >= KernelConstants.LS_MMV_WIDE_COLS) {
            return KernelConstants.LS_MMV_THREADS;
        }
        long blocks = (rows + KernelConstants.LS_MMVQ_ONE_ROWS - 1) / KernelConstants.LS_MMVQ_ONE_ROWS;
        int wave = this == Q4_0 ? KernelConstants.LS_MMVQ_Q4_0_WAVE_BLOCKS : KernelConstants.LS_MMVQ_Q8_0_WAVE_BLOCKS;
        return columns == 1 && blocks <= (long) wave * multiprocessors
                ? KernelConstants.LS_MMVQ_WAVE_THREADS
                : KernelConstants.LS_MMVQ_NARROW_THREADS;
    }

    /**
     * The grouped GEMV over a mixture's experts for groups of one column, or of up to
     * {@code LS_MMV_MAX_COLS} ({@code ls_mmvq_ex_*} / {@code ls_mmvf_ex_*} in gemv.hip), for rows of
     * {@code k} values: a repacked format's single columns take a group of 32 lanes per few rows
     * ({@code _1_w32}); the other integer ones split each weight block among 2 or 4 threads when a
     * row has too few blocks to give every thread of a block one.
     */
    Kernel expertGemvKernel(int columns, int k) {
        String group = "_" + (columns == 1 ? 1 : 8);
        if (!integerGemv()) {
            // (MMVF_EX_Q*_K: the K-quant experts' float products)
            return Kernel.valueOf("MMVF_EX_" + name() + group);
        }
        if (lanesPerRow(columns)) {
            return Kernel.valueOf("MMVQ_EX_" + name() + "_1_W32");
        }
        int blocks = k / KernelConstants.LS_QK;
        int split = blocks >= KernelConstants.LS_MMV_THREADS ? 1 : 2 * blocks >= KernelConstants.LS_MMV_THREADS ? 2 : 4;
        return Kernel.valueOf("MMVQ_EX_" + name() + group + "_S" + split);
    }

    /** Weight rows per block of {@link #expertGemvKernel}. */
    int expertGemvRows(int columns) {
        return lanesPerRow(columns) ? KernelConstants.LS_MMV_W32_ROWS : KernelConstants.LS_MMV_EX_ROWS;
    }

    private boolean lanesPerRow(int columns) {
        return columns == 1 && repacked();
    }

    /** The GEMV kernels take int8 activations (Q4_0, Q8_0, Q4_1, Q5_0, Q5_1: Q8_0 ones) rather than floats. */
    boolean integerGemv() {
        return gemv[0].name().startsWith("MMVQ_");
    }

    /**
     * The GEMV kernels take Q8_K activations as int8 values and a scale per 256 (Q3_K to Q6_K,
     * {@code ls_mmvk_*}); a mixture's experts of these formats still multiply Q8_K-rounded floats.
     */
    boolean kIntegerGemv() {
        return gemv[0].name().startsWith("MMVK_");
    }

    /** The int8 tensor-core product of this format ({@code ls_mmq_*}), or null: Q4_0 and Q8_0 have one. */
    Kernel tensorCoreKernel() {
        return switch (this) {
            case Q4_0 -> Kernel.MMQ_Q4_0;
            case Q8_0 -> Kernel.MMQ_Q8_0;
            default -> null;
        };
    }

    /**
     * The half tensor-core product over this format's blocks ({@code ls_mmh_*}: each weight turned
     * into half in registers as its half copy would hold it), or null: every quantized format has
     * one (F16 weights go to the BLAS as they are; F32 and BF16 have none).
     */
    Kernel halfTensorCoreKernel() {
        return switch (this) {
            case Q4_0 -> Kernel.MMH_Q4_0;
            case Q8_0 -> Kernel.MMH_Q8_0;
            case Q4_1 -> Kernel.MMH_Q4_1;
            case Q5_0 -> Kernel.MMH_Q5_0;
            case Q5_1 -> Kernel.MMH_Q5_1;
            case Q2_K -> Kernel.MMH_Q2_K;
            case Q3_K -> Kernel.MMH_Q3_K;
            case Q4_K -> Kernel.MMH_Q4_K;
            case Q5_K -> Kernel.MMH_Q5_K;
            case Q6_K -> Kernel.MMH_Q6_K;
            default -> null;
        };
    }

    /**
     * Whether {@code ls_mmh_*} over this format can beat the BLAS over its half copy (Q4_0, Q8_0:
     * a quarter or half of the bytes, two half operations a value pair). Q4_K's values cost a float
     * multiply-add and a conversion each: on an H200 ({@code bench/kernels/run.sh mmhk}, the 8B's
     * shapes) it is faster than the BLAS over the copy only for gate|up at up to 32 tokens (54.6
     * against 60.4 us at 16), even with it for down, slower for qkv and the output projection at
     * every count, so K-quants take it only where there is no half copy.
     */
    boolean halfProductsOverCopies() {
        return this == Q4_0 || this == Q8_0;
    }

    /** The grouped int8 tensor-core product over a mixture's experts ({@code ls_mmq_ex_*}), or null. */
    Kernel expertTensorCoreKernel() {
        return switch (this) {
            case Q4_0 -> Kernel.MMQ_EX_Q4_0;
            case Q8_0 -> Kernel.MMQ_EX_Q8_0;
            default -> null;
        };
    }
}
