package com.llmserve.engine.backend.gpu;

import com.llmserve.engine.backend.Backend;
import com.llmserve.gpu.Device;
import java.util.List;

/** The shards of a tensor-parallel model, one GPU backend per device (in progress). */
public final class ShardGroup {

    private ShardGroup() {}

    /** Shard 0's backend of a new group over {@code devices}. */
    public static Backend open(List<Device> devices, GpuOptions options) {
        throw new UnsupportedOperationException("tensor parallelism is not built yet");
    }
}
