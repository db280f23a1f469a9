package com.llmserve.app.models;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.app.TestModels;
import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.BackendChoice;
import com.llmserve.engine.backend.cpu.CpuBackend;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** {@code llm.model.state} follows models that come and go: no row of a model that is not served. */
class ModelStateMetersTests {

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private ModelRegistry registry;

    @BeforeAll
    static void folder() {
        TestModels.folder();
    }

    @AfterEach
    void stop() {
        registry.stop();
    }

    @Test
    void aModelAddedGetsItsRowsAndARemovedOneLosesThem() throws Exception {
        ServingProperties p = new Binder(new MapConfigurationPropertySource(Map.of(
                        "llmserve.models-dir", TestModels.DIR,
                        "llmserve.scan-models-dir", "false",
                        "llmserve.warm-up", "false",
                        "llmserve.engine.kv-blocks", "64")))
                .bindOrCreate("llmserve", ServingProperties.class);
        BackendProvider cpu = new BackendProvider() {
            @Override
            public boolean available(BackendChoice choice) {
                return choice != BackendChoice.GPU;
            }

            @Override
            public Backend create(BackendChoice choice, String modelId) {
                return new CpuBackend(1);
            }
        };
        ModelCatalog catalog = new ModelCatalog(p, cpu);
        registry = new ModelRegistry(catalog.startup(), new ModelLoader(p, cpu), false);
        new ModelStateMeters(registry).bindTo(meters);
        registry.start();
        assertThat(meters.find("llm.model.state").gauges()).isEmpty();

        registry.add(catalog.plan(TestModels.file(TestModels.TEXT), "story", null));
        assertThat(registry.awaitSettled(Duration.ofMinutes(1))).isTrue();

        assertThat(state("story", "ready")).isEqualTo(1);
        assertThat(state("story", "loading")).isEqualTo(0);
        assertThat(meters.find("llm.model.state").gauges()).hasSize(3);

        registry.remove("story");

        assertThat(meters.find("llm.model.state").gauges()).isEmpty();
    }

    private double state(String model, String state) {
        Gauge gauge = meters.get("llm.model.state")
                .tag("model", model)
                .tag("state", state)
                .gauge();
        return gauge.value();
    }
}
