package com.llmserve.engine.backend.cpu;

import static com.llmserve.engine.backend.cpu.Simd.u8;

import java.lang.foreign.MemorySegment;

/**
 * The 6-bit scale/min pairs of Q4_K and Q5_K: eight pairs packed into 12 bytes (ggml's
 * {@code get_scale_min_k4}).
 */
final class KScales {

    private KScales() {}

    /** Scale of group {@code j} (0..7) from the 12 bytes at {@code s}. */
    static int scale(MemorySegment data, long s, int j) {
        return j < 4 ? u8(data, s + j) & 63 : (u8(data, s + j + 4) & 0x0F) | ((u8(data, s + j - 4) >>> 6) << 4);
    }

    /** Min of group {@code j} (0..7). */
    static int min(MemorySegment data, long s, int j) {
        return j < 4 ? u8(data, s + j + 4) & 63 : (u8(data, s + j + 4) >>> 4) | ((u8(data, s + j) >>> 6) << 4);
    }
}
