package com.llmserve.gpu.hip;

import com.llmserve.gpu.spi.CStrings;
import com.llmserve.gpu.spi.StatusCheck;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** The status checks of the ROCm libraries, each decoding with the library's own strings. */
final class HipStatus {

    private HipStatus() {}

    static final StatusCheck HIP = new StatusCheck("hip", new StatusCheck.Decoder() {
        @Override
        public String name(int code) {
            return CStrings.read(hip_runtime_api_h.hipGetErrorName(code));
        }

        @Override
        public String message(int code) {
            return CStrings.read(hip_runtime_api_h.hipGetErrorString(code));
        }

        @Override
        public boolean isOutOfMemory(int code) {
            return code == hip_runtime_api_h.hipErrorOutOfMemory;
        }
    });

    static final StatusCheck ROCBLAS = new StatusCheck("rocblas", new StatusCheck.Decoder() {
        @Override
        public String name(int code) {
            return CStrings.read(rocblas_h.rocblas_status_to_string(code));
        }

        @Override
        public String message(int code) {
            return name(code);
        }

        @Override
        public boolean isOutOfMemory(int code) {
            return code == rocblas_h.rocblas_status_memory_error;
        }
    });

    static final StatusCheck MIOPEN = new StatusCheck("miopen", new StatusCheck.Decoder() {
        @Override
        public String name(int code) {
            return "miopenStatus " + code;
        }

        @Override
        public String message(int code) {
            return CStrings.read(miopen_h.miopenGetErrorString(code));
        }

        @Override
        public boolean isOutOfMemory(int code) {
            return code == miopen_h.miopenStatusAllocFailed;
        }
    });

    static final StatusCheck RSMI = new StatusCheck("rocm-smi", new StatusCheck.Decoder() {
        @Override
        public String name(int code) {
            return "rsmi_status " + code;
        }

        @Override
        public String message(int code) {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
                return rocm_smi_h.rsmi_status_string(code, out) == 0
                        ? CStrings.read(out.get(ValueLayout.ADDRESS, 0))
                        : null;
            }
        }

        @Override
        public boolean isOutOfMemory(int code) {
            return false;
        }
    });
}
