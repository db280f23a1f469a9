package com.llmserve.engine.backend.gpu;

import static com.llmserve.kernels.KernelConstants.LS_QK;

import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.Weight;
import com.llmserve.engine.backend.cpu.CpuTensor;
import com.llmserve.engine.backend.cpu.MXFP4Tensor;
import com.llmserve.engine.gguf.GgmlType;
import com.llmserve.engine.gguf.GgufTensor;
import com.llmserve.gpu.Device;
import com.llmserve.gpu.DeviceBuffer;
import com.llmserve.gpu.GpuCallException;
import com.llmserve.gpu.KernelArgs;
import com.llmserve.gpu.LaunchConfig;
import com.llmserve.gpu.Stream;
import com.llmserve.gpu.StreamLease;
import com.llmserve.kernels.Kernel;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * Puts weights in device memory, once, in the layout the kernels read: Q4_0/Q8_0 repacked on the
 * device (quant blocks, then the f16 scales: aligned 16-byte loads), Q4_1, Q5_0, Q5_1, the K-quants,
 * F16, BF16 and F32 as GGML stores them (the file's bytes, copied as they are), MXFP4 transcoded to
 * Q8_0 blocks; a type without a device format would be dequantized on the host to F16. Half copies
 * of quantized bands for the BLAS path are made while their share of device memory lasts.
 */
final class WeightUploader {

    private static final System.Logger LOG = System.getLogger(WeightUploader.class.getName());

    private final Backend owner;
    private final Device device;
    private final GpuOptions options;
    private final HostTransfer transfer;
    /** What the half copies may take: their share of the memory free when the backend opened. */
    private final long halfBudget;

    private boolean halfCopiesExhausted;
    private long weightBytes;
    private long halfBytes;

    WeightUploader(Backend owner, Device device, GpuOptions options, HostTransfer transfer) {
        this.owner = owner;
        this.device = device;
        this.options = options;
        this.transfer = transfer;
        this.halfBudget = options.halfWeights()
                ? (long) (options.halfWeightShare() * device.memoryInfo().free())
                : 0;
    }

    /** Device bytes of the weights as products read them on the GEMV path. */
    long weightBytes() {
        return weightBytes;
    }

    /** Device bytes of the half copies. */
    long halfBytes() {
        return halfBytes;
    }

    /** A matrix (or table) of the rows of {@code parts}: runs of parts with one format and rounding share a band. */
    GpuWeight matrix(String name, Weight.Kind kind, List<GgufTensor> parts, int cols) {
        GpuWeight w = GpuWeight.matrix(owner, name, parts.getFirst().type(), kind, cols, bands(kind, parts, cols));
        weightBytes += w.byteSize();
        return w;
    }

    /**
     * A mixture's experts, without half copies: the stacks' rows in order (so a stack lies within one
     * band), or, where every stack has one type (gate and up of one type), one stack whose expert e
     * holds its rows of each stack in turn, which one launch multiplies.
     */
    GpuWeight experts(String name, List<GgufTensor> stacks, int experts, int cols) {
        GgmlType type = stacks.getFirst().type();
        boolean oneType = stacks.size() > 1 && stacks.stream().allMatch(t -> t.type() == type);
        int[] stackRows = oneType
                ? new int[] {
                    stacks.stream().mapToInt(t -> Math.toIntExact(t.dim(1))).sum()
                }
                : stacks.stream().mapToInt(t -> Math.toIntExact(t.dim(1))).toArray();
        List<GgufTensor> parts = oneType ? byExpert(name, stacks, experts, cols) : stacks;
        GpuWeight w =
                GpuWeight.experts(owner, name, type, cols, experts, stackRows, bands(Weight.Kind.EXPERTS, parts, cols));
        weightBytes += w.byteSize();
        return w;
    }

    /**
     * Stacks of one type cut into their experts' matrices, expert by expert (e's of the first stack,
     * then e's of the next...): views of the file's bytes, uploaded one after another into one band.
     */
    static List<GgufTensor> byExpert(String name, List<GgufTensor> stacks, int experts, int cols) {
        GgmlType type = stacks.getFirst().type();
        List<GgufTensor> parts = new ArrayList<>(experts * stacks.size());
        for (int e = 0; e < experts; e++) {
            for (GgufTensor t : stacks) {
                long rows = t.dim(1);
                long bytes = type.byteSize(rows * cols);
                parts.add(new GgufTensor(
                        name, type, new long[] {cols, rows}, 0, t.data().asSlice(e * bytes, bytes)));
            }
        }
        return parts;
    }

    private List<GpuWeight.Band> bands(Weight.Kind kind, List<GgufTensor> parts, int cols) {
        List<WeightFormat> formats = new ArrayList<>();
        List<WeightFormat.Activation> rounding = new ArrayList<>();
        for (GgufTensor t : parts) {
            formats.add(WeightFormat.forType(t.type(), cols));
            rounding.add(WeightFormat.activationOf(t.type()));
        }
        List<GpuWeight.Band> bands = new ArrayList<>();
        try {
            long firstRow = 0;
            int i = 0;
            while (i < parts.size()) {
                int j = i;
                long rows = 0;
                while (j < parts.size() && formats.get(j) == formats.get(i) && rounding.get(j) == rounding.get(i)) {
                    rows += parts.get(j).rows();
                    j++;
                }
                // a table's half copy would never be read: embed gathers from the band itself
                bands.add(band(
                        formats.get(i),
                        rounding.get(i),
                        parts.subList(i, j),
                        firstRow,
                        rows,
                        cols,
                        kind == Weight.Kind.MATRIX));
                firstRow += rows;
                i = j;
            }
        } catch (RuntimeException e) {
            for (GpuWeight.Band b : bands) {
                b.data().close();
                if (b.half() != null) {
                    b.half().close();
                }
            }
            throw e;
        }
        return bands;
    }

    GpuWeight vector(String name, float[] values) {
        DeviceBuffer buffer = transfer.newBuffer(MemorySegment.ofArray(values), (long) values.length * Float.BYTES);
        weightBytes += buffer.byteSize();
        return GpuWeight.vector(owner, name, values.length, buffer);
    }

    private GpuWeight.Band band(
            WeightFormat f,
            WeightFormat.Activation activation,
            List<GgufTensor> parts,
            long firstRow,
            long rows,
            int cols,
            boolean halfCopy) {
        long blocksPerRow = cols / LS_QK;
        long scalesOffset = 0;
        long bytes;
        if (f.repacked()) {
            long quantBytes = rows * blocksPerRow * f.repackedBlockBytes();
            scalesOffset = (quantBytes + 255) / 256 * 256;
            bytes = scalesOffset + rows * blocksPerRow * Short.BYTES;
        } else {
            bytes = f.type().byteSize(rows * cols);
        }
        DeviceBuffer data = device.allocate(bytes);
        try {
            long row = 0;
            for (GgufTensor t : parts) {
                if (t.type() == f.type() && f.repacked()) {
                    repack(t, f, data, row * blocksPerRow, scalesOffset);
                } else if (t.type() == GgmlType.MXFP4 && f == WeightFormat.Q8_0) {
                    transcodeMxfp4(t, data, row * blocksPerRow, scalesOffset);
                } else if (t.type() == f.type()) {
                    transfer.toDevice(
                            t.data().asSlice(0, t.byteSize()), data, f.type().byteSize(row * cols));
                } else {
                    convertOnHost(t, f, data, f.type().byteSize(row * cols));
                }
                row += t.rows();
            }
        } catch (RuntimeException e) {
            data.close();
            throw e;
        }
        DeviceBuffer half = null;
        if (halfCopy
                && options.halfWeights()
                && !halfCopiesExhausted
                && f != WeightFormat.F16
                && f != WeightFormat.F32) {
            half = halfCopy(f, data, scalesOffset, rows, cols);
        }
        return new GpuWeight.Band(f, activation, firstRow, rows, data, scalesOffset, half);
    }

    /** The band dequantized to half on the device, or null once their share of device memory has run out. */
    private DeviceBuffer halfCopy(WeightFormat f, DeviceBuffer data, long scalesOffset, long rows, int cols) {
        if (halfBytes + rows * cols * Short.BYTES > halfBudget) {
            halfCopiesExhausted = true;
            LOG.log(
                    System.Logger.Level.INFO,
                    "{0}: half weight copies stop at {1} bytes, their share ({2}) of the free device"
                            + " memory; the remaining weights dequantize per product",
                    owner.name(),
                    halfBytes,
                    options.halfWeightShare());
            return null;
        }
        DeviceBuffer half;
        try {
            half = device.allocate(rows * cols * Short.BYTES);
        } catch (GpuCallException e) {
            if (!e.isOutOfMemory()) {
                throw e;
            }
            halfCopiesExhausted = true;
            LOG.log(
                    System.Logger.Level.WARNING,
                    "{0}: out of device memory for half weight copies after {1} bytes;"
                            + " the remaining weights dequantize per product",
                    owner.name(),
                    halfBytes);
            return null;
        }
        try (StreamLease lease = HostTransfer.lease(device)) {
            Stream s = lease.stream();
            s.launch(
                    device.function(f.dequantF16Kernel()),
                    LaunchConfig.covering(rows * cols / 8, Launch.THREADS),
                    KernelArgs.of()
                            .pointer(data)
                            .pointer(data, scalesOffset)
                            .pointer(half)
                            .i32(0)
                            .i32(Math.toIntExact(rows))
                            .i32(cols));
            s.synchronize();
        } catch (RuntimeException e) {
            half.close();
            throw e;
        }
        halfBytes += half.byteSize();
        return half;
    }

    /** GGML Q4_0/Q8_0 blocks to quants + scales, on the device (the raw blocks go up first). */
    private void repack(GgufTensor t, WeightFormat f, DeviceBuffer data, long firstBlock, long scalesOffset) {
        long blocks = t.elementCount() / LS_QK;
        try (DeviceBuffer raw = device.allocate(t.byteSize())) {
            transfer.toDevice(t.data().asSlice(0, t.byteSize()), raw, 0);
            Kernel kernel = f == WeightFormat.Q4_0 ? Kernel.REPACK_Q4_0 : Kernel.REPACK_Q8_0;
            try (StreamLease lease = HostTransfer.lease(device)) {
                Stream s = lease.stream();
                s.launch(
                        device.function(kernel),
                        LaunchConfig.covering(blocks, Launch.THREADS),
                        KernelArgs.of()
                                .pointer(raw)
                                .pointer(data, firstBlock * f.repackedBlockBytes())
                                .pointer(data, scalesOffset + firstBlock * Short.BYTES)
                                .i64(blocks));
                s.synchronize();
            }
        }
    }

    /** MXFP4 blocks as GGML Q8_0 blocks on the host, a chunk of rows at a time, then repacked as Q8_0's. */
    private void transcodeMxfp4(GgufTensor t, DeviceBuffer data, long firstBlock, long scalesOffset) {
        long cols = t.rowLength();
        long blocksPerRow = cols / LS_QK;
        int q8Block = GgmlType.Q8_0.typeSize();
        long rowsPerChunk = Math.max(1, options.uploadChunkBytes() / (blocksPerRow * q8Block));
        for (long r0 = 0; r0 < t.rows(); r0 += rowsPerChunk) {
            long rows = Math.min(rowsPerChunk, t.rows() - r0);
            byte[] q8 = new byte[Math.toIntExact(rows * blocksPerRow * q8Block)];
            long first = r0 * blocksPerRow;
            for (int b = 0; b < rows * blocksPerRow; b++) {
                MXFP4Tensor.blockAsQ8_0(t.data(), (first + b) * GgmlType.MXFP4.typeSize(), q8, b * q8Block);
            }
            GgufTensor chunk =
                    new GgufTensor(t.name(), GgmlType.Q8_0, new long[] {cols, rows}, 0, MemorySegment.ofArray(q8));
            repack(chunk, WeightFormat.Q8_0, data, firstBlock + first, scalesOffset);
        }
    }

    /** Types without kernels: dequantized row by row as the CPU backend does, stored as F16 or F32. */
    private void convertOnHost(GgufTensor t, WeightFormat f, DeviceBuffer data, long offset) {
        CpuTensor src = CpuTensor.of(t);
        int cols = src.cols();
        int elementBytes = f == WeightFormat.F16 ? Short.BYTES : Float.BYTES;
        long rowsPerChunk = Math.max(1, options.uploadChunkBytes() / ((long) cols * elementBytes));
        float[] row = new float[cols];
        for (long r0 = 0; r0 < src.rows(); r0 += rowsPerChunk) {
            int rows = (int) Math.min(rowsPerChunk, src.rows() - r0);
            MemorySegment chunk;
            if (f == WeightFormat.F16) {
                short[] halves = new short[rows * cols];
                for (int r = 0; r < rows; r++) {
                    src.dequantizeRow(r0 + r, row, 0);
                    for (int c = 0; c < cols; c++) {
                        halves[r * cols + c] = Float.floatToFloat16(row[c]);
                    }
                }
                chunk = MemorySegment.ofArray(halves);
            } else {
                float[] floats = new float[rows * cols];
                for (int r = 0; r < rows; r++) {
                    src.dequantizeRow(r0 + r, floats, r * cols);
                }
                chunk = MemorySegment.ofArray(floats);
            }
            transfer.toDevice(chunk, data, offset + r0 * cols * elementBytes);
        }
    }
}
