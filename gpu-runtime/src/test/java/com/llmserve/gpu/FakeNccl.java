package com.llmserve.gpu;

import com.llmserve.gpu.spi.NativeLibrary;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * gpu-runtime's stand-in for libnccl.so.2 ({@code src/test/native/fake-nccl/fake_nccl.c}), compiled
 * by a test with the system gcc, and its test hooks: it sums host memory (a {@link SimulatedGpu}'s
 * device memory) at group end. {@code CollectivesTests} checks the bindings over it; the engine's
 * shard-group tests run a split model over it.
 */
public final class FakeNccl {

    /** The source, relative to gpu-runtime's module directory. */
    public static final Path SOURCE = Path.of("src/test/native/fake-nccl/fake_nccl.c");

    private final Path path;
    private final NativeLibrary library;
    private final MethodHandle reset;
    private final MethodHandle failNext;
    private final MethodHandle counts;

    private FakeNccl(Path path, NativeLibrary library) {
        this.path = path;
        this.library = library;
        this.reset = library.downcall("fake_nccl_reset", FunctionDescriptor.ofVoid());
        this.failNext = library.downcall("fake_nccl_fail_next", FunctionDescriptor.ofVoid(ValueLayout.JAVA_INT));
        this.counts = library.downcall("fake_nccl_counts", FunctionDescriptor.ofVoid(ValueLayout.ADDRESS));
    }

    /**
     * Compiles {@code source} into {@code library} and loads it.
     *
     * @throws IllegalStateException with gcc's output when the build fails or the library does not load
     */
    public static FakeNccl build(Path source, Path library) throws IOException, InterruptedException {
        Files.createDirectories(library.toAbsolutePath().getParent());
        Process p = new ProcessBuilder(
                        "gcc",
                        "-std=c11",
                        "-Wall",
                        "-Werror",
                        "-shared",
                        "-fPIC",
                        "-O1",
                        "-o",
                        library.toString(),
                        source.toString())
                .redirectErrorStream(true)
                .start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("gcc could not build " + source + ": " + output);
        }
        Path path = library.toAbsolutePath();
        NativeLibrary loaded = NativeLibrary.load(path.toString());
        loaded.loadFailure().ifPresent(why -> {
            throw new IllegalStateException(path + " does not load: " + why);
        });
        return new FakeNccl(path, loaded);
    }

    /** The library's absolute path (for {@code llmserve.gpu.nccl-library}). */
    public Path path() {
        return path;
    }

    public NativeLibrary library() {
        return library;
    }

    /** Forgets queued calls, the group depth and an injected failure. */
    public void reset() throws Throwable {
        reset.invokeExact();
    }

    /** The next collective fails with {@code status}. */
    public void failNext(int status) throws Throwable {
        failNext.invokeExact(status);
    }

    /** Destroyed, aborted, group ends, all-reduces run, communicators created, group depth. */
    public int[] counts() throws Throwable {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ValueLayout.JAVA_INT, 6);
            counts.invokeExact(out);
            return out.toArray(ValueLayout.JAVA_INT);
        }
    }
}
