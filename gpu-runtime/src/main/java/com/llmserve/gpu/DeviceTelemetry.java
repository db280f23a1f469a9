package com.llmserve.gpu;

/**
 * One reading from the management library (NVML or rocm-smi).
 *
 * @param memoryUsed device memory in use by every process, bytes
 * @param memoryTotal device memory, bytes
 * @param utilizationPercent share of the last sample period the GPU was busy, 0-100
 * @param temperatureCelsius GPU (NVIDIA) or edge (AMD) temperature
 * @param powerWatts current board power draw
 */
public record DeviceTelemetry(
        long memoryUsed, long memoryTotal, int utilizationPercent, double temperatureCelsius, double powerWatts) {}
