package com.llmserve.app.models;

/** Where a model runs. */
public enum BackendChoice {
    /** The best backend this build offers: today the CPU. */
    AUTO,
    /** The Vector API backend; always available. */
    CPU,
    /** A GPU backend (HIP or CUDA); refused at startup while no GPU backend is built in. */
    GPU
}
