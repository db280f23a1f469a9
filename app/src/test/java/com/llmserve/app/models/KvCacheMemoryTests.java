package com.llmserve.app.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.llmserve.app.TestModels;
import com.llmserve.app.resilience.FailoverProperties;
import com.llmserve.app.resilience.HostMemory;
import com.llmserve.app.resilience.ServingPolicies;
import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.BackendChoice;
import com.llmserve.engine.backend.KvCacheType;
import com.llmserve.engine.backend.cpu.CpuBackend;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How big a model's KV cache is. On a GPU with no block count set: the engine's share of the
 * device's free memory once the weights are up, split with the GPU models still to load at startup
 * (a stand-in GPU reports 1 GiB free); a CPU copy and a CPU model get the CPU default, and a set
 * count wins everywhere. On the CPU, a cache the host cannot hold is refused at load, saying what
 * it needs: it was allocated (and zeroed) first, so a block count set far too high, in the
 * configuration or in an admin request (ModelAdminFuzzTests found it), took the host's memory or
 * minutes of writing.
 */
class KvCacheMemoryTests {

    @TempDir
    Path root;

    /** stories260K on the CPU with {@code kvBlocks} blocks, on a host with 100 MiB available. */
    private ServedModel load(int kvBlocks) throws Exception {
        return load("cpu", kvBlocks, 0);
    }

    /**
     * stories260K on {@code backend} with {@code kvBlocks} blocks (0 for none set) while
     * {@code laterGpuModels} wait, on a host with 100 MiB available and a stand-in GPU with 1 GiB free.
     */
    private ServedModel load(String backend, int kvBlocks, int laterGpuModels) throws Exception {
        return load(backend, kvBlocks, laterGpuModels, 1L << 30);
    }

    private ServedModel load(String backend, int kvBlocks, int laterGpuModels, long gpuFree) throws Exception {
        return load(TestModels.TEXT, "f16", backend, kvBlocks, laterGpuModels, gpuFree);
    }

    /** {@code model} with a KV cache of type {@code kvCacheType} ({@code llmserve.engine.kv-cache-type}). */
    private ServedModel load(
            String model, String kvCacheType, String backend, int kvBlocks, int laterGpuModels, long gpuFree)
            throws Exception {
        Files.createDirectories(root.resolve("proc"));
        Files.writeString(root.resolve("proc/meminfo"), "MemTotal: 1048576 kB\nMemAvailable: 102400 kB\n");
        ServingProperties p = ModelsTestSupport.properties(Map.of(
                "llmserve.models-dir",
                TestModels.shared().resolve("models").toString(),
                "llmserve.scan-models-dir",
                "false",
                "llmserve.engine.kv-cache-type",
                kvCacheType,
                "llmserve.models[0].path",
                TestModels.file(model).toString(),
                "llmserve.models[0].backend",
                backend,
                "llmserve.models[0].kv-blocks",
                String.valueOf(kvBlocks)));
        BackendProvider cpu = new BackendProvider() {
            @Override
            public boolean available(BackendChoice choice) {
                return true;
            }

            @Override
            public Backend create(BackendChoice choice, String modelId) {
                return choice == BackendChoice.GPU ? new StandInGpu(gpuFree) : new CpuBackend(1);
            }
        };
        ServingPolicies policies =
                ModelsTestSupport.policies(FailoverProperties.CpuFallback.AUTO, new HostMemory(root));
        return new ModelLoader(p, cpu, policies, ModelObservers.NONE)
                .load(new ModelCatalog(p, cpu).startup().plans().getFirst(), laterGpuModels);
    }

    /** A GPU stand-in (the CPU's arithmetic) whose device has {@code free} bytes free. */
    private static final class StandInGpu extends CpuBackend {
        private final long free;

        StandInGpu(long free) {
            super("gpu:0", 1, true);
            this.free = free;
        }

        @Override
        public boolean accelerated() {
            return true;
        }

        @Override
        public OptionalLong freeMemory() {
            return OptionalLong.of(free);
        }
    }

    /** Each replica's blocks (its engine reports them less the pool's reserved block 0). */
    private static List<Integer> kvBlocks(ServedModel model) {
        return ((ServedTextModel) model)
                .replicas().stream()
                        .map(r -> r.engine().stats().kvBlocksTotal() + 1)
                        .toList();
    }

