package com.llmserve.gpu.hip;

import com.llmserve.gpu.BlasType;
import com.llmserve.gpu.CodeObjectTarget;
import com.llmserve.gpu.Device;
import com.llmserve.gpu.DeviceBuffer;
import com.llmserve.gpu.DeviceInfo;
import com.llmserve.gpu.DevicePool;
import com.llmserve.gpu.DeviceTelemetry;
import com.llmserve.gpu.Dnn;
import com.llmserve.gpu.Event;
import com.llmserve.gpu.GpuCallException;
import com.llmserve.gpu.Graph;
import com.llmserve.gpu.GraphCapture;
import com.llmserve.gpu.KernelArgs;
import com.llmserve.gpu.LaunchConfig;
import com.llmserve.gpu.RuntimeChoice;
import com.llmserve.gpu.Stream;
import com.llmserve.gpu.StreamLease;
import com.llmserve.gpu.Transpose;
import com.llmserve.gpu.Vendor;
import com.llmserve.gpu.spi.DeviceDriver;
import com.llmserve.kernels.Kernel;
import com.llmserve.kernels.KernelModuleId;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Run by {@link HipOnCudaLibraryTests} in a JVM of its own, with hip-on-cuda on the library path
 * over fake_cuda.c's fake libcuda/cuBLAS/NVML: the HIP backend's host code end to end without a GPU
 * (discovery with the runtime and driver versions, properties, rocm-smi telemetry, peer access
 * refused for the one device, the module cache choosing HSACO that load as cubins, copies,
 * launches, a vendor error with its HIP name, rocBLAS, MIOpen, a failure of each of rocBLAS, MIOpen
 * and rocm-smi in that library's words, graph capture, events): every bound symbol is called. The
 * fake runs no kernel and computes no product: only data copies are checked for their bytes.
 */
public final class HipOverFakeCuda {

    /** A rocm-smi index no host has: rocm-smi answers RSMI_STATUS_INVALID_ARGS. */
    static final int NO_SUCH_DEVICE = 1 << 20;

    private HipOverFakeCuda() {}

    public static void main(String[] args) throws InterruptedException {
        try (DevicePool pool = DevicePool.open(RuntimeChoice.HIP);
                Arena arena = Arena.ofConfined()) {
            check(pool.devices().size() == 1, "one HIP device: " + pool.statuses());
            // the health's backend line: runtime and driver versions, as the CUDA backend's
            String detail = pool.statuses().stream()
                    .filter(st -> st.backend().equals("hip") && st.available())
                    .findFirst()
                    .orElseThrow()
                    .detail();
            check(
                    detail.startsWith("HIP runtime 6.4.")
                            && detail.contains(", HIP driver 6.4.")
                            && detail.contains(", rocm-smi,"),
                    "backend status " + detail);
            Device device = pool.device(0);
            DeviceInfo info = device.info();
            check(
                    info.vendor() == Vendor.AMD
                            && info.arch().name().equals("gfx1100")
                            && info.name().equals("Fake H100 [hip-on-cuda]")
                            && info.waveSize() == 32
                            && info.pciBusId().equals("0000:19:00.0"),
                    "device info " + info);
            for (Kernel k : Kernel.values()) device.function(k);
            for (KernelModuleId id : KernelModuleId.values()) {
                CodeObjectTarget t = device.modules().module(id).target();
                check(t.kind() == CodeObjectTarget.Kind.HSACO && t.name().equals("gfx1100"), id + " from " + t);
            }
            DeviceTelemetry telemetry = device.telemetry().orElseThrow(() -> new AssertionError("no telemetry"));
            check(
                    telemetry.memoryUsed() == 3L << 30
                            && telemetry.utilizationPercent() == 42
                            && telemetry.temperatureCelsius() == 55.0
                            && telemetry.powerWatts() == 312.0,
                    "telemetry " + telemetry);
            // peer access: the fake's one device is not its own peer. Device refuses before asking the
            // driver; HIP's own calls answer so too, through the translation (ordinals to CUdevices,
            // the peer's primary context) and the fake's cuDeviceCanAccessPeer
            check(!device.canAccessPeer(device), "a device is not its own peer");
            try {
                device.enablePeerAccess(device);
                throw new AssertionError("peer access of a device to itself was enabled");
            } catch (IllegalArgumentException e) {
                check(e.getMessage().contains("not its own peer"), "refusal " + e.getMessage());
            }
            try (RocmSmi smi = RocmSmi.open();
                    DeviceDriver same = new DeviceDriver(new HipCalls(0, smi))) {
                check(!same.canAccessPeer(same), "hipDeviceCanAccessPeer(0, 0) answers 0");
                try {
                    same.enablePeerAccess(same);
                    throw new AssertionError("hipDeviceEnablePeerAccess of a device to itself succeeded");
                } catch (GpuCallException e) {
                    check(
                            e.call().equals("hipDeviceEnablePeerAccess")
                                    && e.codeName().equals("hipErrorInvalidDevice"),
                            "HIP's refusal " + e.getMessage());
                }
            }
            try (StreamLease lease = device.streams().lease()) {
                Stream s = lease.stream();
                int n = 256;
                MemorySegment host = arena.allocate(ValueLayout.JAVA_FLOAT, n);
                for (int i = 0; i < n; i++) host.setAtIndex(ValueLayout.JAVA_FLOAT, i, i * 0.5f);
                try (DeviceBuffer a = s.allocate(n * 4L);
                        DeviceBuffer b = s.allocate(n * 4L);
                        Event start = device.createEvent();
                        Event end = device.createEvent()) {
                    s.record(start);
                    s.copyToDevice(host, a);
                    s.fill(b, (byte) 0);
                    s.copy(a, b, n * 4L);
                    MemorySegment back = arena.allocate(ValueLayout.JAVA_FLOAT, n);
                    s.copyToHost(b, back);
                    s.record(end);
                    s.synchronize();
                    check(back.mismatch(host) == -1, "the bytes came back through H2D, D2D and D2H");
                    end.synchronize();
                    check(end.elapsedMillisSince(start) == 1.5f, "event timing");
                    check(!end.isDone(), "the fake's events never complete (hipEventQuery -> hipErrorNotReady)");
                    s.waitFor(start);
                    try (var pinned = device.allocatePinned(4096)) {
                        check(pinned != null, "pinned host memory");
                    }

                    var add = device.function(Kernel.VECTOR_ADD_F32);
                    s.launch(
                            add,
                            LaunchConfig.covering(n, 128),
                            KernelArgs.of().pointer(a).pointer(a).pointer(b).i32(n));
                    try {
                        s.launch(
                                add,
                                LaunchConfig.of(1, 2048),
                                KernelArgs.of().pointer(a).pointer(a).pointer(b).i32(n));
                        throw new AssertionError("a launch of 2048 threads per block did not fail");
                    } catch (GpuCallException e) {
                        check(
                                e.call().equals("hipModuleLaunchKernel")
                                        && e.codeName().equals("hipErrorInvalidValue"),
                                "vendor error " + e.getMessage());
                    }

                    s.blas()
                            .gemm(
                                    Transpose.NONE,
                                    Transpose.NONE,
                                    8,
                                    8,
                                    8,
                                    1f,
                                    a,
                                    BlasType.F16,
                                    8,
                                    a,
                                    BlasType.F16,
                                    8,
                                    0f,
                                    b,
                                    BlasType.F32,
                                    8);
                    s.blas()
                            .gemm(
                                    Transpose.TRANSPOSE,
                                    Transpose.NONE,
                                    8,
                                    8,
                                    8,
                                    1f,
                                    a,
                                    BlasType.F32,
                                    8,
                                    a,
                                    BlasType.F32,
                                    8,
                                    0f,
                                    b,
                                    BlasType.F32,
                                    8);
                    Dnn dnn = s.dnn().orElseThrow(() -> new AssertionError("no MIOpen"));
                    dnn.softmax(a, b, 4, 64);

                    // each ROCm library's failure carries that library's own words for its status
                    try {
                        s.blas()
                                .gemm(
                                        Transpose.NONE,
                                        Transpose.NONE,
                                        8,
                                        8,
                                        8,
                                        1f,
                                        a,
                                        BlasType.F16,
                                        8,
                                        a,
                                        BlasType.BF16,
                                        8,
                                        0f,
                                        b,
                                        BlasType.F32,
                                        8);
                        throw new AssertionError("an f16 x bf16 GEMM did not fail");
                    } catch (GpuCallException e) {
                        check(
                                e.library().equals("rocblas")
                                        && e.call().equals("rocblas_gemm_ex")
                                        && e.codeName().equals("rocblas_status_not_implemented")
                                        && e.vendorMessage().equals("rocblas_status_not_implemented"),
                                "rocBLAS error (rocblas_status_to_string) " + e.getMessage());
                    }
                    try {
                        dnn.softmax(a, b, 0, 64);
                        throw new AssertionError("a softmax of no rows did not fail");
                    } catch (GpuCallException e) {
                        check(
                                e.library().equals("miopen")
                                        && e.call().equals("miopenSet4dTensorDescriptor")
                                        && e.vendorMessage().equals("miopenStatusBadParm"),
                                "MIOpen error (miopenGetErrorString) " + e.getMessage());
                    }
                    try (RocmSmi smi = RocmSmi.open()) {
                        check(smi.available(), "a second rocm-smi session");
                        smi.read(NO_SUCH_DEVICE);
                        throw new AssertionError("rocm-smi read a device it does not have");
                    } catch (GpuCallException e) {
                        check(
                                e.library().equals("rocm-smi")
                                        && e.call().equals("rsmi_dev_memory_usage_get")
                                        && e.vendorMessage().equals("RSMI_STATUS_INVALID_ARGS: Invalid arguments"),
                                "rocm-smi error (rsmi_status_string) " + e.getMessage());
                    }

                    Graph graph;
                    try (GraphCapture capture = s.beginCapture()) {
                        s.launch(
                                add,
                                LaunchConfig.covering(n, 128),
                                KernelArgs.of().pointer(a).pointer(a).pointer(b).i32(n));
                        graph = capture.end();
                    }
                    try (graph) {
                        graph.launch(s);
                    }
                    s.synchronize();
                    check(device.memoryInfo().total() == 80L << 30, "memory info " + device.memoryInfo());
                }
            }
        }
        System.out.println("hip over fake cuda: OK");
    }

    private static void check(boolean ok, String what) {
        if (!ok) throw new AssertionError(what);
    }
}
