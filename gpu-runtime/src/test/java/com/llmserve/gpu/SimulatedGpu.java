package com.llmserve.gpu;

import com.llmserve.gpu.spi.Backend;
import com.llmserve.gpu.spi.BlasDriver;
import com.llmserve.gpu.spi.DeviceDriver;
import com.llmserve.gpu.spi.DnnDriver;
import com.llmserve.gpu.spi.Driver;
import com.llmserve.gpu.spi.Gemm;
import com.llmserve.gpu.spi.RuntimeCalls;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * A GPU for machines without one: a {@link DevicePool} of one (or more) NVIDIA sm_90 device that
 * runs no kernel but does everything around them for real, through the real {@link DeviceDriver}.
 * Device memory is host memory, so copies, fills and reads move real bytes (a kernel's outputs keep
 * whatever was there); frees of unknown pointers, copies outside an allocation, launch shapes a
 * device would refuse and allocations past its memory fail as a driver would. Code objects are the
 * real sm_90 cubins of the kernels jar: a kernel missing from them is missing here too. What it saw
 * is kept for assertions: launches (and whether a graph captured them), graph replays, GEMMs and the
 * memory still allocated.
 *
 * <pre>{@code
 * try (SimulatedGpu gpu = SimulatedGpu.open(8L << 30)) {
 *     Device device = gpu.pool().device(0);
 *     ... run work on it ...
 *     assertThat(gpu.launches()).extracting(SimulatedGpu.Launch::symbol).contains("ls_rms_norm_v4");
 * }
 * }</pre>
 */
public final class SimulatedGpu implements AutoCloseable {

    /** One kernel launch; {@code captured} when a graph capture took it instead of the stream. */
    public record Launch(String symbol, LaunchConfig config, boolean captured) {}

    /** Peer access enabled: kernels on {@code device} may access {@code peer}'s memory. */
    public record PeerAccess(int device, int peer) {}

    private static final int MAX_THREADS = 1024;
    private static final int SHARED_BYTES = 227 * 1024;

    private final long memoryBytes;
    private final int deviceCount;
    private final DeviceArch arch;
    private final Object lock = new Object();
    private final TreeMap<Long, Allocation> device = new TreeMap<>();
    private final Map<Long, Allocation> host = new HashMap<>();
    private final Map<Long, byte[]> modules = new HashMap<>();
    private final Map<Long, String> functions = new HashMap<>();
    private final Set<Long> capturing = new HashSet<>();
    private final List<Launch> launches = new ArrayList<>();
    private final List<Gemm> gemms = new ArrayList<>();
    private final Set<PeerAccess> peerAccess = new HashSet<>();
    private long nextHandle = 0x1000;
    private long liveBytes;
    private int graphsCaptured;
    private int graphLaunches;
    private final DevicePool pool;

    private record Allocation(Arena arena, MemorySegment segment) {}

    private SimulatedGpu(long memoryBytes, int deviceCount, DeviceArch arch) {
        this.memoryBytes = memoryBytes;
        this.deviceCount = deviceCount;
        this.arch = arch;
        this.pool = DevicePool.open(List.of(new SimulatedBackend()), DeviceOptions.defaults());
    }

    /** A pool of one simulated device with {@code memoryBytes} of memory. */
    public static SimulatedGpu open(long memoryBytes) {
        return new SimulatedGpu(memoryBytes, 1, DeviceArch.SM_90);
    }

    /**
     * A pool of one simulated device of {@code arch} (its vendor's: an AMD one runs HIP's code
     * objects, waves of 64 on gfx9 and of 32 on gfx10 on).
     */
    public static SimulatedGpu open(long memoryBytes, DeviceArch arch) {
        return new SimulatedGpu(memoryBytes, 1, arch);
    }

    /**
     * A pool of {@code devices} simulated devices (ordinals 0, 1, ...) sharing {@code memoryBytes}
     * (each reports all of it): one host address space, as one process's devices share a virtual one.
     */
    public static SimulatedGpu open(long memoryBytes, int devices) {
        return new SimulatedGpu(memoryBytes, devices, DeviceArch.SM_90);
    }

