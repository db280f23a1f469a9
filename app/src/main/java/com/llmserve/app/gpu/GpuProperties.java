package com.llmserve.app.gpu;

import com.llmserve.engine.backend.gpu.GpuOptions;
import com.llmserve.gpu.BackendChoice;

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
 * @param halfWeights       keep an F16 copy of every quantized weight on the device besides the quantized one
 *                          (about four times a Q4_0 model's size more device memory, taken while it lasts),
 *                          so prefill and large batches skip dequantizing each step: faster under load
 */
@ConfigurationProperties("llmserve.gpu")
public record GpuProperties(@DefaultValue("auto") BackendChoice runtime,
                            @DefaultValue("5s") Duration telemetryInterval,
                            @DefaultValue("false") boolean halfWeights) {

    public GpuProperties {
        if (telemetryInterval.isNegative() || telemetryInterval.isZero()) {
            throw new IllegalArgumentException("llmserve.gpu.telemetry-interval must be positive: " + telemetryInterval);
        }
    }

    /** The GPU backend's tuning for models placed on this runtime's devices. */
    public GpuOptions backendOptions() {
        return GpuOptions.defaults().withHalfWeights(halfWeights);
    }
}
