package com.llmserve.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ArgumentsSource;

/** Production kernels against a double-precision CPU reference, with their device time. */
@RequiresGpu
class KernelParityGpuTests {

    @ParameterizedTest
    @ArgumentsSource(RequiresGpu.EveryDevice.class)
    void vectorAddMatchesTheCpu(Device device) throws Exception {
        int n = (1 << 20) + 3; // not a multiple of the block: the tail guard matters
        float[] a = HostData.randomFloats(n, 1);
        float[] b = HostData.randomFloats(n, 2);
        try (StreamLease lease = device.streams().lease()) {
            Stream s = lease.stream();
            try (DeviceBuffer da = HostData.upload(s, a);
                    DeviceBuffer db = HostData.upload(s, b);
                    DeviceBuffer out = device.allocate((long) n * 4)) {
                TestKernels.vectorAdd(s, da, db, out, n);
                float[] got = HostData.download(s, out, n);
                for (int i = 0; i < n; i++)
                    assertThat(got[i]).as("element %d", i).isEqualTo(a[i] + b[i]);
                GpuReport.line(
                        "vector_add_f32 n=%d on %s: exact", n, device.info().name());
            }
        }
    }

    @ParameterizedTest
    @ArgumentsSource(RequiresGpu.EveryDevice.class)
    void rmsNormMatchesTheCpu(Device device) throws Exception {
        for (int[] shape : new int[][] {{64, 4096}, {7, 1000}, {3, 1}}) {
            int rows = shape[0], cols = shape[1];
            float eps = 1e-5f;
            float[] x = HostData.randomFloats(rows * cols, 3);
            float[] w = HostData.randomFloats(cols, 4);
            double[] expected = new double[rows * cols];
            double[] scale = new double[rows * cols];
            for (int r = 0; r < rows; r++) {
                double ss = 0;
                for (int c = 0; c < cols; c++) ss += (double) x[r * cols + c] * x[r * cols + c];
                double inv = 1 / Math.sqrt(ss / cols + eps);
                for (int c = 0; c < cols; c++) {
                    expected[r * cols + c] = x[r * cols + c] * inv * w[c];
                    scale[r * cols + c] = Math.abs(inv * w[c]); // error relative to one unit of the output's scale
                }
            }
            try (StreamLease lease = device.streams().lease()) {
                Stream s = lease.stream();
                try (DeviceBuffer dx = HostData.upload(s, x);
                        DeviceBuffer dw = HostData.upload(s, w);
                        DeviceBuffer dy = device.allocate((long) rows * cols * 4);
                        Event start = device.createEvent();
                        Event end = device.createEvent()) {
                    TestKernels.rmsNorm(s, dx, dw, dy, rows, cols, eps); // warm-up: CUDA loads kernel code lazily
                    s.record(start);
                    TestKernels.rmsNorm(s, dx, dw, dy, rows, cols, eps);
                    s.record(end);
                    float[] got = HostData.download(s, dy, rows * cols);
                    double err = HostData.maxError(got, expected, scale);
                    GpuReport.line(
                            "rms_norm_f32 %dx%d on %s: max error %.2e (relative to row scale), %.1f us",
                            rows, cols, device.info().name(), err, end.elapsedMillisSince(start) * 1000);
                    assertThat(err).isLessThan(1e-5);
                }
            }
        }
    }

    @ParameterizedTest
    @ArgumentsSource(RequiresGpu.EveryDevice.class)
    void q8_0GemvMatchesTheCpu(Device device) throws Exception {
        int rows = 4096 + 5, cols = 4096; // rows not a multiple of rows-per-block
        int blocks = cols / 32;
        float[] x = HostData.randomFloats(cols, 5);
        // the activations as ls_quantize_q8_0 rounds them: per 32, d = f16(amax / 127), q = rint(x * 127 / amax)
        float[] xd = new float[blocks];
        int[] xq = new int[cols];
        for (int b = 0; b < blocks; b++) {
            float amax = 0;
            for (int i = 0; i < 32; i++) amax = Math.max(amax, Math.abs(x[b * 32 + i]));
            float inv = amax != 0 ? 127f / amax : 0f;
            xd[b] = Float.float16ToFloat(Float.floatToFloat16(amax / 127f));
            for (int i = 0; i < 32; i++) xq[b * 32 + i] = (int) Math.rint(x[b * 32 + i] * inv);
        }
        // Q8_0 weights as the engine uploads them (repacked): 32 int8 quants per block, the f16 scales apart
        byte[] quants = new byte[rows * blocks * 32];
        byte[] scales = new byte[rows * blocks * 2];
        double[] expected = new double[rows];
        double[] scale = new double[rows];
        SplittableRandom r = new SplittableRandom(6);
        for (int row = 0; row < rows; row++) {
            for (int b = 0; b < blocks; b++) {
                int block = row * blocks + b;
                short d = Float.floatToFloat16((float) (0.001 + r.nextDouble() * 0.05));
                scales[2 * block] = (byte) d;
                scales[2 * block + 1] = (byte) (d >> 8);
                double dScale = (double) Float.float16ToFloat(d) * xd[b];
                for (int i = 0; i < 32; i++) {
                    byte q = (byte) (r.nextInt(255) - 127);
                    quants[block * 32 + i] = q;
                    expected[row] += dScale * q * xq[b * 32 + i];
                    scale[row] += Math.abs(dScale * q * xq[b * 32 + i]);
                }
            }
        }
        try (StreamLease lease = device.streams().lease()) {
            Stream s = lease.stream();
            try (DeviceBuffer dw = HostData.upload(s, quants);
                    DeviceBuffer dwd = HostData.upload(s, scales);
                    DeviceBuffer dx = HostData.upload(s, x);
                    DeviceBuffer dxq = device.allocate(cols);
                    DeviceBuffer dxd = device.allocate(blocks * 4L);
                    DeviceBuffer dxs = device.allocate(blocks * 4L);
                    DeviceBuffer dy = device.allocate(rows * 4L);
                    Event start = device.createEvent();
                    Event end = device.createEvent()) {
                TestKernels.quantizeQ8_0(s, dx, dxq, dxd, dxs, cols);
                TestKernels.gemvQ8_0(s, dw, dwd, dxq, dxd, dxs, dy, rows, cols); // warm-up
                s.record(start);
                for (int i = 0; i < 100; i++) TestKernels.gemvQ8_0(s, dw, dwd, dxq, dxd, dxs, dy, rows, cols);
                s.record(end);
                float[] got = HostData.download(s, dy, rows);
                double err = HostData.maxError(got, expected, scale);
                double micros = end.elapsedMillisSince(start) * 10; // per launch, of 100
                GpuReport.line(
                        "mmvq_q8_0_1 %dx%d on %s (wave %d): max error %.2e (relative to sum |w*x|), %.1f us, %.0f GB/s",
                        rows,
                        cols,
                        device.info().name(),
                        device.info().waveSize(),
                        err,
                        micros,
                        (quants.length + scales.length) / (micros * 1e-6) / 1e9);
                assertThat(err).isLessThan(5e-5); // fp32 accumulation of 4096 terms in another order
            }
        }
    }
}
