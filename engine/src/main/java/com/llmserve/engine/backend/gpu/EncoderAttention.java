package com.llmserve.engine.backend.gpu;

import static com.llmserve.kernels.KernelConstants.LS_ENC_QUERIES;
import static com.llmserve.kernels.KernelConstants.LS_ENC_THREADS;

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
            // a block per head, sequence and LS_ENC_QUERIES positions of it (blocks past a short span return at once)
            int tiles = (longest + LS_ENC_QUERIES - 1) / LS_ENC_QUERIES;
            l.kernel(tiled, new LaunchConfig(s.heads(), sequences, tiles, LS_ENC_THREADS, 1, 1, 0), args);
        } else {
            l.kernel(Kernel.ENCODER_ATTENTION_F32, new LaunchConfig(s.heads(), n, 1, LS_ENC_THREADS, 1, 1, 0), args);
        }
    }

    @Override
    public String profileKey() {
        return "encoder attention " + shape.heads() + "x" + shape.headDim() + " rows=" + n;
    }
}