    public DevicePool pool() {
        return pool;
    }

    public List<Launch> launches() {
        synchronized (lock) {
            return List.copyOf(launches);
        }
    }

    public void clearLaunches() {
        synchronized (lock) {
            launches.clear();
        }
    }

    public List<Gemm> gemms() {
        synchronized (lock) {
            return List.copyOf(gemms);
        }
    }

    /** Every direction of peer access enabled so far (any two distinct devices of one simulation can). */
    public Set<PeerAccess> peerAccess() {
        synchronized (lock) {
            return Set.copyOf(peerAccess);
        }
    }

    /** Graphs captured (each from one stream capture). */
    public int graphsCaptured() {
        synchronized (lock) {
            return graphsCaptured;
        }
    }

    /** Launches of instantiated graphs. */
    public int graphLaunches() {
        synchronized (lock) {
            return graphLaunches;
        }
    }

    /** Device memory allocated and not yet freed, in bytes. */
    public long liveBytes() {
        synchronized (lock) {
            return liveBytes;
        }
    }

    public int liveAllocations() {
        synchronized (lock) {
            return device.size();
        }
    }

    /** Closes the pool (which frees what it owns), then whatever a leaking caller left. */
    @Override
    public void close() {
        pool.close();
        synchronized (lock) {
            device.values().forEach(a -> a.arena().close());
            host.values().forEach(a -> a.arena().close());
            device.clear();
            host.clear();
        }
    }

    private long handle() {
        synchronized (lock) {
            nextHandle += 0x10;
            return nextHandle;
        }
    }

    private static void writeAddress(MemorySegment out, long address) {
        out.set(ValueLayout.ADDRESS, 0, MemorySegment.ofAddress(address));
    }

    /** The allocation holding {@code [address, address + bytes)}, as a segment from {@code address}. */
    private MemorySegment deviceRange(long address, long bytes) {
        synchronized (lock) {
            Map.Entry<Long, Allocation> e = device.floorEntry(address);
            if (e == null
                    || address + bytes > e.getKey() + e.getValue().segment().byteSize()) {
                throw new IllegalStateException("device access of " + bytes + " bytes at 0x" + Long.toHexString(address)
                        + " outside any allocation");
            }
            return e.getValue().segment().asSlice(address - e.getKey(), bytes);
        }
    }

    private final class SimulatedBackend implements Backend {
        @Override
        public String name() {
            return "simulated";
        }

        @Override
        public Vendor vendor() {
            return arch.vendor();
        }

        @Override
        public Probe probe() {
            return new Probe.Available(new Driver() {
                @Override
                public Vendor vendor() {
                    return arch.vendor();
                }

                @Override
                public String version() {
                    return "simulated";
                }

                @Override
                public int deviceCount() {
                    return deviceCount;
                }

                @Override
                public DeviceDriver openDevice(int ordinal) {
                    return new DeviceDriver(new Calls(ordinal));
                }

                @Override
                public void close() {}
            });
        }
    }

    /** The device's runtime: the simulation behind the real driver code. */
    private final class Calls implements RuntimeCalls {

        private final int ordinal;

        Calls(int ordinal) {
            this.ordinal = ordinal;
        }

        @Override
        public void bind() {}

        @Override
        public DeviceInfo readInfo() {
            return new DeviceInfo(
                    ordinal,
                    "Simulated GPU",
                    arch,
                    memoryBytes,
                    arch.vendor() == Vendor.AMD && arch.major() == 9 ? 64 : 32,
                    132,
                    MAX_THREADS,
                    SHARED_BYTES,
                    "0000:00:00.0");
        }

        @Override
        public Optional<DeviceTelemetry> telemetry() {
            return Optional.empty();
        }

        @Override
        public void release() {}

