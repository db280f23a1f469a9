package com.llmserve.engine.backend.gpu;

import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.KvCacheType;
import com.llmserve.engine.backend.KvStorage;
import com.llmserve.gpu.DeviceBuffer;

/**
 * The paged cache in device memory: per layer one buffer of keys and one of values, slot-major.
 * F16: halves. Q8_0: signed bytes, with each layer's half scales (one per 32 values) in
 * {@link #keyScales} and {@link #valueScales}, which are null for F16.
 */
final class GpuKvStorage extends KvStorage {

    final DeviceBuffer[] keys;
    final DeviceBuffer[] values;
    final DeviceBuffer[] keyScales;
    final DeviceBuffer[] valueScales;

    GpuKvStorage(
            Backend owner,
            int[] groupOfLayer,
            int[] blocksOfGroup,
            int blockSize,
            int kvDim,
            KvCacheType type,
            DeviceBuffer[] keys,
            DeviceBuffer[] values,
            DeviceBuffer[] keyScales,
            DeviceBuffer[] valueScales) {
        super(owner, groupOfLayer, blocksOfGroup, blockSize, kvDim, type);
        this.keys = keys;
        this.values = values;
        this.keyScales = keyScales;
        this.valueScales = valueScales;
    }

    boolean q8() {
        return type() == KvCacheType.Q8_0;
    }

    @Override
    protected void release() {
        closeAll(keys, values, keyScales, valueScales);
    }

    /** Closes every buffer of {@code arrays} (null arrays and entries skipped). */
    static void closeAll(DeviceBuffer[]... arrays) {
        for (DeviceBuffer[] a : arrays) {
            if (a == null) {
                continue;
            }
            for (DeviceBuffer b : a) {
                if (b != null) {
                    b.close();
                }
            }
        }
    }
}
