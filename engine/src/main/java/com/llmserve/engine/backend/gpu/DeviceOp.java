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

    /** Whether the operation calls the vendor BLAS, which is kept out of captured graphs. */
    default boolean usesBlas() {
        return false;
    }

    record Embed(GpuWeight table, int n, GpuActivations out) implements DeviceOp {
        public void run(Launcher l) {
            l.embed(this);
        }
    }

    record RmsNorm(GpuActivations x, GpuWeight weight, float eps, int n, GpuActivations out) implements DeviceOp {
        public void run(Launcher l) {
            l.rmsNorm(this);
        }
    }

    /** {@code x += residual} followed by {@link RmsNorm} of x: the pair a pre-norm block issues, fused. */
    record AddRmsNorm(GpuActivations x, GpuActivations residual, GpuWeight weight, float eps, int n, GpuActivations out)
            implements DeviceOp {
        public void run(Launcher l) {
            l.addRmsNorm(this);
        }
    }

    record LayerNorm(GpuActivations x, GpuWeight weight, GpuWeight bias, float eps, int n, GpuActivations out) implements DeviceOp {
        public void run(Launcher l) {
            l.layerNorm(this);
        }
    }

    /** @param blas whether the product takes the dequantize + BLAS path (decided when recorded) */
    record Matmul(GpuWeight weight, GpuActivations x, int n, GpuActivations out, boolean blas) implements DeviceOp {
        public void run(Launcher l) {
            l.matmul(this);
        }

        @Override
        public boolean usesBlas() {
            return blas;
        }
    }

    record AddBias(GpuActivations x, GpuWeight bias, int n) implements DeviceOp {
        public void run(Launcher l) {
            l.addBias(this);
        }
    }

    record Add(GpuActivations x, GpuActivations y, int n) implements DeviceOp {
        public void run(Launcher l) {
            l.add(this);
        }
    }

    record RotaryEmbedding(GpuActivations x, int col, int heads, int headDim, Rope.Style style, RopeTable table, int n)
            implements DeviceOp {
        public void run(Launcher l) {
            l.rope(this);
        }
    }

    /** @param splits position splits per row (flash-decoding); 1 writes the output directly */
    record Attention(GpuActivations qkv, GpuKvStorage kv, int layer, AttentionShape shape, int splits, int n, GpuActivations out)
            implements DeviceOp {
        public void run(Launcher l) {
            l.attention(this);
        }
    }

    record SwiGlu(GpuActivations gateUp, int n, GpuActivations out) implements DeviceOp {
        public void run(Launcher l) {
            l.swiGlu(this);
        }
    }

    /** @param offset where this gather's row indices start in the metadata's gather region */
    record Gather(GpuActivations x, int offset, int n, GpuActivations out) implements DeviceOp {
        public void run(Launcher l) {
            l.gather(this);
        }
    }

    /** The k best logits of each of n rows, into the top-k scratch. */
    record TopK(GpuActivations x, int n, int k) implements DeviceOp {
        public void run(Launcher l) {
            l.topK(this);
        }
    }
}