    @Test
    void onAGpuWithNoCountSetTheCacheTakesItsShareOfTheFreeMemoryAndACpuCopyTheCpuDefault() throws Exception {
        // 10 KiB a block: 0.8 of 64 MiB is 5,242 blocks; with 2 GPU models still to load, a third of it
        try (ServedModel alone = load("gpu", 0, 0, 64L << 20);
                ServedModel first = load("gpu", 0, 2, 64L << 20)) {
            assertThat(kvBlocks(alone)).containsExactly(5_242, 1024);
            assertThat(kvBlocks(first)).containsExactly(1_747, 1024);
        }
    }

    @Test
    void noMoreThanTheRunningSequencesCanFill() throws Exception {
        // 0.8 of 1 GiB would be 83,886 blocks; 64 sequences of stories260K's 2,048 tokens fill 8,192 (+ 1 reserved)
        try (ServedModel model = load("gpu", 0, 0, 1L << 30)) {
            assertThat(kvBlocks(model)).containsExactly(8_193, 1024);
        }
    }

    @Test
    void aSetCountWinsOnEveryReplica() throws Exception {
        try (ServedModel model = load("gpu", 64, 0)) {
            assertThat(kvBlocks(model)).containsExactly(64, 64);
        }
    }

    @Test
    void aCacheTheHostCannotHoldIsRefusedSayingWhatItNeeds() {
        // stories260K: 5 layers of 32 key and value halves per slot, 16 slots a block: 10 KiB a block
        assertThatThrownBy(() -> load(1_000_000).close())
                .hasMessageContaining("KV cache on the CPU needs 9765 MiB")
                .hasMessageContaining("100 MiB available");
    }

    @Test
    void aCacheThatFitsLoads() throws Exception {
        try (ServedModel model = load(1024)) {
            assertThat(model.id()).isEqualTo(TestModels.TEXT);
        }
    }

    /** A model whose heads hold whole Q8_0 blocks (a multiple of 32 values): tiny (llama). */
    private static final String Q8_MODEL = "tiny-Q8_0";

    @Test
    void aQ8CacheCountsItsRealBytesSoTheSameMemoryHoldsAboutTwiceTheBlocks() throws Exception {
        // 34 bytes per 32 values instead of 64: 0.8 of the same free memory holds 64/34 = 1.88x the blocks
        try (ServedModel f16 = load(Q8_MODEL, "f16", "gpu", 0, 0, 8L << 20);
                ServedModel q8 = load(Q8_MODEL, "q8_0", "gpu", 0, 0, 8L << 20)) {
            int f16Blocks = kvBlocks(f16).getFirst();
            int q8Blocks = kvBlocks(q8).getFirst();
            assertThat((double) q8Blocks / f16Blocks).isCloseTo(64.0 / 34, within(0.01));
            assertThat(((ServedTextModel) q8).kvCacheType()).isEqualTo(KvCacheType.Q8_0);
            assertThat(((ServedTextModel) f16).kvCacheType()).isEqualTo(KvCacheType.F16);
        }
    }

    @Test
    void aQ8CacheTheHostCannotHoldIsRefusedWithItsRealSize() {
        // the same blocks need 34/64 of the F16 cache's memory
        String f16 = messageOf(
                () -> load(Q8_MODEL, "f16", "cpu", 1_000_000, 0, 1L << 30).close());
        String q8 = messageOf(
                () -> load(Q8_MODEL, "q8_0", "cpu", 1_000_000, 0, 1L << 30).close());
        long f16MiB = Long.parseLong(f16.replaceAll(".*needs (\\d+) MiB.*", "$1"));
        long q8MiB = Long.parseLong(q8.replaceAll(".*needs (\\d+) MiB.*", "$1"));
        assertThat((double) q8MiB / f16MiB).isCloseTo(34.0 / 64, within(0.001));
    }

    @Test
    void aQ8CacheForHeadsOfOtherSizesIsRefusedAtLoadNamingTheSetting() {
        // stories260K: heads of 8 values, no whole Q8_0 block
        assertThatThrownBy(() ->
                        load(TestModels.TEXT, "q8_0", "cpu", 64, 0, 1L << 30).close())
                .hasMessageContaining("heads of 8 values")
                .hasMessageContaining("llmserve.engine.kv-cache-type");
    }

    private static String messageOf(org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
        Throwable t = org.assertj.core.api.Assertions.catchThrowable(call);
        assertThat(t).isNotNull();
        return t.getMessage();
    }
}
