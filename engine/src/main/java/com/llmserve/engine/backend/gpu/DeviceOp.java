package com.llmserve.engine.backend.gpu;

import com.llmserve.engine.backend.AttentionShape;
import com.llmserve.engine.backend.Rope;

/**
 * One backend operation as recorded for the current step: plain values and handles, so that two
 * steps that issue equal lists of operations launch the same kernels on the same buffers, which
 * is what lets a captured graph stand in for the list. Row counts are the padded ones. Batch
 * data (tokens, positions, slots, block tables, gathered rows) is not part of an operation: it is
 * copied into the step's metadata buffer before the kernels run, and kernels read it there.
 */
sealed interface DeviceOp {

    void run(Launcher l);

    /**
     * Whether the operation may be captured into a graph: not when it calls the vendor BLAS (whose
     * workspace belongs to the capturing stream's handle) or sizes its grid from the batch.
     */
    default boolean graphable() {
        return true;
    }

    /** What profiles group this operation's time under: its kind and shape. */
    String profileKey();

    /** Weight bytes the operation reads (for bandwidth figures), 0 when it reads none. */
    default long weightBytes() {
        return 0;
    }

    record Embed(GpuWeight table, int n, GpuActivations out) implements DeviceOp {
        public void run(Launcher l) {
            l.embed(this);
        }

        @Override
        public String profileKey() {
            return "embed " + table.bands.getFirst().format() + " n=" + n;
        }
    }

    /** @param quantize also write the Q8_0 form of {@code out} for the GEMV that follows (fused) */
    record RmsNorm(GpuActivations x, GpuWeight weight, float eps, int n, GpuActivations out, boolean quantize)
            implements DeviceOp {
        public void run(Launcher l) {
            l.rmsNorm(this);
        }

        @Override
        public String profileKey() {
            return "rmsNorm " + x.cols() + (quantize ? "+q8" : "") + " n=" + n;
        }
    }

    /** {@code x += residual} followed by {@link RmsNorm} of x: the pair a pre-norm block issues, fused. */
    record AddRmsNorm(
            GpuActivations x,
            GpuActivations residual,
            GpuWeight weight,
            float eps,
            int n,
            GpuActivations out,
            boolean quantize)
            implements DeviceOp {
        public void run(Launcher l) {
            l.addRmsNorm(this);
        }

        @Override
        public String profileKey() {
            return "add+rmsNorm " + x.cols() + (quantize ? "+q8" : "") + " n=" + n;
        }
    }

    record LayerNorm(GpuActivations x, GpuWeight weight, GpuWeight bias, float eps, int n, GpuActivations out)
            implements DeviceOp {
        public void run(Launcher l) {
            l.layerNorm(this);
        }

        @Override
        public String profileKey() {
            return "layerNorm " + x.cols() + " n=" + n;
        }
    }

    /**
     * @param blas         whether the product takes the dequantize + BLAS path (decided when recorded)
     * @param prequantized the operation before it already wrote x's Q8_0 form to the scratch
     */
    record Matmul(GpuWeight weight, GpuActivations x, int n, GpuActivations out, boolean blas, boolean prequantized)
            implements DeviceOp {
        public void run(Launcher l) {
            l.matmul(this);
        }

        @Override
        public String profileKey() {
            return "matmul "
                    + weight.bands.stream()
                            .map(b -> b.format().name())
                            .distinct()
                            .toList() + " " + weight.rows() + "x" + weight.cols() + " n=" + n
                    + (blas ? " blas" : " gemv");
        }

        @Override
        public long weightBytes() {
            return weight.byteSize();
        }

        @Override
        public boolean graphable() {
            return !blas;
        }
    }

    record AddBias(GpuActivations x, GpuWeight bias, int n) implements DeviceOp {
        public void run(Launcher l) {
            l.addBias(this);
        }

        @Override
        public String profileKey() {
            return "addBias n=" + n;
        }
    }

    record Add(GpuActivations x, GpuActivations y, int n) implements DeviceOp {
        public void run(Launcher l) {
            l.add(this);
        }

