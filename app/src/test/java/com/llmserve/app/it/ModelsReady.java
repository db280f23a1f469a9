package com.llmserve.app.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.app.models.ModelRegistry;
import java.time.Duration;

/** Waits for the test server's models, which load in the background after startup. */
final class ModelsReady {

    private ModelsReady() {}

    static void await(ModelRegistry registry) throws InterruptedException {
        assertThat(registry.awaitSettled(Duration.ofMinutes(2)))
                .as("models loaded")
                .isTrue();
        assertThat(registry.statuses())
                .allMatch(s -> s.state() == ModelRegistry.State.READY, "every test model is ready");
    }
}
