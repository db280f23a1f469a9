package com.llmserve.engine.backend.gpu;

import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.KvStorage;
import com.llmserve.gpu.DeviceBuffer;

/** The paged cache in device memory: per layer one buffer of key halves and one of value halves. */
final class GpuKvStorage extends KvStorage {

    final DeviceBuffer[] keys;
    final DeviceBuffer[] values;

    GpuKvStorage(
            Backend owner,
            int[] groupOfLayer,
            int[] blocksOfGroup,
            int blockSize,
            int kvDim,
            DeviceBuffer[] keys,
            DeviceBuffer[] values) {
        super(owner, groupOfLayer, blocksOfGroup, blockSize, kvDim);
        this.keys = keys;
        this.values = values;
    }

    @Override
    protected void release() {
        for (int l = 0; l < layers(); l++) {
            keys[l].close();
            values[l].close();
        }
    }
}
