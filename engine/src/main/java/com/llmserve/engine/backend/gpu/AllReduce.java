package com.llmserve.engine.backend.gpu;

import com.llmserve.gpu.BlasType;

/**
 * {@code x[t]} summed over the shards of a tensor-parallel model, in place, for the padded rows
 * {@code [0, n)}: rank {@code rank}'s part of one all-reduce. Its {@link ShardGroup} launches every
 * rank's part together (one collective group), never this record alone.
 */
record AllReduce(GpuActivations x, int n, ShardGroup group, int rank) implements DeviceOp {

    @Override
    public void launch(Launch l) {
        group.comms().allReduceSum(rank, x.buffer, 0, (long) n * x.cols(), BlasType.F32, l.stream());
    }

    @Override
    public String profileKey() {
        return "allReduce " + x.cols() + " n=" + n;
    }
}
