package com.llmserve.gpu.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.llmserve.gpu.DeviceInfo;
import com.llmserve.gpu.DeviceTelemetry;
import com.llmserve.gpu.GpuUnavailableException;
import com.llmserve.gpu.LaunchConfig;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The shared calls' handles are typed by the descriptors in {@link SharedCalls}, and each call site
 * in {@link NativeRuntimeCalls} states its argument types separately ({@code invokeExact}): a
 * disagreement compiles and fails only when called. Bound from a library that is not installed,
 * every handle throws {@link GpuUnavailableException} once its type matches the call, and a
 * {@code WrongMethodTypeException} where it does not; so every call is made here.
 */
class NativeRuntimeCallsTests {

    private static final MemorySegment P = MemorySegment.NULL;

    private final SharedCalls shared = SharedCalls.bind(
            NativeLibrary.load("libllmserve-absent.so.0"),
            new SharedCalls.Names(
                    "absent0",
                    "absent1",
                    "absent2",
                    "absent3",
                    "absent4",
                    "absent5",
                    "absent6",
                    "absent7",
                    "absent8",
                    "absent9",
                    "absent10",
                    "absent11",
                    "absent12",
                    "absent13",
                    "absent14",
                    "absent15",
                    "absent16",
                    "absent17",
                    "absent18",
                    "absent19",
                    "absent20",
                    "absent21",
                    "absent22"),
            new SharedCalls.Codes(600, 500, 1, 0, 2, 2));

    private final RuntimeCalls calls = new Unbound(shared);

    @Test
    void everySharedCallReachesItsHandleWithTheBoundTypes() {
        Map<String, Consumer<RuntimeCalls>> all = Map.ofEntries(
                Map.entry("memoryInfo", c -> c.memoryInfo(P, P)),
                Map.entry("synchronize", RuntimeCalls::synchronize),
                Map.entry("malloc", c -> c.malloc(P, 64)),
                Map.entry("hostFree", c -> c.hostFree(P)),
                Map.entry("createStream", c -> c.createStream(P)),
                Map.entry("destroyStream", c -> c.destroyStream(P)),
                Map.entry("synchronizeStream", c -> c.synchronizeStream(P)),
                Map.entry("createEvent", c -> c.createEvent(P, true)),
                Map.entry("destroyEvent", c -> c.destroyEvent(P)),
                Map.entry("recordEvent", c -> c.recordEvent(P, P)),
                Map.entry("synchronizeEvent", c -> c.synchronizeEvent(P)),
                Map.entry("eventDone", c -> c.eventDone(P)),
                Map.entry("streamWaitEvent", c -> c.streamWaitEvent(P, P)),
                Map.entry("elapsedMillis", c -> c.elapsedMillis(P, P, P)),
                Map.entry("loadModule", c -> c.loadModule(P, P)),
                Map.entry("unloadModule", c -> c.unloadModule(P)),
                Map.entry("function", c -> c.function(P, P, P)),
                Map.entry("launch", c -> c.launch(P, LaunchConfig.of(1, 32), P, P)),
                Map.entry("beginCapture", c -> c.beginCapture(P)),
                Map.entry("endCapture", c -> c.endCapture(P, P)),
                Map.entry("launchGraph", c -> c.launchGraph(P, P)),
                Map.entry("destroyGraph", c -> c.destroyGraph(P)),
                Map.entry("destroyGraphExec", c -> c.destroyGraphExec(P)));
        assertThat(Arrays.stream(NativeRuntimeCalls.class.getDeclaredMethods())
                        .filter(m -> Modifier.isPublic(m.getModifiers()) && Modifier.isFinal(m.getModifiers()))
                        .map(Method::getName))
                .as("every shared call is made here")
                .containsExactlyInAnyOrderElementsOf(all.keySet());
        all.forEach((name, call) -> assertThatThrownBy(() -> call.accept(calls))
                .as(name)
                .isInstanceOf(GpuUnavailableException.class)
                .hasMessageContaining("libllmserve-absent.so.0 is not loaded"));
    }

    @Test
    void aBlasHandleOfALibraryThatIsNotInstalledSaysSo() {
        NativeLibrary absent = NativeLibrary.load("libllmserve-absent-blas.so.0");
        BlasCalls blas = BlasCalls.bind(
                absent,
                new BlasCalls.Names("c", "s", "d", Optional.empty()),
                new BlasCalls.Codes(0, 1, 0, 2, 14, 68, -1),
                "g",
                absent.downcall("g", BlasCalls.GEMM));
        StatusCheck status = new StatusCheck("someblas", new StatusCheck.Decoder() {
            @Override
            public String name(int code) {
                return "status " + code;
            }

            @Override
            public String message(int code) {
                return "";
            }

            @Override
            public boolean isOutOfMemory(int code) {
                return false;
            }
        });
        assertThatThrownBy(() -> BlasHandle.create(blas, status, () -> {}, P))
                .isInstanceOf(GpuUnavailableException.class)
                .hasMessageStartingWith("someblas not loaded: libllmserve-absent-blas.so.0");
    }

    /** A vendor adapter whose own calls are never made here. */
    private static final class Unbound extends NativeRuntimeCalls {

        Unbound(SharedCalls shared) {
            super(shared, new StatusCheck("absent", null));
        }

        @Override
        public void bind() {}

        @Override
        public DeviceInfo readInfo() {
            throw new UnsupportedOperationException();
        }

        @Override
        public Optional<DeviceTelemetry> telemetry() {
            return Optional.empty();
        }

        @Override
        public void release() {}

        @Override
        public void canAccessPeer(MemorySegment canAccess, RuntimeCalls peer) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean enablePeerAccess(RuntimeCalls peer) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void free(long pointer) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void hostAlloc(MemorySegment pointer, long bytes) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void copyHostToDevice(long dst, MemorySegment src, long bytes, MemorySegment stream) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void copyDeviceToHost(MemorySegment dst, long src, long bytes, MemorySegment stream) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void copyDeviceToDevice(long dst, long src, long bytes, MemorySegment stream) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void fill(long dst, byte value, long bytes, MemorySegment stream) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void instantiateGraph(MemorySegment graphExec, MemorySegment graph) {
            throw new UnsupportedOperationException();
        }

        @Override
        public BlasDriver createBlas(MemorySegment stream) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Optional<DnnDriver> createDnn(MemorySegment stream) {
            return Optional.empty();
        }
    }
}
