package com.llmserve.engine.backend.cpu;

import com.llmserve.engine.backend.KvStorage;

/**
 * Key and value pages per layer as IEEE halves, like llama.cpp's default F16 cache: half the memory
 * of float32 and the same rounding as the reference. Slot-major: slot {@code s} holds
 * {@code kvDim} values at {@code s * kvDim}.
 */
final class CpuKvStorage implements KvStorage {

    final short[][] keys;
    final short[][] values;
    private final int blocks;
    private final int blockSize;
    private final int kvDim;

    CpuKvStorage(int layers, int blocks, int blockSize, int kvDim) {
        long perLayer = (long) blocks * blockSize * kvDim;
        if (perLayer > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException("a CPU KV layer of " + blocks + " blocks x " + blockSize + " x " + kvDim
                    + " values exceeds 2^31 elements; use fewer blocks");
        }
        this.blocks = blocks;
        this.blockSize = blockSize;
        this.kvDim = kvDim;
        this.keys = new short[layers][(int) perLayer];
        this.values = new short[layers][(int) perLayer];
    }

    @Override
    public int layers() {
        return keys.length;
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

    @Override
    public long byteSize() {
        return 2L * keys.length * blocks * blockSize * kvDim * Short.BYTES;
    }

    @Override
    public void close() {
        // heap memory: released with the object
    }
}
