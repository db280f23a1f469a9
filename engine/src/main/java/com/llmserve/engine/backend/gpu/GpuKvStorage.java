package com.llmserve.engine.backend.gpu;

import com.llmserve.engine.backend.KvStorage;
import com.llmserve.gpu.DeviceBuffer;

/**
 * The paged cache in device memory, as halves (llama.cpp's default F16 cache, as on the CPU): per
 * layer one buffer of keys and one of values, {@code blocks * blockSize} slots of {@code kvDim}.
 */
final class GpuKvStorage implements KvStorage {

    private final GpuBackend owner;
    private final int layers;
    private final int blocks;
    private final int blockSize;
    private final int kvDim;
    final DeviceBuffer[] keys;
    final DeviceBuffer[] values;
    private boolean closed;

    GpuKvStorage(
            GpuBackend owner,
            int layers,
            int blocks,
            int blockSize,
            int kvDim,
            DeviceBuffer[] keys,
            DeviceBuffer[] values) {
        this.owner = owner;
        this.layers = layers;
        this.blocks = blocks;
        this.blockSize = blockSize;
        this.kvDim = kvDim;
        this.keys = keys;
        this.values = values;
    }

    GpuBackend owner() {
        return owner;
    }

    @Override
    public int layers() {
        return layers;
    }

    @Override
    public int blocks() {
        return blocks;
    }

    @Override
    public int blockSize() {
        return blockSize;
    }

    @Override
    public int kvDim() {
        return kvDim;
    }

    /** Token slots per layer. */
    long slots() {
        return (long) blocks * blockSize;
    }

    @Override
    public long byteSize() {
        return 2L * layers * slots() * kvDim * Short.BYTES;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            DeviceBuffer[] all = new DeviceBuffer[2 * layers];
            System.arraycopy(keys, 0, all, 0, layers);
            System.arraycopy(values, 0, all, layers, layers);
            owner.release(all);
        }
    }

    @Override
    public String toString() {
        return "gpu kv " + layers + " layers x " + blocks + " blocks of " + blockSize + " x " + kvDim;
    }
}
