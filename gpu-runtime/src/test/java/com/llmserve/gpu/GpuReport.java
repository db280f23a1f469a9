package com.llmserve.gpu;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/** Figures GPU tests print for the report; also appended to {@code -Dllmserve.gpu.report=FILE}. */
final class GpuReport {

    private GpuReport() {}

    static synchronized void line(String format, Object... args) {
        String line = "[gpu-report] " + String.format(Locale.ROOT, format, args);
        System.out.println(line);
        String file = System.getProperty("llmserve.gpu.report");
        if (file != null) {
            try {
                Files.writeString(Path.of(file), line + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