        private SimulatedGpu gpu() {
            return SimulatedGpu.this;
        }

        /** Any two distinct devices of one simulation: they share one address space. */
        private boolean peers(RuntimeCalls peer) {
            return peer instanceof Calls p && p.gpu() == SimulatedGpu.this && p.ordinal != ordinal;
        }

        @Override
        public void canAccessPeer(MemorySegment canAccess, RuntimeCalls peer) {
            canAccess.set(ValueLayout.JAVA_INT, 0, peers(peer) ? 1 : 0);
        }

        @Override
        public boolean enablePeerAccess(RuntimeCalls peer) {
            if (!peers(peer)) {
                throw new GpuCallException(
                        "simulated", "enablePeerAccess", 217, "PEER_ACCESS_UNSUPPORTED", "not a peer: " + peer, false);
            }
            synchronized (lock) {
                return peerAccess.add(new PeerAccess(ordinal, ((Calls) peer).ordinal));
            }
        }

        @Override
        public void memoryInfo(MemorySegment free, MemorySegment total) {
            synchronized (lock) {
                free.set(ValueLayout.JAVA_LONG, 0, memoryBytes - liveBytes);
                total.set(ValueLayout.JAVA_LONG, 0, memoryBytes);
            }
        }

        @Override
        public void synchronize() {}

        @Override
        public void malloc(MemorySegment pointer, long bytes) {
            synchronized (lock) {
                if (liveBytes + bytes > memoryBytes) {
                    throw new GpuCallException(
                            "simulated", "malloc", 2, "OUT_OF_MEMORY", "out of memory: " + bytes + " more bytes", true);
                }
                Arena arena = Arena.ofShared();
                MemorySegment segment = arena.allocate(Math.max(bytes, 1), 256);
                device.put(segment.address(), new Allocation(arena, segment));
                liveBytes += segment.byteSize();
                writeAddress(pointer, segment.address());
            }
        }

        @Override
        public void free(long pointer) {
            synchronized (lock) {
                Allocation a = device.remove(pointer);
                if (a == null) {
                    throw new IllegalStateException(
                            "free of 0x" + Long.toHexString(pointer) + ", which is not allocated");
                }
                liveBytes -= a.segment().byteSize();
                a.arena().close();
            }
        }

        @Override
        public void hostAlloc(MemorySegment pointer, long bytes) {
            synchronized (lock) {
                Arena arena = Arena.ofShared();
                MemorySegment segment = arena.allocate(Math.max(bytes, 1), 256);
                host.put(segment.address(), new Allocation(arena, segment));
                writeAddress(pointer, segment.address());
            }
        }

        @Override
        public void hostFree(MemorySegment memory) {
            synchronized (lock) {
                Allocation a = host.remove(memory.address());
                if (a == null) {
                    throw new IllegalStateException("host free of memory this device did not allocate");
                }
                a.arena().close();
            }
        }

        @Override
        public void copyHostToDevice(long dst, MemorySegment src, long bytes, MemorySegment stream) {
            MemorySegment.copy(src, 0, deviceRange(dst, bytes), 0, bytes);
        }

        @Override
        public void copyDeviceToHost(MemorySegment dst, long src, long bytes, MemorySegment stream) {
            MemorySegment.copy(deviceRange(src, bytes), 0, dst.reinterpret(bytes), 0, bytes);
        }

        @Override
        public void copyDeviceToDevice(long dst, long src, long bytes, MemorySegment stream) {
            MemorySegment.copy(deviceRange(src, bytes), 0, deviceRange(dst, bytes), 0, bytes);
        }

        @Override
        public void fill(long dst, byte value, long bytes, MemorySegment stream) {
            deviceRange(dst, bytes).fill(value);
        }

        @Override
        public void createStream(MemorySegment stream) {
            writeAddress(stream, handle());
        }

        @Override
        public void destroyStream(MemorySegment stream) {}

        @Override
        public void synchronizeStream(MemorySegment stream) {}