        @Override
        public String profileKey() {
            return "add n=" + n;
        }
    }

    /**
     * @param kv    when not null, the kernel also writes each row's keys (rotated) and values into this
     *              cache at {@code layer} (the write the attention that follows would do)
     * @param shape where keys and values sit, when {@code kv} is set
     */
    record RotaryEmbedding(
            GpuActivations x,
            int col,
            int heads,
            int headDim,
            Rope.Style style,
            RopeTable table,
            int n,
            GpuKvStorage kv,
            int layer,
            AttentionShape shape)
            implements DeviceOp {
        public void run(Launcher l) {
            l.rope(this);
        }

        @Override
        public String profileKey() {
            return "rope " + heads + " heads" + (kv != null ? "+kv" : "") + " n=" + n;
        }
    }

    /**
     * @param splits    position splits per row (flash-decoding); 1 writes the output directly
     * @param kvWritten the rope before it already wrote this step's keys and values
     * @param tiles     prompt tiles of the tiled kernel (listed in the step's metadata); 0 for the per-row kernels
     */
    record Attention(
            GpuActivations qkv,
            GpuKvStorage kv,
            int layer,
            AttentionShape shape,
            int splits,
            int n,
            GpuActivations out,
            boolean kvWritten,
            int tiles)
            implements DeviceOp {
        public void run(Launcher l) {
            l.attention(this);
        }

        @Override
        public boolean graphable() {
            return tiles == 0;
        }

        @Override
        public String profileKey() {
            return "attention " + shape.heads() + "/" + shape.kvHeads() + "x" + shape.headDim() + " n=" + n
                    + (tiles > 0 ? " tiles=" + tiles : " splits=" + splits);
        }
    }

    record SwiGlu(GpuActivations gateUp, int n, GpuActivations out, boolean quantize) implements DeviceOp {
        public void run(Launcher l) {
            l.swiGlu(this);
        }

        @Override
        public String profileKey() {
            return "swiGlu " + out.cols() + (quantize ? "+q8" : "") + " n=" + n;
        }
    }

    /** @param offset where this gather's row indices start in the metadata's gather region */
    record Gather(GpuActivations x, int offset, int n, GpuActivations out) implements DeviceOp {
        public void run(Launcher l) {
            l.gather(this);
        }

        @Override
        public String profileKey() {
            return "gather n=" + n;
        }
    }

    record Gelu(GpuActivations x, int n) implements DeviceOp {
        public void run(Launcher l) {
            l.gelu(this);
        }

        @Override
        public String profileKey() {
            return "gelu " + x.cols() + " n=" + n;
        }
    }

    /**
     * @param offset where the span starts ({@code sequences + 1} ints) sit in the metadata's int region
     * @param mode   1 mean, 2 first row, 3 last row (ls_pool_f32)
     */
    record Pool(GpuActivations x, int offset, int sequences, int mode, GpuActivations out) implements DeviceOp {
        public void run(Launcher l) {
            l.pool(this);
        }

        @Override
        public String profileKey() {
            return "pool mode " + mode + " sequences=" + sequences;
        }
    }

    /**
     * @param offset where the span starts ({@code sequences + 1} ints) sit in the metadata's int region
     * @param rows   the rows the spans cover
     */
    record EncoderAttention(
            GpuActivations qkv,
            int offset,
            int sequences,
            int rows,
            int longest,
            AttentionShape shape,
            GpuActivations out)
            implements DeviceOp {
        public void run(Launcher l) {
            l.encoderAttention(this);
        }

        @Override
        public String profileKey() {
            return "encoder attention " + shape.heads() + "x" + shape.headDim() + " rows=" + rows;
        }
    }

    /** The k best logits of each of n rows, into the top-k scratch. */
    record TopK(GpuActivations x, int n, int k) implements DeviceOp {
        public void run(Launcher l) {
            l.topK(this);
        }

        @Override
        public String profileKey() {
            return "topK k=" + k + " n=" + n;
        }
    }
}
