package com.llmserve.engine.gguf;

import java.util.Optional;

/** Metadata value types of GGUF ({@code enum gguf_type}), with the byte size of the fixed-size ones. */
public enum GgufValueType {
    UINT8(0, 1),
    INT8(1, 1),
    UINT16(2, 2),
    INT16(3, 2),
    UINT32(4, 4),
    INT32(5, 4),
    FLOAT32(6, 4),
    BOOL(7, 1),
    /** uint64 byte length, then UTF-8 bytes. */
    STRING(8, 8),
    /** uint32 element type, uint64 count, then the elements. */
    ARRAY(9, 12),
    UINT64(10, 8),
    INT64(11, 8),
    FLOAT64(12, 8);

    private static final GgufValueType[] BY_ID = values();

    private final int id;
    private final int minSize;

    GgufValueType(int id, int minSize) {
        this.id = id;
        this.minSize = minSize;
    }

    public int id() {
        return id;
    }

    /** The smallest number of bytes one value of this type takes in the file. */
    int minSize() {
        return minSize;
    }

    boolean isInteger() {
        return switch (this) {
            case UINT8, INT8, UINT16, INT16, UINT32, INT32, UINT64, INT64 -> true;
            default -> false;
        };
    }

    static Optional<GgufValueType> fromId(int id) {
        return id >= 0 && id < BY_ID.length ? Optional.of(BY_ID[id]) : Optional.empty();
    }
}
