package com.llmserve.gpu.spi;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.ValueLayout;

/**
 * C types of the x86-64 / aarch64 Linux ABI (LP64) as the binding holders spell them, like
 * jextract's {@code C_INT}. Enums are {@code int}-sized on both vendors' compilers; the header
 * checks prove it for every enum we pass.
 */
public final class CTypes {

    private CTypes() {}

    public static final ValueLayout.OfByte C_CHAR = ValueLayout.JAVA_BYTE;
    public static final ValueLayout.OfInt C_INT = ValueLayout.JAVA_INT;
    public static final ValueLayout.OfLong C_LONG = ValueLayout.JAVA_LONG;
    public static final ValueLayout.OfLong C_SIZE_T = ValueLayout.JAVA_LONG;
    public static final ValueLayout.OfFloat C_FLOAT = ValueLayout.JAVA_FLOAT;
    public static final ValueLayout.OfDouble C_DOUBLE = ValueLayout.JAVA_DOUBLE;
    public static final AddressLayout C_POINTER = ValueLayout.ADDRESS;
}
