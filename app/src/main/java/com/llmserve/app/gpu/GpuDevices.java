package com.llmserve.app.gpu;

import java.util.List;

/** The GPUs this process opened (none on a CPU machine), and why discovery found what it found. */
public interface GpuDevices {

    /** A process without GPUs. */
    GpuDevices NONE = new GpuDevices() {
        @Override
        public List<GpuDevice> devices() {
            return List.of();
        }

        @Override
        public List<String> statuses() {
            return List.of("GPU runtime disabled");
        }
    };

    List<GpuDevice> devices();

    /** One line per GPU backend considered, in the vendor's words ({@code hip: unavailable, hipErrorNoDevice ...}). */
    List<String> statuses();
}
