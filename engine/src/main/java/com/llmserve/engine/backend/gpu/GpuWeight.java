package com.llmserve.engine.backend.gpu;

import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.Weight;
import com.llmserve.engine.gguf.GgmlType;
import com.llmserve.gpu.DeviceBuffer;
import java.util.List;

/**
 * A weight in device memory: a matrix (or embedding table, or a mixture's stacked experts) of one or more row bands (the parts of
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
    /** For experts: each stack's rows per expert, the stacks one after the other in the bands; else null. */
    final int[] stackRows;

    private final List<Segment> segments;

    private GpuWeight(
            Backend owner,
            String name,
            GgmlType type,
            Kind kind,
            long rows,
            int cols,
            int experts,
            List<Band> bands,
            DeviceBuffer vector,
            int[] stackRows) {
        super(owner, name, type, kind, rows, cols, experts);
        this.bands = bands;
        this.vector = vector;
        this.stackRows = stackRows;
        this.segments = stackRows == null ? List.of() : segments(bands, stackRows, experts);
    }

    static GpuWeight matrix(Backend owner, String name, GgmlType type, Kind kind, int cols, List<Band> bands) {
        long rows = bands.stream().mapToLong(Band::rows).sum();
        return new GpuWeight(owner, name, type, kind, rows, cols, 1, List.copyOf(bands), null, null);
    }

    static GpuWeight experts(
            Backend owner, String name, GgmlType type, int cols, int experts, int[] stackRows, List<Band> bands) {
        int rows = java.util.Arrays.stream(stackRows).sum();
        return new GpuWeight(
                owner, name, type, Kind.EXPERTS, rows, cols, experts, List.copyOf(bands), null, stackRows.clone());
    }

    static GpuWeight vector(Backend owner, String name, int length, DeviceBuffer values) {
        return new GpuWeight(owner, name, GgmlType.F32, Kind.VECTOR, 1, length, 1, List.of(), values, null);
    }

    /** The band holding stack {@code i} of an experts weight, and the stack's first row within it. */
    record Segment(Band band, long firstRow, int rowsPerExpert, int outCol) {}

    /** Whether every band passes {@code test} (a loop, not a stream: each product recorded asks). */
    boolean everyBand(java.util.function.Predicate<Band> test) {
        for (Band b : bands) {
            if (!test.test(b)) {
                return false;
            }
        }
        return true;
    }

    /** Whether every stack's segment passes {@code test}. */
    boolean everySegment(java.util.function.Predicate<Segment> test) {
        for (Segment s : segments) {
            if (!test.test(s)) {
                return false;
            }
        }
        return true;
    }

    /** Where each stack of an experts weight lies, in stack order (none for other weights). */
    List<Segment> segments() {
        return segments;
    }

    private static List<Segment> segments(List<Band> bands, int[] stackRows, int experts) {
        List<Segment> segments = new java.util.ArrayList<>(stackRows.length);
        long row = 0;
        int col = 0;
        for (int rowsPerExpert : stackRows) {
            long at = row;
            Band band = bands.stream()
                    .filter(b -> at >= b.firstRow() && at < b.firstRow() + b.rows())
                    .findFirst()
                    .orElseThrow();
            segments.add(new Segment(band, at - band.firstRow(), rowsPerExpert, col));
            row += (long) rowsPerExpert * experts;
            col += rowsPerExpert;
        }
        return List.copyOf(segments);
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
