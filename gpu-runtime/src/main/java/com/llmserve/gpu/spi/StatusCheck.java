package com.llmserve.gpu.spi;

import com.llmserve.gpu.GpuCallException;

/**
 * The one status check of a vendor library: every binding call goes through
 * {@code check(status, "symbol")}, which turns a non-zero status into a {@link GpuCallException}
 * carrying the call, the code, the vendor's name for it and the vendor's message. All the libraries
 * we bind use 0 for success.
 */
public final class StatusCheck {

    /** How a library names and describes its statuses; implementations must not throw. */
    public interface Decoder {
        String name(int code);

        String message(int code);

        boolean isOutOfMemory(int code);
    }

    private final String library;
    private final Decoder decoder;

    public StatusCheck(String library, Decoder decoder) {
        this.library = library;
        this.decoder = decoder;
    }

    public void check(int status, String call) {
        if (status != 0) throw error(status, call);
    }

    public GpuCallException error(int status, String call) {
        return new GpuCallException(
                library,
                call,
                status,
                safe(() -> decoder.name(status), "status " + status),
                safe(() -> decoder.message(status), "no message"),
                decoder.isOutOfMemory(status));
    }

    public String library() {
        return library;
    }

    /** Decoders are downcalls themselves; a failing one must not hide the error being reported. */
    private static String safe(java.util.function.Supplier<String> s, String fallback) {
        try {
            String value = s.get();
            return value == null || value.isBlank() ? fallback : value;
        } catch (RuntimeException e) {
            return fallback;
        }
    }
}
