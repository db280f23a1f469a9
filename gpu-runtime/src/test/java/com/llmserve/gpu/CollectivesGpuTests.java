package com.llmserve.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.llmserve.gpu.cuda.nccl_h;
import com.llmserve.gpu.hip.rccl_h;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * NCCL (RCCL on AMD) over every device of the pool: a world of one on a one-GPU host (the result
 * is the input), the sum over N devices otherwise; f32 and f16, both ways of creating the
 * communicators ({@code ncclCommInitAll}; {@code ncclGetUniqueId} + {@code ncclCommInitRank}, which
 * passes the 128-byte id by value), checked on the host. Skipped with the reason when the library
 * is not found, unless a path to it was given ({@code llmserve.gpu.nccl-library} or
 * {@code LLMSERVE_NCCL_LIBRARY}, which {@code run-gpu-tests.sh} sets from the host's Python
 * {@code nvidia.nccl}): then a library that does not load fails the test.
 */
@RequiresGpu
class CollectivesGpuTests {

    @ParameterizedTest
    @CsvSource({"ALL, F32, 1048583, 0", "ALL, F16, 1048583, 7", "UNIQUE_ID, F32, 4099, 13", "UNIQUE_ID, F16, 65, 1"})
    void allReduceSumsOverEveryDevice(Collectives.Init init, BlasType type, int count, int offset, DevicePool pool)
            throws InterruptedException {
        BackendStatus status = Collectives.status(pool);
        GpuReport.line("collectives %s", status);
        assumeTrue(status.available() || explicitLibrary(pool.vendor().orElseThrow()), status.detail());
        assertThat(status.available()).as(status.detail()).isTrue();
        long start = System.nanoTime();
        try (Collectives comms = Collectives.open(pool, init)) {
            assertThat(comms.size()).isEqualTo(pool.devices().size());
            long elements = CollectiveCheck.allReduceAndCheck(comms, type, count, offset);
            comms.checkAsyncErrors();
            GpuReport.line(
                    "all-reduce %s %s over %d device(s) (%s, init %s): %d elements checked, %.1f ms with set-up",
                    comms.library(),
                    comms.version(),
                    comms.size(),
                    type,
                    init,
                    elements,
                    (System.nanoTime() - start) / 1e6);
        }
    }

    private static boolean explicitLibrary(Vendor vendor) {
        return switch (vendor) {
            case NVIDIA -> isSet(nccl_h.LIBRARY_PROPERTY, nccl_h.LIBRARY_ENV);
            case AMD -> isSet(rccl_h.LIBRARY_PROPERTY, rccl_h.LIBRARY_ENV);
        };
    }

    private static boolean isSet(String property, String env) {
        String value = System.getProperty(property, System.getenv(env));
        return value != null && !value.isBlank();
    }
}
