package com.llmserve.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.llmserve.gpu.spi.StatusCheck;
import org.junit.jupiter.api.Test;

class StatusCheckTests {

    private static final StatusCheck CHECK = new StatusCheck("hip", new StatusCheck.Decoder() {
        @Override
        public String name(int code) {
            return code == 2 ? "hipErrorOutOfMemory" : null;
        }

        @Override
        public String message(int code) {
            if (code == 3) throw new GpuUnavailableException("decoder symbol missing");
            return "out of memory";
        }

        @Override
        public boolean isOutOfMemory(int code) {
            return code == 2;
        }
    });

    @Test
    void successPassesSilently() {
        assertThatNoException().isThrownBy(() -> CHECK.check(0, "hipMalloc"));
    }

    @Test
    void anErrorCarriesCallCodeNameAndVendorMessage() {
        assertThatThrownBy(() -> CHECK.check(2, "hipMalloc")).isInstanceOfSatisfying(GpuCallException.class, e -> {
            assertThat(e.library()).isEqualTo("hip");
            assertThat(e.call()).isEqualTo("hipMalloc");
            assertThat(e.code()).isEqualTo(2);
            assertThat(e.codeName()).isEqualTo("hipErrorOutOfMemory");
            assertThat(e.vendorMessage()).isEqualTo("out of memory");
            assertThat(e.isOutOfMemory()).isTrue();
            assertThat(e).hasMessage("hipMalloc failed: hipErrorOutOfMemory (2): out of memory");
        });
    }

    @Test
    void aFailingDecoderDoesNotHideTheError() {
        assertThatThrownBy(() -> CHECK.check(3, "hipFree"))
                .isInstanceOf(GpuCallException.class)
                .hasMessage("hipFree failed: status 3 (3): no message");
    }

    @Test
    void stickyDriverErrorsMeanTheContextIsLostAndOthersDoNot() {
        assertThat(new GpuCallException(
                                "cuda",
                                "cuStreamSynchronize",
                                700,
                                "CUDA_ERROR_ILLEGAL_ADDRESS",
                                "illegal address",
                                false)
                        .isContextLost())
                .isTrue();
        assertThat(new GpuCallException(
                                "hip", "hipStreamSynchronize", 719, "hipErrorLaunchFailure", "launch failure", false)
                        .isContextLost())
                .isTrue();
        assertThat(new GpuCallException("cuda", "cuMemAlloc_v2", 2, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory", true)
                        .isContextLost())
                .isFalse();
        // a BLAS library's status says nothing of the context, even with a driver-like name
        assertThat(new GpuCallException(
                                "cublas", "cublasGemmEx", 13, "CUDA_ERROR_LAUNCH_FAILED", "execution failed", false)
                        .isContextLost())
                .isFalse();
    }
}
