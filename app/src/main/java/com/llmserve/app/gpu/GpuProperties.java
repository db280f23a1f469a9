package com.llmserve.app.gpu;

import static com.llmserve.app.system.PropertyChecks.atLeast;
import static com.llmserve.app.system.PropertyChecks.between;

import com.llmserve.engine.backend.gpu.GpuOptions;
import com.llmserve.gpu.RuntimeChoice;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * The GPU runtime this process opens, how it watches the devices, and the tuning of the GPU
 * backend of every model placed on one ({@link GpuOptions}, whose defaults these are).
 *
 * @param runtime           {@code auto} (HIP, then CUDA), {@code hip}, {@code cuda}, or {@code none} to open
 *                          no GPU at all; a machine without a GPU opens none either way
 * @param telemetryInterval how often each device's memory, utilisation, temperature and power are read
 *                          (off the request path, one thread per device); a device without a reading for
 *                          three intervals is reported as hanging
 * @param halfWeights       F16 copies of the quantized weights on the device besides the quantized ones (a
 *                          full set is about four times a Q4_0 model's size), so prefill and large batches
 *                          skip dequantizing each step: faster under load. {@code auto}: as many as fit in
 *                          {@code halfWeightShare} of the device memory free when the model loads;
 *                          {@code on}: while device memory lasts; {@code off}: none
 * @param halfWeightShare   the share of the free device memory that {@code auto} gives half copies, from 0 to
 *                          1; the KV cache and activations keep the rest
 * @param graphs            capture each decode step of at most {@code maxGraphRows} rows as a CUDA/HIP graph per
 *                          batch size and replay it; off: every kernel is launched each step
 * @param maxGraphRows      the largest batch replayed as a graph; bigger ones (prefill) launch their kernels
 *                          directly, where each kernel runs long enough to hide its launch
 * @param gemmMinRows       products of at least this many rows dequantize the weights to F16 and run the
 *                          vendor BLAS (cuBLAS, rocBLAS); smaller ones use the quantized GEMV kernels
 *                          (but in a decode step a weight with half copies takes the BLAS from 12 rows)
 * @param mmqMaxRows        products of gemm-min-rows to this many rows whose weights are Q4_0 or Q8_0 without
 *                          half copies run the int8 tensor-core kernels on NVIDIA GPUs of sm_80 on (the
 *                          quantized weights read once per 64 rows) instead of dequantizing them for the BLAS;
 *                          0 for never
 * @param expertTensorCores a mixture of experts' groups of several tokens for one expert (prompts, many
 *                          sequences) multiply on the int8 tensor cores, groups of up to 64, where the
 *                          experts are Q4_0 or Q8_0 on NVIDIA GPUs of sm_80 on; off: GEMV passes over up to 8
 * @param halfTensorProducts the products mmq-max-rows gives the tensor cores take the half ones on NVIDIA GPUs
 *                          of sm_80 on (each Q4_0 / Q8_0 weight turned into half in registers, as its half copy
 *                          would hold it), and so do products of up to 48 rows over half copies (the same
 *                          half operands as the BLAS over the copies); off: the int8 ones, and the BLAS over
 *                          half copies
 * @param maxGraphs         graphs kept per model; the least recently used are destroyed beyond that
 * @param dequantBand       the F16 band a weight is dequantized into before each BLAS call: small enough to
 *                          stay in L2 between the dequantization and the product
 * @param uploadChunk       the pinned host staging through which weights are copied to the device
 * @param peerAllReduce     a model split over NVIDIA GPUs ({@code tensor-parallel-size}) that reach each
 *                          other's memory sums its decode-sized layer outputs with one kernel over peer
 *                          access instead of NCCL (on by default: a third of NCCL's time per sum on
 *                          two H100s); larger sums and AMD GPUs (RCCL) are unaffected. Off: NCCL for
 *                          every sum
 * @param dependentLaunches the decode path's kernels launch before the kernel ahead of them ends and wait
 *                          for it on the device (programmatic dependent launch), on NVIDIA GPUs of compute
 *                          capability 9 (H100, H200); off: ordinary launches everywhere
 */
