package com.llmserve.gpu;

import static org.junit.jupiter.api.Assumptions.assumeFalse;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;

/**
 * GPU tests run against every device of whichever backend discovery picks (the same test on
 * HIP and CUDA) and skip, by assumption, where none answers.
 */
@Tag("gpu")
abstract class GpuTestBase {

    static DevicePool pool;

    @BeforeAll
    static void openPool() {
        pool = DevicePool.open(RuntimeChoice.AUTO);
        assumeFalse(pool.isEmpty(), () -> "no GPU: " + pool.statuses());
    }

    @AfterAll
    static void closePool() {
        if (pool != null) pool.close();
        pool = null;
    }

    static java.util.stream.Stream<Device> devices() {
        return pool.devices().stream();
    }
}
