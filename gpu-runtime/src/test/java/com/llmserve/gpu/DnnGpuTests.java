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
}