@ConfigurationProperties("llmserve.gpu")
public record GpuProperties(
        @DefaultValue("auto") RuntimeChoice runtime,
        @DefaultValue("5s") Duration telemetryInterval,
        @DefaultValue("auto") HalfWeights halfWeights,

        @DefaultValue("" + GpuOptions.DEFAULT_HALF_WEIGHT_SHARE)
        double halfWeightShare,

        @DefaultValue("" + GpuOptions.DEFAULT_GRAPHS) boolean graphs,

        @DefaultValue("" + GpuOptions.DEFAULT_MAX_GRAPH_ROWS)
        int maxGraphRows,

        @DefaultValue("" + GpuOptions.DEFAULT_GEMM_MIN_ROWS) int gemmMinRows,
        @DefaultValue("" + GpuOptions.DEFAULT_MMQ_MAX_ROWS) int mmqMaxRows,

        @DefaultValue("" + GpuOptions.DEFAULT_EXPERT_TENSOR_CORES)
        boolean expertTensorCores,

        @DefaultValue("" + GpuOptions.DEFAULT_HALF_TENSOR_PRODUCTS)
        boolean halfTensorProducts,

        @DefaultValue("" + GpuOptions.DEFAULT_MAX_GRAPHS) int maxGraphs,

        @DefaultValue(GpuOptions.DEFAULT_DEQUANT_BAND_MIB + "MB")
        DataSize dequantBand,

        @DefaultValue(GpuOptions.DEFAULT_UPLOAD_CHUNK_MIB + "MB")
        DataSize uploadChunk,

        @DefaultValue("" + GpuOptions.DEFAULT_PEER_ALL_REDUCE)
        boolean peerAllReduce,

        @DefaultValue("" + GpuOptions.DEFAULT_DEPENDENT_LAUNCHES)
        boolean dependentLaunches) {

    /** Whether the GPU backend keeps F16 copies of the quantized weights. */
    public enum HalfWeights {
        AUTO,
        ON,
        OFF
    }

    public GpuProperties {
        if (telemetryInterval.isNegative() || telemetryInterval.isZero()) {
            throw new IllegalArgumentException(
                    "llmserve.gpu.telemetry-interval must be positive: " + telemetryInterval);
        }
        between("llmserve.gpu.half-weight-share", 0, 1, halfWeightShare);
        atLeast("llmserve.gpu.max-graph-rows", 1, maxGraphRows);
        atLeast("llmserve.gpu.gemm-min-rows", 1, gemmMinRows);
        atLeast("llmserve.gpu.mmq-max-rows", 0, mmqMaxRows);
        atLeast("llmserve.gpu.max-graphs", 1, maxGraphs);
        DataSize minStaging = DataSize.ofMegabytes(GpuOptions.MIN_STAGING_MIB);
        atLeast("llmserve.gpu.dequant-band", minStaging, dequantBand);
        atLeast("llmserve.gpu.upload-chunk", minStaging, uploadChunk);
    }

    /**
     * The GPU backend's tuning for models placed on this runtime's devices (batch invariance is the
     * engine's setting, {@code llmserve.engine.batch-invariant}, applied by the backends).
     */
    public GpuOptions backendOptions() {
        return new GpuOptions(
                graphs,
                maxGraphRows,
                gemmMinRows,
                mmqMaxRows,
                expertTensorCores,
                halfTensorProducts,
                maxGraphs,
                dequantBand.toBytes(),
                uploadChunk.toBytes(),
                switch (halfWeights) {
                    case AUTO -> halfWeightShare;
                    case ON -> 1;
                    case OFF -> 0;
                },
                false,
                peerAllReduce,
                dependentLaunches);
    }
}
