package com.llmserve.engine.backend;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * How a {@link KvStorage} holds its keys and values, as llama.cpp's {@code --cache-type-k/-v}.
 *
 * <ul>
 *   <li>{@link #F16}: IEEE halves, llama.cpp's default; 2 bytes a value.
 *   <li>{@link #Q8_0}: ggml's Q8_0 blocks of 32 values of one head, an f16 scale
 *       {@code d = amax / 127} and 32 signed bytes {@code round(x / d)}, quantized when written and
 *       dequantized ({@code q * d}) when attention reads them; 34 bytes per 32 values (0.53x F16).
 *       A head's size must be a multiple of 32.
 * </ul>
 */
public enum KvCacheType {
    F16("f16"),
    Q8_0("q8_0");

    /** Values per Q8_0 block. */
    public static final int Q8_0_BLOCK = 32;
    /** Bytes per Q8_0 block: an f16 scale and 32 bytes. */
    public static final int Q8_0_BLOCK_BYTES = Short.BYTES + Q8_0_BLOCK;

    private final String id;

    KvCacheType(String id) {
        this.id = id;
    }

    /** The name the service and llama.cpp use: {@code f16}, {@code q8_0}. */
    public String id() {
        return id;
    }

    /** Bytes one token's keys (or values) take: {@code kvDim} values. */
    public long bytesPerRow(int kvDim) {
        return switch (this) {
            case F16 -> (long) Short.BYTES * kvDim;
            case Q8_0 -> (long) Math.ceilDiv(kvDim, Q8_0_BLOCK) * Q8_0_BLOCK_BYTES;
        };
    }

    /** Bytes one token slot takes, keys and values: {@code 2 * bytesPerRow(kvDim)}. */
    public long bytesPerSlot(int kvDim) {
        return 2 * bytesPerRow(kvDim);
    }

    /**
     * Whether heads of {@code headDim} values can be stored this way (Q8_0 blocks do not straddle
     * heads, so a head must hold whole blocks).
     */
    public boolean fitsHead(int headDim) {
        return this != Q8_0 || headDim % Q8_0_BLOCK == 0;
    }

    /** The type named {@code name} ({@code f16} or {@code q8_0}, any case). */
    public static KvCacheType parse(String name) {
        for (KvCacheType t : values()) {
            if (t.id.equalsIgnoreCase(name == null ? "" : name.strip())) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown KV cache type '" + name + "': the types are " + names());
    }

    /** The ids of {@code types}, for messages: {@code f16, q8_0}. */
    public static String names(KvCacheType... types) {
        return Arrays.stream(types.length == 0 ? values() : types)
                .map(KvCacheType::id)
                .collect(Collectors.joining(", "));
    }

    @Override
    public String toString() {
        return id;
    }
}
