package com.llmserve.kernels;

import java.util.Objects;

/**
 * One parameter of a kernel entry point as its source declares it: its name, for messages, and the
 * kind of value a launch passes for it. The build derives both from the {@code LS_KERNEL}
 * declaration (see {@link Kernel#params()}).
 */
public record KernelParam(String name, Kind kind) {

    /** What a launch passes for a parameter; the build maps every declared C type to one of these or fails. */
    public enum Kind {
        /** Any {@code T*}: a device address. */
        POINTER(8),
        /** {@code int}, {@code unsigned}, {@code int32_t}, {@code uint32_t}. */
        I32(4),
        /** {@code long}, {@code long long}, {@code int64_t}, {@code uint64_t}, {@code size_t}. */
        I64(8),
        /** {@code float}. */
        F32(4);

        private final int bytes;

        Kind(int bytes) {
            this.bytes = bytes;
        }

        /** The value's size in bytes, as the launch hands it to the kernel. */
        public int bytes() {
            return bytes;
        }
    }

    public KernelParam {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
    }
}
