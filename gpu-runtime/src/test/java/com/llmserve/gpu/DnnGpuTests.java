package com.llmserve.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ArgumentsSource;

/**
 * The per-stream DNN handle: MIOpen's softmax against the CPU on AMD devices; on CUDA, where no
 * DNN library is bound, {@link Stream#dnn()} says so instead of failing.
 */
@RequiresGpu
class DnnGpuTests {

    @ParameterizedTest
    @ArgumentsSource(RequiresGpu.EveryDevice.class)
    void softmaxOfEachRowMatchesTheCpuWhereADnnLibraryIsBound(Device device) throws Exception {
        int rows = 37, cols = 1000;
        float[] x = HostData.randomFloats(rows * cols, 31);
        for (int i = 0; i < x.length; i++) x[i] *= 20; // logits wide enough that an unshifted exp overflows
        try (StreamLease lease = device.streams().lease()) {
            Stream s = lease.stream();
            Optional<Dnn> dnn = s.dnn();
            if (device.info().vendor() == Vendor.NVIDIA) {
                assertThat(dnn).as("cuDNN is not bound").isEmpty();
                return;
            }
            assertThat(dnn).as("MIOpen on " + device.info().name()).isPresent();
            try (DeviceBuffer dx = HostData.upload(s, x);
                    DeviceBuffer dy = device.allocate((long) rows * cols * Float.BYTES)) {
                dnn.get().softmax(dx, dy, rows, cols);
                float[] y = HostData.download(s, dy, rows * cols);
                double worst = 0;
                for (int r = 0; r < rows; r++) {
                    double max = Double.NEGATIVE_INFINITY, sum = 0;
                    for (int c = 0; c < cols; c++) max = Math.max(max, x[r * cols + c]);
                    for (int c = 0; c < cols; c++) sum += Math.exp(x[r * cols + c] - max);
                    for (int c = 0; c < cols; c++) {
                        double expected = Math.exp(x[r * cols + c] - max) / sum;
                        worst = Math.max(worst, Math.abs(y[r * cols + c] - expected));
                    }
                }
                GpuReport.line(
                        "MIOpen softmax %dx%d on %s: max abs error %.2e",
                        rows, cols, device.info().name(), worst);
                assertThat(worst).isLessThan(1e-6);
            }
        }
    }

    /** A shape MIOpen cannot describe (no rows) fails in MIOpen's words (miopenGetErrorString). */
    @ParameterizedTest
    @ArgumentsSource(RequiresGpu.EveryDevice.class)
    void anEmptyMatrixFailsWithMiopensStatus(Device device) throws Exception {
        try (StreamLease lease = device.streams().lease();
                DeviceBuffer x = device.allocate(4096);
                DeviceBuffer y = device.allocate(4096)) {
            Optional<Dnn> dnn = lease.stream().dnn();
            if (device.info().vendor() == Vendor.NVIDIA) {
                assertThat(dnn).as("cuDNN is not bound").isEmpty();
                return;
            }
            GpuCallException e = org.assertj.core.api.Assertions.catchThrowableOfType(
                    GpuCallException.class, () -> dnn.orElseThrow().softmax(x, y, 0, 64));
            GpuReport.line("MIOpen softmax of 0 rows on %s: %s", device.info().name(), e.getMessage());
            assertThat(e.library()).isEqualTo("miopen");
            assertThat(e.vendorMessage()).isNotBlank().isNotEqualTo("no message");
            // the handle works on: a softmax of one row of one value is 1
            try (PinnedBuffer one = device.allocatePinned(4)) {
                one.segment().set(java.lang.foreign.ValueLayout.JAVA_FLOAT, 0, 3f);
                lease.stream().copyToDevice(one.segment(), x);
                dnn.orElseThrow().softmax(x, y, 1, 1);
                lease.stream().copyToHost(y, 0, one.segment());
                lease.stream().synchronize();
                assertThat(one.segment().get(java.lang.foreign.ValueLayout.JAVA_FLOAT, 0))
                        .isCloseTo(1f, org.assertj.core.data.Offset.offset(1e-6f));
            }
        }
    }
}
