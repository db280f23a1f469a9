package com.llmserve.gpu;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;

/** Host-side test data and the device round trip of float arrays. */
final class HostData {

    private HostData() {}

    static float[] randomFloats(int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        float[] out = new float[n];
        for (int i = 0; i < n; i++) out[i] = (float) (r.nextDouble() * 2 - 1);
        return out;
    }

    static DeviceBuffer upload(Stream s, float[] values) {
        DeviceBuffer b = s.device().allocate((long) values.length * Float.BYTES);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment host = arena.allocateFrom(ValueLayout.JAVA_FLOAT, values);
            s.copyToDevice(host, b);
            s.synchronize(); // the host segment dies with the arena
        }
        return b;
    }

    static DeviceBuffer upload(Stream s, byte[] values) {
        DeviceBuffer b = s.device().allocate(values.length);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment host = arena.allocateFrom(ValueLayout.JAVA_BYTE, values);
            s.copyToDevice(host, b);
            s.synchronize();
        }
        return b;
    }

    static float[] download(Stream s, DeviceBuffer b, int n) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment host = arena.allocate((long) n * Float.BYTES, 16);
            s.copyToHost(b, host);
            s.synchronize();
            return host.toArray(ValueLayout.JAVA_FLOAT);
        }
    }

    /** Largest |a - b| relative to {@code scale} (a reference magnitude, so near-zero outputs don't explode). */
    static double maxError(float[] actual, double[] expected, double[] scale) {
        double worst = 0;
        for (int i = 0; i < actual.length; i++) {
            worst = Math.max(worst, Math.abs(actual[i] - expected[i]) / Math.max(scale[i], 1e-30));
        }
        return worst;
    }
}
