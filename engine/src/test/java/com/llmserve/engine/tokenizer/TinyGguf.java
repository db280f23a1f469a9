package com.llmserve.engine.tokenizer;

import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.gguf.GgufMetadata;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Writes a metadata-only GGUF v3 file for tests that need a small made-up vocabulary. (The GGUF
 * package's own test builder is package-private there, so this package has its own.)
 */
final class TinyGguf {

    private final Map<String, Object> values = new LinkedHashMap<>();

    TinyGguf put(String key, Object value) {
        values.put(key, value);
        return this;
    }

    /** Writes the file under {@code dir}, opens it and returns its metadata (read eagerly). */
    GgufMetadata metadata(Path dir) {
        Path file = dir.resolve("tiny-" + System.nanoTime() + ".gguf");
        try {
            Files.write(file, bytes());
            try (GgufFile gguf = GgufFile.open(file)) {
                return gguf.metadata();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private byte[] bytes() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes("GGUF".getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(le(4).putInt(3).array());
        out.writeBytes(le(8).putLong(0).array()); // tensors
        out.writeBytes(le(8).putLong(values.size()).array());
        values.forEach((key, value) -> {
            string(out, key);
            switch (value) {
                case String s -> {
                    out.writeBytes(le(4).putInt(8).array());
                    string(out, s);
                }
                case Boolean b -> {
                    out.writeBytes(le(4).putInt(7).array());
                    out.write(b ? 1 : 0);
                }
                case Integer i -> {
                    out.writeBytes(le(4).putInt(5).array());
                    out.writeBytes(le(4).putInt(i).array());
                }
                case String[] a -> {
                    array(out, 8, a.length);
                    for (String s : a) {
                        string(out, s);
                    }
                }
                case int[] a -> {
                    array(out, 5, a.length);
                    for (int i : a) {
                        out.writeBytes(le(4).putInt(i).array());
                    }
                }
                case float[] a -> {
                    array(out, 6, a.length);
                    for (float f : a) {
                        out.writeBytes(le(4).putFloat(f).array());
                    }
                }
                default -> throw new IllegalArgumentException("unsupported value " + value);
            }
        });
        while (out.size() % 32 != 0) {
            out.write(0);
        }
        return out.toByteArray();
    }

    private static void array(ByteArrayOutputStream out, int elementType, int length) {
        out.writeBytes(le(4).putInt(9).array());
        out.writeBytes(le(4).putInt(elementType).array());
        out.writeBytes(le(8).putLong(length).array());
    }

    private static void string(ByteArrayOutputStream out, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeBytes(le(8).putLong(b.length).array());
        out.writeBytes(b);
    }

    private static ByteBuffer le(int size) {
        return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    }
}
