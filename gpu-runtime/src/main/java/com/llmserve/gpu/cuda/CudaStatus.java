package com.llmserve.gpu.cuda;

import static com.llmserve.gpu.cuda.cuda_h.*;

import com.llmserve.gpu.spi.CStrings;
import com.llmserve.gpu.spi.StatusCheck;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** The status checks of the NVIDIA libraries, each decoding with the library's own strings. */
final class CudaStatus {

    private CudaStatus() {}

    static final StatusCheck CU = new StatusCheck("cuda", new StatusCheck.Decoder() {
        @Override
        public String name(int code) {
            return outString(code, true);
        }

        @Override
        public String message(int code) {
            return outString(code, false);
        }

        @Override
        public boolean isOutOfMemory(int code) {
            return code == CUDA_ERROR_OUT_OF_MEMORY;
        }

        private String outString(int code, boolean name) {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
                int rc = name ? cuGetErrorName(code, out) : cuGetErrorString(code, out);
                return rc == CUDA_SUCCESS ? CStrings.read(out.get(ValueLayout.ADDRESS, 0)) : null;
            }
        }
    });

    static final StatusCheck CUBLAS = new StatusCheck("cublas", new StatusCheck.Decoder() {
        @Override
        public String name(int code) {
            return CStrings.read(cublas_api_h.cublasGetStatusName(code));
        }

        @Override
        public String message(int code) {
            return CStrings.read(cublas_api_h.cublasGetStatusString(code));
        }

        @Override
        public boolean isOutOfMemory(int code) {
            return code == cublas_api_h.CUBLAS_STATUS_ALLOC_FAILED;
        }
    });

    static final StatusCheck NVML = new StatusCheck("nvml", new StatusCheck.Decoder() {
        @Override
        public String name(int code) {
            return "nvmlReturn " + code;
        }

        @Override
        public String message(int code) {
            return CStrings.read(nvml_h.nvmlErrorString(code));
        }

        @Override
        public boolean isOutOfMemory(int code) {
            return false;
        }
    });
}
