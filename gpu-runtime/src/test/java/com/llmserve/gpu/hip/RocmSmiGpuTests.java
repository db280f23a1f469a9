package com.llmserve.gpu.hip;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.llmserve.gpu.DevicePool;
import com.llmserve.gpu.GpuCallException;
import com.llmserve.gpu.RequiresGpu;
import com.llmserve.gpu.Vendor;
import org.junit.jupiter.api.Test;

/**
 * rocm-smi's failures on a device host, in rocm-smi's words: a reading of a device index it does
 * not have is its {@code RSMI_STATUS_INVALID_ARGS}, described by {@code rsmi_status_string}.
 * (No public path makes rocm-smi fail on a healthy device: the telemetry reads only the index it
 * matched by PCI address.) On AMD devices, or NVIDIA ones through hip-on-cuda.
 */
@RequiresGpu
class RocmSmiGpuTests {

    @Test
    void aReadingOfADeviceRocmSmiDoesNotHaveFailsInItsWords(DevicePool pool) {
        assumeTrue(pool.vendor().orElseThrow() == Vendor.AMD, "rocm-smi serves the HIP backend: " + pool.statuses());
        try (RocmSmi smi = RocmSmi.open()) {
            assumeTrue(smi.available(), "rocm-smi did not initialise on this host");
            GpuCallException e =
                    catchThrowableOfType(GpuCallException.class, () -> smi.read(HipOverFakeCuda.NO_SUCH_DEVICE));
            System.out.println("rocm-smi reading of device " + HipOverFakeCuda.NO_SUCH_DEVICE + ": " + e.getMessage());
            assertThat(e.library()).isEqualTo("rocm-smi");
            assertThat(e.code()).as("RSMI_STATUS_INVALID_ARGS").isEqualTo(1);
            assertThat(e.vendorMessage()).isNotBlank().isNotEqualTo("no message");
        }
    }
}
