package com.llmserve.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * An all-reduce of known values over every rank of a {@link Collectives}, checked on the host: rank
 * r's element i is {@code i % 7 + r + 1} (small integers, exact in f16 and bf16), so every rank
 * must end with {@code size * (i % 7 + 1) + size * (size - 1) / 2}; a world of one keeps its input.
 * The {@code offset} elements before the reduced range and a few after it hold a per-rank sentinel
 * that must come back untouched.
 */
final class CollectiveCheck {

    private CollectiveCheck() {}

    static final int TAIL = 3;

    static float input(int rank, int i) {
        return i % 7 + rank + 1;
    }

    static float sentinel(int rank) {
        return 100 + rank;
    }

    static float expected(int size, int i) {
        return size * (i % 7 + 1) + size * (size - 1) / 2f;
    }

    /** Runs the all-reduce on one leased stream per rank and checks every rank's buffer; returns the elements checked. */
    static long allReduceAndCheck(Collectives comms, BlasType type, int count, int offset) throws InterruptedException {
        int size = comms.size();
        int total = offset + count + TAIL;
        List<StreamLease> leases = new ArrayList<>();
        List<DeviceBuffer> buffers = new ArrayList<>();
        try {
            List<Stream> streams = new ArrayList<>();
            for (int rank = 0; rank < size; rank++) {
                StreamLease lease = comms.device(rank).streams().lease();
                leases.add(lease);
                Stream s = lease.stream();
                streams.add(s);
                float[] values = new float[total];
                for (int i = 0; i < total; i++) {
                    values[i] = i >= offset && i < offset + count ? input(rank, i - offset) : sentinel(rank);
                }
                DeviceBuffer b = comms.device(rank).allocate((long) total * type.bytes());
                buffers.add(b);
                upload(s, b, values, type);
            }
            comms.allReduceSum(buffers, (long) offset * type.bytes(), count, type, streams);
            for (int rank = 0; rank < size; rank++) {
                float[] out = download(streams.get(rank), buffers.get(rank), total, type);
                for (int i = 0; i < total; i++) {
                    boolean reduced = i >= offset && i < offset + count;
                    float want = reduced ? expected(size, i - offset) : sentinel(rank);
                    if (out[i] != want) {
                        assertThat(out[i])
                                .as(
                                        "rank %d of %d, element %d (%s, %s)",
                                        rank, size, i, type, reduced ? "reduced" : "outside the range")
                                .isEqualTo(want);
                    }
                }
            }
            return (long) size * count;
        } finally {
            buffers.forEach(DeviceBuffer::close);
            leases.forEach(StreamLease::close);
        }
    }

    static void upload(Stream s, DeviceBuffer b, float[] values, BlasType type) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment host = arena.allocate((long) values.length * type.bytes(), 16);
            for (int i = 0; i < values.length; i++) {
                switch (type) {
                    case F32 -> host.setAtIndex(ValueLayout.JAVA_FLOAT, i, values[i]);
                    case F16 -> host.setAtIndex(ValueLayout.JAVA_SHORT, i, Float.floatToFloat16(values[i]));
                    case BF16 ->
                        host.setAtIndex(ValueLayout.JAVA_SHORT, i, (short) (Float.floatToRawIntBits(values[i]) >>> 16));
                }
            }
            s.copyToDevice(host, b);
            s.synchronize();
        }
    }

    static float[] download(Stream s, DeviceBuffer b, int n, BlasType type) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment host = arena.allocate((long) n * type.bytes(), 16);
            s.copyToHost(b, host);
            s.synchronize();
            float[] out = new float[n];
            for (int i = 0; i < n; i++) {
                out[i] = switch (type) {
                    case F32 -> host.getAtIndex(ValueLayout.JAVA_FLOAT, i);
                    case F16 -> Float.float16ToFloat(host.getAtIndex(ValueLayout.JAVA_SHORT, i));
                    case BF16 -> Float.intBitsToFloat(host.getAtIndex(ValueLayout.JAVA_SHORT, i) << 16);
                };
            }
            return out;
        }
    }
}
