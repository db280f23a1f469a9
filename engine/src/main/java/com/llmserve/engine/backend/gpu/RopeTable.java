package com.llmserve.engine.backend.gpu;

import com.llmserve.engine.backend.Rope;
import com.llmserve.gpu.DeviceBuffer;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * (cos, sin) of every position and rotated pair for one rope configuration, computed on the host
 * in double precision exactly as the CPU backend computes them and kept on the device. Grows
 * (doubling) when a batch reaches past it.
 */
final class RopeTable implements AutoCloseable {

    /** The values a table depends on (the style only chooses pairs, in the kernel). */
    record Key(int dims, float freqBase, float freqScale, List<Float> freqFactors, Rope.Yarn yarn) {
        static Key of(Rope rope) {
            List<Float> factors = null;
            if (rope.freqFactors() != null) {
                factors = new ArrayList<>();
                for (float f : rope.freqFactors()) {
                    factors.add(f);
                }
            }
            return new Key(rope.dims(), rope.freqBase(), rope.freqScale(), factors, rope.yarn());
        }
    }

    private static final int MIN_POSITIONS = 4096;

    private final float[] theta;
    private final float magnitude;
    private int positions;
    private DeviceBuffer table;

    RopeTable(Rope rope) {
        theta = new float[rope.dims() / 2];
        for (int i = 0; i < theta.length; i++) {
            theta[i] = rope.theta(i);
        }
        magnitude = rope.magnitude();
    }

    /**
     * Makes the table cover positions {@code [0, needed)}.
     *
     * @return true when the device table moved (graphs that use it are stale)
     */
    /** Whether {@link #ensure} would free the table for a longer one. */
    boolean moves(int needed) {
        return table != null && needed > positions;
    }

    boolean ensure(int needed, HostTransfer transfer) {
        if (needed <= positions) {
            return false;
        }
        int n = Math.max(MIN_POSITIONS, positions);
        while (n < needed) {
            n = Math.multiplyExact(n, 2);
        }
        int half = theta.length;
        float[] values = new float[Math.multiplyExact(n, 2 * half)];
        for (int p = 0; p < n; p++) {
            for (int i = 0; i < half; i++) {
                double angle = (double) p * theta[i];
                values[(p * half + i) * 2] = (float) Math.cos(angle) * magnitude;
                values[(p * half + i) * 2 + 1] = (float) Math.sin(angle) * magnitude;
            }
        }
        DeviceBuffer next = transfer.newBuffer(MemorySegment.ofArray(values), (long) values.length * Float.BYTES);
        if (table != null) {
            table.close();
        }
        table = next;
        positions = n;
        return true;
    }

    /** Rotated leading dimensions per head. */
    int dims() {
        return theta.length * 2;
    }

    DeviceBuffer buffer() {
        return table;
    }

    @Override
    public void close() {
        if (table != null) {
            table.close();
            table = null;
        }
    }
}
