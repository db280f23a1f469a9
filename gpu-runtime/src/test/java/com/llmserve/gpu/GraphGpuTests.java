package com.llmserve.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ArgumentsSource;

/** Graph capture and replay, as the decode step per batch-size bucket will use it. */
@RequiresGpu
class GraphGpuTests {

    @ParameterizedTest
    @ArgumentsSource(RequiresGpu.EveryDevice.class)
    void aCapturedSequenceReplaysWithTheSameEffectAsItsLaunches(Device device) throws Exception {
        int n = 4096, steps = 200;
        float[] x = HostData.randomFloats(n, 9);
        float[] step = HostData.randomFloats(n, 10);
        try (StreamLease lease = device.streams().lease()) {
            Stream s = lease.stream();
            try (DeviceBuffer direct = HostData.upload(s, x);
                    DeviceBuffer replayed = HostData.upload(s, x);
                    DeviceBuffer increment = HostData.upload(s, step);
                    Event t0 = device.createEvent();
                    Event t1 = device.createEvent();
                    Event t2 = device.createEvent();
                    Event t3 = device.createEvent()) {
                // load the module before capturing, not during
                device.function(com.llmserve.kernels.Kernel.VECTOR_ADD_F32);
                Graph graph;
                try (GraphCapture capture = s.beginCapture()) {
                    for (int i = 0; i < steps; i++) TestKernels.vectorAdd(s, replayed, increment, replayed, n);
                    graph = capture.end();
                }
                try (graph) {
                    s.record(t0);
                    for (int i = 0; i < steps; i++) TestKernels.vectorAdd(s, direct, increment, direct, n);
                    s.record(t1);
                    s.record(t2);
                    graph.launch(s);
                    s.record(t3);
                    float[] a = HostData.download(s, direct, n);
                    float[] b = HostData.download(s, replayed, n);
                    assertThat(b).containsExactly(a);
                    float expected = x[0];
                    for (int i = 0; i < steps; i++) expected += step[0];
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
    @ArgumentsSource(RequiresGpu.EveryDevice.class)
    void anAbandonedCaptureLeavesTheStreamUsable(Device device) throws Exception {
        int n = 1024;
        float[] values = HostData.randomFloats(n, 11);
        try (StreamLease lease = device.streams().lease()) {
            Stream s = lease.stream();
            try (DeviceBuffer x = HostData.upload(s, values)) {
                device.function(com.llmserve.kernels.Kernel.VECTOR_ADD_F32);
                try (GraphCapture ignored = s.beginCapture()) {
                    TestKernels.vectorAdd(s, x, x, x, n); // captured, never ended, so never run
                }
                assertThat(HostData.download(s, x, n))
                        .as("the abandoned add did not run")
                        .containsExactly(values);
                TestKernels.vectorAdd(s, x, x, x, n);
                float[] doubled = new float[n];
                for (int i = 0; i < n; i++) doubled[i] = values[i] + values[i];
                assertThat(HostData.download(s, x, n))
                        .as("the stream runs work again")
                        .containsExactly(doubled);
            }
        }
    }
}
