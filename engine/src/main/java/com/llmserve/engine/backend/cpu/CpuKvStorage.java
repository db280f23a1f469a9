package com.llmserve.engine.backend.cpu;

import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.KvStorage;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Key and value pages per layer as IEEE halves, like llama.cpp's default F16 cache: half the memory
 * of float32 and the same rounding as the reference. Off the Java heap, so that a large cache
 * neither needs a large heap nor outlives {@link #close()}. Slot-major: slot {@code s} holds
 * {@code kvDim} halves at byte {@code 2 * s * kvDim}.
 */
final class CpuKvStorage extends KvStorage {

    final MemorySegment[] keys;
    final MemorySegment[] values;
    private final Arena arena;

    CpuKvStorage(Backend owner, int[] groupOfLayer, int[] blocksOfGroup, int blockSize, int kvDim) {
        super(owner, groupOfLayer, blocksOfGroup, blockSize, kvDim);
        this.arena = Arena.ofShared();
        int layers = groupOfLayer.length;
        this.keys = new MemorySegment[layers];
        this.values = new MemorySegment[layers];
        try {
            for (int l = 0; l < layers; l++) {
                long bytes = 2L * blocksOfLayer(l) * blockSize * kvDim;
                keys[l] = arena.allocate(bytes, 64);
                values[l] = arena.allocate(bytes, 64);
            }
        } catch (OutOfMemoryError e) {
            arena.close();
            throw new IllegalArgumentException("cannot allocate a KV cache of " + byteSize() + " bytes", e);
        }
    }

    @Override
    protected void release() {
        arena.close();
    }
}
