package com.llmserve.gpu.spi;

import java.lang.foreign.MemorySegment;

/** C string helpers the bindings share. */
public final class CStrings {

    private CStrings() {}

    /** Reads a NUL-terminated string a library returned as {@code const char*}; null stays null. */
    public static String read(MemorySegment cString) {
        if (cString == null || cString.equals(MemorySegment.NULL)) return null;
        return cString.reinterpret(Long.MAX_VALUE).getString(0);
    }
}
