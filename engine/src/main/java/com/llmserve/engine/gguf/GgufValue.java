package com.llmserve.engine.gguf;

import java.util.Arrays;

/**
 * One metadata value as stored in the file. Scalars hold a boxed Java value: integers of every
 * width as {@link Long} (an unsigned 64-bit value above {@code Long.MAX_VALUE} keeps its bit
 * pattern), {@link Float}, {@link Double}, {@link Boolean}, {@link String}. Arrays hold a
 * {@link GgufArray}.
 */
public record GgufValue(GgufValueType type, Object value) {

    /**
     * An array value. {@code values} is a primitive Java array that matches the element type:
     * {@code byte[]} for (U)INT8, {@code short[]} for (U)INT16, {@code int[]} for (U)INT32,
     * {@code long[]} for (U)INT64, {@code float[]}, {@code double[]}, {@code boolean[]},
     * {@code String[]}, or {@code GgufArray[]} for nested arrays.
     */
    public record GgufArray(GgufValueType elementType, Object values) {

        public int length() {
            return java.lang.reflect.Array.getLength(values);
        }

        @Override
        public String toString() {
            return "array<" + elementType + ">[" + length() + "]";
        }
    }

    @Override
    public String toString() {
        return switch (value) {
            case String s -> '"' + (s.length() > 60 ? s.substring(0, 60) + "..." : s) + '"';
            case GgufArray a -> a.toString();
            case long[] l -> Arrays.toString(l);
            default -> String.valueOf(value);
        };
    }
}
