package com.llmserve.engine.backend.cpu;

import com.llmserve.engine.backend.Activations;
import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.Step;
import java.util.ArrayList;
import java.util.List;

/**
 * CPU backends standing in for the GPUs of a tensor-parallel model, so that a model's split is
 * tested where there is no GPU: each shard is a {@link CpuBackend} of its own, and an all-reduce
 * sums the shards' rows in rank order at the last shard's call (every shard calls right after the
 * previous one, as {@link Backend#allReduceSum} asks) and writes the sum to every shard. Closing
 * shard 0 closes the others.
 */
public final class CpuShards {

    private final List<Shard> shards = new ArrayList<>();
    private final float[][] parts;
    private int arrived;

    private CpuShards(int count) {
        this.parts = new float[count][];
    }

    /**
     * Shard 0 of {@code count} CPU shards of {@code threads} threads each.
     *
     * @param kernels as {@link CpuBackend#CpuBackend(int, boolean, boolean, CpuKernels)}
     */
    public static CpuBackend open(int count, int threads, CpuKernels kernels) {
        if (count < 2) {
            throw new IllegalArgumentException("CPU shards need two or more: " + count);
        }
        CpuShards g = new CpuShards(count);
        for (int rank = 0; rank < count; rank++) {
            g.shards.add(g.new Shard(rank, threads, kernels));
        }
        return g.shards.getFirst();
    }

    private void contribute(int rank, float[] x, int values) {
        if (rank != arrived) {
            throw new IllegalStateException("shard " + rank + " summed before shard " + arrived
                    + ": every shard calls allReduceSum in rank order, one after another");
        }
        parts[rank] = x;
        if (++arrived < parts.length) {
            return;
        }
        arrived = 0;
        for (int i = 0; i < values; i++) {
            float sum = parts[0][i];
            for (int r = 1; r < parts.length; r++) {
                sum += parts[r][i];
            }
            for (float[] p : parts) {
                p[i] = sum;
            }
        }
    }

    private final class Shard extends CpuBackend {

        private final int rank;

        Shard(int rank, int threads, CpuKernels kernels) {
            super("cpu-shard:" + rank, threads, true, false, kernels);
            this.rank = rank;
        }

        @Override
        public List<? extends Backend> shards() {
            return List.copyOf(shards);
        }

        @Override
        protected void doAllReduceSum(Step step, Activations x, int n) {
            contribute(rank, ((CpuActivations) x).data, n * x.cols());
        }

        @Override
        protected void doClose() {
            super.doClose();
            if (rank == 0) {
                shards.subList(1, shards.size()).forEach(CpuBackend::close);
            }
        }
    }
}
