package com.llmserve.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.llmserve.kernels.Kernel;
import org.junit.jupiter.api.Test;

/** The simulated device, through the real driver code: what it does and what it refuses, as a device would. */
class SimulatedGpuTests {

    @Test
    void copiesMoveRealBytesAndEveryAllocationIsFreedWithThePool() throws Exception {
        SimulatedGpu gpu = SimulatedGpu.open(64L << 20);
        try (gpu) {
            Device device = gpu.pool().device(0);
            assertThat(device.info().arch().toString()).isEqualTo("sm_90");
            float[] values = HostData.randomFloats(1000, 3);
            try (StreamLease lease = device.streams().lease();
                    DeviceBuffer b = HostData.upload(lease.stream(), values)) {
                assertThat(HostData.download(lease.stream(), b, 1000)).containsExactly(values);
                lease.stream().fill(b, (byte) 0);
                assertThat(HostData.download(lease.stream(), b, 1000)).containsOnly(0f);
            }
            assertThat(gpu.liveAllocations())
                    .as("the caching allocator keeps freed blocks")
                    .isPositive();
        }
        assertThat(gpu.liveBytes()).isZero();
        assertThat(gpu.liveAllocations()).isZero();
    }

    @Test
    void peerAccessIsAskedOfTheDriverEnabledOnceAndRefusedForItselfAndAnotherRuntime() throws Exception {
        try (SimulatedGpu gpu = SimulatedGpu.open(64L << 20, 2);
                SimulatedGpu other = SimulatedGpu.open(16L << 20)) {
            Device a = gpu.pool().device(0);
            Device b = gpu.pool().device(1);
            Device foreign = other.pool().device(0);
            assertThat(a.canAccessPeer(b)).isTrue();
            assertThat(b.canAccessPeer(a)).isTrue();
            assertThat(a.canAccessPeer(a)).as("a device is not its own peer").isFalse();
            assertThat(a.canAccessPeer(foreign)).as("another runtime's device").isFalse();
            assertThat(foreign.canAccessPeer(a)).isFalse();

            a.enablePeerAccess(b);
            a.enablePeerAccess(b); // idempotent
            assertThat(gpu.peerAccess()).containsExactly(new SimulatedGpu.PeerAccess(0, 1));
            b.enablePeerAccess(a);
            assertThat(gpu.peerAccess())
                    .containsExactlyInAnyOrder(new SimulatedGpu.PeerAccess(0, 1), new SimulatedGpu.PeerAccess(1, 0));

            assertThatThrownBy(() -> a.enablePeerAccess(a))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("not its own peer");
            assertThatThrownBy(() -> a.enablePeerAccess(foreign))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("cannot access the memory of")
                    .hasMessageContaining("no peer-to-peer path");
            assertThatThrownBy(() -> a.canAccessPeer(null)).isInstanceOf(NullPointerException.class);
            assertThat(gpu.peerAccess()).hasSize(2);

            // one address space: a copy on a's stream from a's buffer into b's
            float[] values = HostData.randomFloats(256, 5);
            try (StreamLease la = a.streams().lease();
                    StreamLease lb = b.streams().lease();
                    DeviceBuffer src = HostData.upload(la.stream(), values);
                    DeviceBuffer dst = b.allocate(256 * 4L)) {
                la.stream().copy(src, dst, 256 * 4L);
                la.stream().synchronize();
                assertThat(HostData.download(lb.stream(), dst, 256)).containsExactly(values);
            }
        }
    }

    @Test
    void anAllocationPastTheDevicesMemoryFailsAsOutOfMemory() {
        try (SimulatedGpu gpu = SimulatedGpu.open(16L << 20)) {
            Device device = gpu.pool().device(0);
            assertThatThrownBy(() -> device.allocate(32L << 20))
                    .isInstanceOfSatisfying(GpuCallException.class, e -> assertThat(e.isOutOfMemory())
                            .isTrue());
        }
    }

    @Test
    void launchesAreRecordedAndCheckedAgainstTheKernelAndTheDeviceLimits() throws Exception {
        try (SimulatedGpu gpu = SimulatedGpu.open(64L << 20)) {
            Device device = gpu.pool().device(0);
            try (StreamLease lease = device.streams().lease();
                    DeviceBuffer x = device.allocate(4096)) {
                Stream s = lease.stream();
                TestKernels.vectorAdd(s, x, x, x, 1024);
                assertThat(gpu.launches())
                        .containsExactly(new SimulatedGpu.Launch(
                                "ls_vector_add_f32", LaunchConfig.covering(1024, TestKernels.BLOCK), false));
                KernelFunction add = device.function(Kernel.VECTOR_ADD_F32);
                assertThatThrownBy(() -> s.launch(
                                add,
                                LaunchConfig.of(1, 2048),
                                KernelArgs.of().pointer(x).pointer(x).pointer(x).i32(1)))
                        .isInstanceOf(GpuCallException.class);
                assertThatThrownBy(() -> s.launch(
                                add,
                                LaunchConfig.of(1, 256),
                                KernelArgs.of().pointer(x).i32(1)))
                        .as("the kernel's declared parameters")
                        .isInstanceOf(IllegalArgumentException.class);
            }
        }
    }

    @Test
    void aCapturedLaunchGoesIntoTheGraphAndRunsWithItsReplays() throws Exception {
        try (SimulatedGpu gpu = SimulatedGpu.open(64L << 20)) {
            Device device = gpu.pool().device(0);
            device.function(Kernel.VECTOR_ADD_F32);
            try (StreamLease lease = device.streams().lease();
                    DeviceBuffer x = device.allocate(4096)) {
                Stream s = lease.stream();
                Graph graph;
                try (GraphCapture capture = s.beginCapture()) {
                    TestKernels.vectorAdd(s, x, x, x, 1024);
                    graph = capture.end();
                }
                try (graph) {
                    graph.launch(s);
                    graph.launch(s);
                }
                assertThat(gpu.launches())
                        .extracting(SimulatedGpu.Launch::captured)
                        .containsExactly(true);
                assertThat(gpu.graphsCaptured()).isEqualTo(1);
                assertThat(gpu.graphLaunches()).isEqualTo(2);
            }
        }
    }
}
