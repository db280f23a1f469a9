package com.llmserve.engine.backend.gpu;

import com.llmserve.engine.backend.AttentionShape;
import com.llmserve.gpu.KernelArgs;
import com.llmserve.gpu.LaunchConfig;
import com.llmserve.kernels.Kernel;

/**
 * Bidirectional attention within each of {@code sequences} spans (float32 throughout).
 *
 * @param starts where the {@code sequences + 1} span starts sit in the step's int region
 * @param n      the rows the spans cover
 */
record EncoderAttention(
        GpuActivations qkv, int starts, int sequences, int n, int longest, AttentionShape shape, GpuActivations out)
        implements DeviceOp {

    /** Must match LS_ENC_THREADS in encoder.hip. */
    static final int THREADS = 128;
    /** Positions per block of the tiled kernels (LS_ENC_QUERIES: eight lanes each). */
    static final int QUERIES = 16;
    /** Must match LS_ENC_MAX_DIM in encoder.hip. */
    static final int MAX_HEAD_DIM = 256;

    @Override
    public void launch(Launch l) {
        AttentionShape s = shape;
        KernelArgs args = KernelArgs.of().pointer(qkv.buffer).i32(qkv.cols());
        l.ints(args, starts)
                .i32(sequences)
                .pointer(out.buffer)
                .i32(out.cols())
                .i32(s.heads())
                .i32(s.kvHeads())
                .i32(s.headDim())
                .i32(s.keyCol())
                .i32(s.valueCol())
                .f32(s.scale());
        Kernel tiled =
                switch (s.headDim()) {
                    case 32 -> Kernel.ENCODER_ATTENTION_D32;
                    case 64 -> Kernel.ENCODER_ATTENTION_D64;
                    case 128 -> Kernel.ENCODER_ATTENTION_D128;
                    default -> null;
                };
        if (tiled != null) {
            // a block per head, sequence and QUERIES positions of it (blocks past a short span return at once)
            int tiles = (longest + QUERIES - 1) / QUERIES;
            l.kernel(tiled, new LaunchConfig(s.heads(), sequences, tiles, THREADS, 1, 1, 0), args);
        } else {
            l.kernel(Kernel.ENCODER_ATTENTION_F32, new LaunchConfig(s.heads(), n, 1, THREADS, 1, 1, 0), args);
        }
    }

    @Override
    public String profileKey() {
        return "encoder attention " + shape.heads() + "x" + shape.headDim() + " rows=" + n;
    }
}
