package com.llmserve.engine.backend.cpu;

import java.util.Locale;

/**
 * Which kernels a {@link CpuBackend} multiplies quantized weights with
 * ({@code llmserve.engine.cpu-kernels}).
 */
public enum CpuKernels {
    /** The native kernels where the library runs here (x86-64 Linux with AVX2), else the Java ones. */
    AUTO,
    /** The Vector API kernels only: the portable path. */
    JAVA,
    /** The native kernels; a backend refuses to open where they cannot run. */
    NATIVE;

    /** The value of {@code llmserve.engine.cpu-kernels} (a system property for the command-line tools), or AUTO. */
    public static CpuKernels fromSystemProperty() {
        String v = System.getProperty("llmserve.engine.cpu-kernels", "auto");
        return parse(v);
    }

    public static CpuKernels parse(String v) {
        return switch (v.trim().toLowerCase(Locale.ROOT)) {
            case "auto", "" -> AUTO;
            case "java" -> JAVA;
            case "native" -> NATIVE;
            default ->
                throw new IllegalArgumentException(
                        "llmserve.engine.cpu-kernels: auto, java or native, not '" + v + "'");
        };
    }
}
