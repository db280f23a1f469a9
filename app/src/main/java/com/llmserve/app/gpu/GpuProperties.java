package com.llmserve.app.gpu;

import com.llmserve.engine.backend.gpu.GpuOptions;
import com.llmserve.gpu.RuntimeChoice;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The GPU runtime this process opens, and how it watches the devices.
 *
 * @param runtime           {@code auto} (HIP, then CUDA), {@code hip}, {@code cuda}, or {@code none} to open
 *                          no GPU at all; a machine without a GPU opens none either way
 * @param telemetryInterval how often each device's memory, utilisation, temperature and power are read
 *                          (off the request path, one thread per device); a device without a reading for
 *                          three intervals is reported as hanging
 * @param halfWeights       F16 copies of the quantized weights on the device besides the quantized ones (a
 *                          full set is about four times a Q4_0 model's size), so prefill and large batches
 *                          skip dequantizing each step: faster under load. {@code auto}: as many as fit in
 *                          {@value #AUTO_HALF_WEIGHT_SHARE} of the device memory free when the model loads;
 *                          {@code on}: while device memory lasts; {@code off}: none
 */
@ConfigurationProperties("llmserve.gpu")
public record GpuProperties(
        @DefaultValue("auto") RuntimeChoice runtime,
        @DefaultValue("5s") Duration telemetryInterval,
        @DefaultValue("auto") HalfWeights halfWeights) {

    /** Whether the GPU backend keeps F16 copies of the quantized weights. */
    public enum HalfWeights {
        AUTO,
        ON,
        OFF
    }

    /** The share of free device memory that {@link HalfWeights#AUTO} gives half copies: the KV cache and activations keep the rest. */
    public static final double AUTO_HALF_WEIGHT_SHARE = 0.5;

    public GpuProperties {
        if (telemetryInterval.isNegative() || telemetryInterval.isZero()) {
            throw new IllegalArgumentException(
                    "llmserve.gpu.telemetry-interval must be positive: " + telemetryInterval);
        }
    }

    /** The GPU backend's tuning for models placed on this runtime's devices. */
    public GpuOptions backendOptions() {
        return GpuOptions.defaults()
                .withHalfWeightShare(
                        switch (halfWeights) {
                            case AUTO -> AUTO_HALF_WEIGHT_SHARE;
                            case ON -> 1;
                            case OFF -> 0;
                        });
    }
}
