package com.llmserve.gpu;

/** Device memory as the driver sees it, in bytes: what the whole process (and others) left free. */
public record MemoryInfo(long free, long total) {

    public long used() {
        return total - free;
    }
}
