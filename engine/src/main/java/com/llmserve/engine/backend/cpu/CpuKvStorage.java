package com.llmserve.engine.backend.cpu;

import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.KvCacheType;
import com.llmserve.engine.backend.KvStorage;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Key and value pages per layer, off the Java heap, so that a large cache neither needs a large heap
 * nor outlives {@link #close()}. Slot-major, as llama.cpp's cache:
 *
 * <ul>
 *   <li>F16 (the default): IEEE halves, half the memory of float32 and the same rounding as the
 *       reference; slot {@code s} holds {@code kvDim} halves at byte {@code 2 * s * kvDim}
 *       ({@link #keys}, {@link #values}; the scales are null).
 *   <li>Q8_0: ggml's blocks of 32 values ({@link Q8Kv}), their bytes and their f16 scales kept
 *       apart so that both stay aligned: slot {@code s} holds {@code kvDim} signed bytes at byte
 *       {@code s * kvDim} of {@link #keys} and {@code kvDim / 32} halves at half
 *       {@code s * kvDim / 32} of {@link #keyScales} (the same for values): 34 bytes per 32 values.
 * </ul>
 */
final class CpuKvStorage extends KvStorage {

    final MemorySegment[] keys;
    final MemorySegment[] values;
    /** Q8_0: per layer, the f16 scale of each block of 32 keys or values; null for F16. */
    final MemorySegment[] keyScales;

    final MemorySegment[] valueScales;
    private final Arena arena;

    CpuKvStorage(Backend owner, int[] groupOfLayer, int[] blocksOfGroup, int blockSize, int kvDim) {
        this(owner, groupOfLayer, blocksOfGroup, blockSize, kvDim, KvCacheType.F16);
    }

    CpuKvStorage(Backend owner, int[] groupOfLayer, int[] blocksOfGroup, int blockSize, int kvDim, KvCacheType type) {
        super(owner, groupOfLayer, blocksOfGroup, blockSize, kvDim, type);
        this.arena = Arena.ofShared();
        int layers = groupOfLayer.length;
        boolean q8 = type == KvCacheType.Q8_0;
        this.keys = new MemorySegment[layers];
        this.values = new MemorySegment[layers];
        this.keyScales = q8 ? new MemorySegment[layers] : null;
        this.valueScales = q8 ? new MemorySegment[layers] : null;
        try {
            for (int l = 0; l < layers; l++) {
                long slots = (long) blocksOfLayer(l) * blockSize;
                if (q8) {
                    keys[l] = arena.allocate(slots * kvDim, 64);
                    values[l] = arena.allocate(slots * kvDim, 64);
                    long scaleBytes = slots * (kvDim / KvCacheType.Q8_0_BLOCK) * Short.BYTES;
                    keyScales[l] = arena.allocate(scaleBytes, 64);
                    valueScales[l] = arena.allocate(scaleBytes, 64);
                } else {
                    keys[l] = arena.allocate(2 * slots * kvDim, 64);
                    values[l] = arena.allocate(2 * slots * kvDim, 64);
                }
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
