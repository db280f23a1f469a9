package com.llmserve.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Graph capture and replay, as the decode step per batch-size bucket will use it. */
class GraphGpuTest extends GpuTestBase {

    @ParameterizedTest
    @MethodSource("com.llmserve.gpu.GpuTestBase#devices")
    void aCapturedSequenceReplaysWithTheSameEffectAsItsLaunches(Device device) throws Exception {
        int n = 4096, steps = 200;
        float factor = 1.001f;
        float[] x = HostData.randomFloats(n, 9);
        try (StreamLease lease = device.streams().lease()) {
            Stream s = lease.stream();
            try (DeviceBuffer direct = HostData.upload(s, x);
                    DeviceBuffer replayed = HostData.upload(s, x);
                    Event t0 = device.createEvent();
                    Event t1 = device.createEvent();
                    Event t2 = device.createEvent();
                    Event t3 = device.createEvent()) {
                device.function(com.llmserve.kernels.Kernel.SCALE_F32); // load the module before capturing, not during
                Graph graph;
                try (GraphCapture capture = s.beginCapture()) {
                    for (int i = 0; i < steps; i++) TestKernels.scale(s, replayed, factor, n);
                    graph = capture.end();
                }
                try (graph) {
                    s.record(t0);
                    for (int i = 0; i < steps; i++) TestKernels.scale(s, direct, factor, n);
                    s.record(t1);
                    s.record(t2);
                    graph.launch(s);
                    s.record(t3);
                    float[] a = HostData.download(s, direct, n);
                    float[] b = HostData.download(s, replayed, n);
                    assertThat(b).containsExactly(a);
                    float expected = x[0];
                    for (int i = 0; i < steps; i++) expected *= factor;
                    assertThat(b[0]).isEqualTo(expected);
                    GpuReport.line(
                            "%d launches on %s: %.1f us issued one by one, %.1f us as one graph replay",
                            steps,
                            device.info().name(),
                            t1.elapsedMillisSince(t0) * 1000,
                            t3.elapsedMillisSince(t2) * 1000);
                }
            }
        }
    }

    @ParameterizedTest
    @MethodSource("com.llmserve.gpu.GpuTestBase#devices")
    void anAbandonedCaptureLeavesTheStreamUsable(Device device) throws Exception {
        try (StreamLease lease = device.streams().lease();
                DeviceBuffer x = device.allocate(1024 * 4)) {
            Stream s = lease.stream();
            device.function(com.llmserve.kernels.Kernel.SCALE_F32);
            try (GraphCapture ignored = s.beginCapture()) {
                TestKernels.scale(s, x, 2f, 1024);
            }
            s.fill(x, (byte) 0);
            s.synchronize();
        }
    }
}
