package com.llmserve.engine.backend.gpu;

import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.Weight;
import com.llmserve.engine.gguf.GgmlType;
import com.llmserve.gpu.DeviceBuffer;
import java.util.List;

/**
 * A weight in device memory: a matrix (or embedding table) of one or more row bands (the parts of
 * a fused projection whose types differ keep their own format; parts of one type are merged into
 * one band at upload), or a float32 vector.
 */
final class GpuWeight extends Weight {

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

    final List<Band> bands;
    /** The float32 values of a vector weight, or null for a matrix. */
    final DeviceBuffer vector;

    private GpuWeight(
            Backend owner,
            String name,
            GgmlType type,
            Kind kind,
            long rows,
            int cols,
            List<Band> bands,
            DeviceBuffer vector) {
        super(owner, name, type, kind, rows, cols);
        this.bands = bands;
        this.vector = vector;
    }

    static GpuWeight matrix(Backend owner, String name, GgmlType type, Kind kind, int cols, List<Band> bands) {
        long rows = bands.stream().mapToLong(Band::rows).sum();
        return new GpuWeight(owner, name, type, kind, rows, cols, List.copyOf(bands), null);
    }

    static GpuWeight vector(Backend owner, String name, int length, DeviceBuffer values) {
        return new GpuWeight(owner, name, GgmlType.F32, Kind.VECTOR, 1, length, List.of(), values);
    }

    /** Bytes a product reads: every band's device data. */
    long byteSize() {
        return vector != null
                ? vector.byteSize()
                : bands.stream().mapToLong(b -> b.data().byteSize()).sum();
    }

    @Override
    protected void release() {
        if (vector != null) {
            vector.close();
        }
        for (Band b : bands) {
            b.data().close();
            if (b.half() != null) {
                b.half().close();
            }
        }
    }
}
