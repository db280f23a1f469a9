package com.llmserve.app.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.llmserve.app.gpu.GpuProperties;
import com.llmserve.engine.backend.KvCacheType;
import com.llmserve.engine.backend.gpu.GpuOptions;
import com.llmserve.engine.model.ModelOptions;
import com.llmserve.engine.sched.EmbeddingOptions;
import com.llmserve.engine.sched.EngineOptions;
import java.util.Map;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** The engine's option records own the defaults: the service's properties add none of their own. */
class EngineDefaultsTests {

    private static <T> T bind(String prefix, Class<T> type, Map<String, String> values) {
        return new Binder(new MapConfigurationPropertySource(values)).bindOrCreate(prefix, type);
    }

    @Test
    void anEmptyConfigurationBindsToExactlyTheEnginesDefaults() {
        ServingProperties serving = bind("llmserve", ServingProperties.class, Map.of());
        GpuProperties gpu = bind("llmserve.gpu", GpuProperties.class, Map.of());

        // no block count set: sized from the device on a GPU, the engine's default on the CPU
        assertThat(serving.engine().configuredKvBlocks(0)).isZero();
        assertThat(serving.engine().options(EngineOptions.DEFAULT_KV_BLOCKS, EngineOptions.DEFAULT_TIMEOUT))
                .isEqualTo(EngineOptions.defaults());
        assertThat(serving.engine().modelOptions(ModelOptions.DEFAULT_CONTEXT_LENGTH))
                .isEqualTo(ModelOptions.DEFAULT);
        assertThat(serving.embedding().options(false)).isEqualTo(EmbeddingOptions.defaults(false));
        assertThat(serving.embedding().options(true)).isEqualTo(EmbeddingOptions.defaults(true));
        assertThat(gpu.backendOptions()).isEqualTo(GpuOptions.defaults());
        assertThat(serving.effectiveCpuThreads()).isEqualTo(Runtime.getRuntime().availableProcessors());
    }

    @Test
    void aConfiguredModelServesItsOwnContextByDefault() {
        ServingProperties serving = bind("llmserve", ServingProperties.class, Map.of("llmserve.models[0].path", "a"));

        assertThat(serving.models().getFirst().contextSize()).isEqualTo(ModelOptions.DEFAULT_CONTEXT_LENGTH);
    }

    @ParameterizedTest
    @CsvSource({"f16, F16", "q8_0, Q8_0", "Q8_0, Q8_0"})
    void theKvCacheTypeReachesTheModelOptions(String value, KvCacheType type) {
        ServingProperties serving =
                bind("llmserve", ServingProperties.class, Map.of("llmserve.engine.kv-cache-type", value));

        assertThat(serving.engine().modelOptions(0).kvCacheType()).isEqualTo(type);
        assertThat(ModelOptions.DEFAULT.kvCacheType()).isEqualTo(KvCacheType.F16);
    }

    @Test
    void overlappingStepsCanBeTurnedOff() {
        ServingProperties serving =
                bind("llmserve", ServingProperties.class, Map.of("llmserve.engine.overlap-steps", "false"));

        assertThat(EngineOptions.defaults().overlapSteps()).isTrue();
        assertThat(serving.engine().options(64, EngineOptions.DEFAULT_TIMEOUT))
                .isEqualTo(EngineOptions.defaults().withKvBlocks(64).withOverlapSteps(false));
    }

    @Test
    void everyGpuOptionIsReachable() {
        GpuProperties gpu = bind(
                "llmserve.gpu",
                GpuProperties.class,
                Map.ofEntries(
                        Map.entry("llmserve.gpu.graphs", "false"),
                        Map.entry("llmserve.gpu.max-graph-rows", "32"),
                        Map.entry("llmserve.gpu.gemm-min-rows", "16"),
                        Map.entry("llmserve.gpu.mmq-max-rows", "48"),
                        Map.entry("llmserve.gpu.expert-tensor-cores", "false"),
                        Map.entry("llmserve.gpu.half-tensor-products", "false"),
                        Map.entry("llmserve.gpu.max-graphs", "8"),
                        Map.entry("llmserve.gpu.dequant-band", "16MB"),
                        Map.entry("llmserve.gpu.upload-chunk", "128MB"),
                        Map.entry("llmserve.gpu.half-weight-share", "0.25"),
                        Map.entry("llmserve.gpu.peer-all-reduce", "false"),
                        Map.entry("llmserve.gpu.dependent-launches", "false")));

        assertThat(gpu.backendOptions())
                .isEqualTo(new GpuOptions(
                        false, 32, 16, 48, false, false, 8, 16L << 20, 128L << 20, 0.25, false, false, false));
    }

    @ParameterizedTest
    @CsvSource({
        "llmserve.engine.kv-blocks, 1",
        "llmserve.engine.block-size, 0",
        "llmserve.engine.max-batch-tokens, 0",
        "llmserve.engine.max-running, 0",
        "llmserve.engine.max-waiting, -1",
        "llmserve.embedding.max-wait, -1ms",
        "llmserve.embedding.max-waiting, -1",
        "llmserve.gpu.max-graph-rows, 0",
        "llmserve.gpu.gemm-min-rows, 0",
        "llmserve.gpu.max-graphs, 0",
        "llmserve.gpu.dequant-band, 512KB",
        "llmserve.gpu.upload-chunk, 0B",
        "llmserve.gpu.half-weight-share, 1.5",
        "llmserve.engine.kv-cache-type, fp8"
    })
    void aValueOutOfRangeIsRefusedNamingItsProperty(String property, String value) {
        String prefix = property.startsWith("llmserve.gpu.") ? "llmserve.gpu" : "llmserve";
        Class<?> type = prefix.equals("llmserve") ? ServingProperties.class : GpuProperties.class;

        assertThatThrownBy(() -> bind(prefix, type, Map.of(property, value)))
                .rootCause()
                .isInstanceOf(IllegalArgumentException.class)
                .asInstanceOf(InstanceOfAssertFactories.THROWABLE)
                .hasMessageStartingWith(property + " must ");
    }
}
