package com.llmserve.app.models;

/** Where a model runs. */
public enum BackendChoice {
    /** A GPU when the runtime found one, else the CPU. */
    AUTO,
    /** The Vector API backend; always available. */
    CPU,
    /** A GPU (HIP or CUDA); refused at startup when no GPU answers. */
    GPU
}
