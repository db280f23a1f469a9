package com.llmserve.engine.backend.gpu;

import com.llmserve.engine.backend.Weight;
import com.llmserve.engine.gguf.GgmlType;
import com.llmserve.gpu.DeviceBuffer;
import java.util.List;

/**
 * A weight in device memory: a matrix of one or more row bands (the parts of a fused projection
 * whose types differ keep their own format; parts of one type are merged into one band at
 * upload), or a float32 vector.
 */
final class GpuWeight implements Weight {

    /**
     * Rows {@code [firstRow, firstRow + rows)} of the weight in one format.
     *
     * @param activation   how activations are rounded before the product: the source type's rule,
     *                     also when the band was converted to F16 on the host
     * @param scalesOffset byte offset of the f16 scales in {@code data} for repacked formats, else 0
     * @param half         a half-precision copy for the BLAS path ({@link GpuOptions#halfWeights()}), or null
     */
    record Band(
            WeightFormat format,
            WeightFormat.Activation activation,
            long firstRow,
            long rows,
            DeviceBuffer data,
            long scalesOffset,
            DeviceBuffer half) {}

    private final GpuBackend owner;
    private final String name;
    private final GgmlType type;
    private final long rows;
    private final int cols;
    final List<Band> bands;
    /** The float32 values of a vector weight, or null for a matrix. */
    final DeviceBuffer vector;

    private boolean closed;

    private GpuWeight(
            GpuBackend owner, String name, GgmlType type, long rows, int cols, List<Band> bands, DeviceBuffer vector) {
        this.owner = owner;
        this.name = name;
        this.type = type;
        this.rows = rows;
        this.cols = cols;
        this.bands = bands;
        this.vector = vector;
    }

    static GpuWeight matrix(GpuBackend owner, String name, GgmlType type, int cols, List<Band> bands) {
        long rows = bands.stream().mapToLong(Band::rows).sum();
        return new GpuWeight(owner, name, type, rows, cols, List.copyOf(bands), null);
    }

    static GpuWeight vector(GpuBackend owner, String name, int length, DeviceBuffer values) {
        return new GpuWeight(owner, name, GgmlType.F32, 1, length, List.of(), values);
    }

    GpuBackend owner() {
        return owner;
    }

    boolean isVector() {
        return vector != null;
    }

    /** Bytes a product reads: every band's device data. */
    long byteSize() {
        return vector != null
                ? vector.byteSize()
                : bands.stream().mapToLong(b -> b.data().byteSize()).sum();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public GgmlType type() {
        return type;
    }

    @Override
    public long rows() {
        return rows;
    }

    @Override
    public int cols() {
        return cols;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            owner.release(
                    vector != null
                            ? new DeviceBuffer[] {vector}
                            : bands.stream()
                                    .flatMap(b -> java.util.stream.Stream.of(b.data(), b.half()))
                                    .filter(java.util.Objects::nonNull)
                                    .toArray(DeviceBuffer[]::new));
        }
    }

    @Override
    public String toString() {
        return name + " " + type + "[" + cols + " x " + rows + "] on gpu";
    }
}
