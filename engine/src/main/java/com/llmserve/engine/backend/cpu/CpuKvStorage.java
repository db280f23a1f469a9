package com.llmserve.engine.backend.cpu;

import com.llmserve.engine.backend.KvStorage;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Key and value pages per layer as IEEE halves, like llama.cpp's default F16 cache: half the memory
 * of float32 and the same rounding as the reference. Off the Java heap, so that a large cache
 * neither needs a large heap nor outlives {@link #close()}. Slot-major: slot {@code s} holds
 * {@code kvDim} halves at byte {@code 2 * s * kvDim}.
 */
final class CpuKvStorage implements KvStorage {

    final MemorySegment[] keys;
    final MemorySegment[] values;
    private final Arena arena;
    private final int blocks;
    private final int blockSize;
    private final int kvDim;

    CpuKvStorage(int layers, int blocks, int blockSize, int kvDim) {
        this.blocks = blocks;
        this.blockSize = blockSize;
        this.kvDim = kvDim;
        this.arena = Arena.ofShared();
        long bytes = 2L * blocks * blockSize * kvDim;
        this.keys = new MemorySegment[layers];
        this.values = new MemorySegment[layers];
        try {
            for (int l = 0; l < layers; l++) {
                keys[l] = arena.allocate(bytes, 64);
                values[l] = arena.allocate(bytes, 64);
            }
        } catch (OutOfMemoryError e) {
            arena.close();
            throw new IllegalArgumentException("cannot allocate a KV cache of " + 2 * layers * bytes + " bytes", e);
        }
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
        return 4L * keys.length * blocks * blockSize * kvDim;
    }

    @Override
    public void close() {
        arena.close();
    }
}
