package com.llmserve.gpu;

/** Activations the DNN library (MIOpen) applies element-wise. */
public enum Activation {
    RELU,
    TANH,
    LOGISTIC
}