        @Override
        public void createEvent(MemorySegment event, boolean timing) {
            writeAddress(event, handle());
        }

        @Override
        public void destroyEvent(MemorySegment event) {}

        @Override
        public void recordEvent(MemorySegment event, MemorySegment stream) {}

        @Override
        public void synchronizeEvent(MemorySegment event) {}

        @Override
        public boolean eventDone(MemorySegment event) {
            return true;
        }

        @Override
        public void streamWaitEvent(MemorySegment stream, MemorySegment event) {}

        @Override
        public void elapsedMillis(MemorySegment millis, MemorySegment start, MemorySegment end) {
            millis.set(ValueLayout.JAVA_FLOAT, 0, 0f);
        }

        @Override
        public void loadModule(MemorySegment module, MemorySegment image) {
            long h = handle();
            byte[] bytes = image.toArray(ValueLayout.JAVA_BYTE);
            synchronized (lock) {
                modules.put(h, bytes);
            }
            writeAddress(module, h);
        }

        @Override
        public void unloadModule(MemorySegment module) {
            synchronized (lock) {
                modules.remove(module.address());
            }
        }

        @Override
        public boolean function(MemorySegment function, MemorySegment module, MemorySegment symbol) {
            String name = symbol.reinterpret(Long.MAX_VALUE).getString(0);
            byte[] image;
            synchronized (lock) {
                image = modules.get(module.address());
            }
            if (image == null || !contains(image, (name + "\0").getBytes(StandardCharsets.ISO_8859_1))) {
                return false;
            }
            long h = handle();
            synchronized (lock) {
                functions.put(h, name);
            }
            writeAddress(function, h);
            return true;
        }

        @Override
        public void launch(MemorySegment function, LaunchConfig c, MemorySegment stream, MemorySegment arguments) {
            long threads = (long) c.blockX() * c.blockY() * c.blockZ();
            if (c.gridX() < 1
                    || c.gridY() < 1
                    || c.gridZ() < 1
                    || threads < 1
                    || threads > MAX_THREADS
                    || c.sharedBytes() > SHARED_BYTES) {
                throw new GpuCallException("simulated", "launch", 1, "INVALID_VALUE", "a device refuses " + c, false);
            }
            synchronized (lock) {
                String symbol = functions.get(function.address());
                if (symbol == null) {
                    throw new IllegalStateException("launch of an unknown function");
                }
                launches.add(new Launch(symbol, c, capturing.contains(stream.address())));
            }
        }

        @Override
        public void beginCapture(MemorySegment stream) {
            synchronized (lock) {
                capturing.add(stream.address());
            }
        }

        @Override
        public void endCapture(MemorySegment stream, MemorySegment graph) {
            synchronized (lock) {
                if (!capturing.remove(stream.address())) {
                    throw new IllegalStateException("end of a capture that did not begin");
                }
                graphsCaptured++;
            }
            writeAddress(graph, handle());
        }

        @Override
        public void instantiateGraph(MemorySegment graphExec, MemorySegment graph) {
            writeAddress(graphExec, handle());
        }

        @Override
        public void launchGraph(MemorySegment graphExec, MemorySegment stream) {
            synchronized (lock) {
                graphLaunches++;
            }
        }

        @Override
        public void destroyGraph(MemorySegment graph) {}

        @Override
        public void destroyGraphExec(MemorySegment graphExec) {}

        @Override
        public BlasDriver createBlas(MemorySegment stream) {
            return new BlasDriver() {
                @Override
                public void gemm(Gemm gemm) {
                    synchronized (lock) {
                        gemms.add(gemm);
                    }
                }

                @Override
                public boolean wantsWorkspace() {
                    return true;
                }

                @Override
                public void setWorkspace(long pointer, long bytes) {
                    deviceRange(pointer, bytes);
                }

                @Override
                public void close() {}
            };
        }

        @Override
        public Optional<DnnDriver> createDnn(MemorySegment stream) {
            return Optional.empty();
        }
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
