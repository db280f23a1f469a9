package com.llmserve.engine.backend.cpu;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * Gives the pages of a mapped tensor back to the page cache once a packed copy replaces it, so
 * that resident memory stays near the file size instead of doubling. A hint only: where libc's
 * {@code madvise} is missing the pages simply stay mapped.
 */
final class MappedPages {

    /** Linux {@code MADV_DONTNEED}: drop the pages; a later read faults them in from the file again. */
    private static final int MADV_DONTNEED = 4;

    private static final MethodHandle MADVISE;
    private static final long PAGE;

    static {
        Linker linker = Linker.nativeLinker();
        var libc = linker.defaultLookup();
        MethodHandle madvise = null;
        long page = 4096;
        if (System.getProperty("os.name", "").startsWith("Linux")) {
            madvise = libc.find("madvise")
                    .map(a -> linker.downcallHandle(
                            a,
                            FunctionDescriptor.of(
                                    ValueLayout.JAVA_INT,
                                    ValueLayout.ADDRESS,
                                    ValueLayout.JAVA_LONG,
                                    ValueLayout.JAVA_INT)))
                    .orElse(null);
            page = libc.find("getpagesize")
                    .map(a -> {
                        try {
                            return (long) (int) linker.downcallHandle(a, FunctionDescriptor.of(ValueLayout.JAVA_INT))
                                    .invokeExact();
                        } catch (Throwable t) {
                            return 4096L;
                        }
                    })
                    .orElse(4096L);
        }
        MADVISE = madvise;
        PAGE = page;
    }

    private MappedPages() {}

    /** Releases the whole pages inside {@code segment} if it is a file mapping; returns the bytes released. */
    static long release(MemorySegment segment) {
        if (MADVISE == null || !segment.isMapped()) {
            return 0;
        }
        long start = (segment.address() + PAGE - 1) / PAGE * PAGE;
        long end = (segment.address() + segment.byteSize()) / PAGE * PAGE;
        if (end <= start) {
            return 0;
        }
        try {
            int rc = (int) MADVISE.invokeExact(MemorySegment.ofAddress(start), end - start, MADV_DONTNEED);
            return rc == 0 ? end - start : 0;
        } catch (Throwable t) {
            return 0;
        }
    }
}
