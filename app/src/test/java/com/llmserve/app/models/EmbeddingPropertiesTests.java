package com.llmserve.app.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.llmserve.engine.sched.EmbeddingOptions;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class EmbeddingPropertiesTests {

    @Test
    void theDefaultBatchBudgetDependsOnTheBackend() {
        ServingProperties.Embedding defaults = new ServingProperties.Embedding(0, Duration.ofMillis(2), 256);
        assertThat(defaults.batchTokens(false)).isEqualTo(EmbeddingOptions.DEFAULT_CPU_BATCH_TOKENS);
        assertThat(defaults.batchTokens(true)).isEqualTo(EmbeddingOptions.DEFAULT_GPU_BATCH_TOKENS);
    }

    @Test
    void aConfiguredBudgetHoldsOnEveryBackend() {
        ServingProperties.Embedding set = new ServingProperties.Embedding(4096, Duration.ZERO, 8);
        assertThat(set.batchTokens(false)).isEqualTo(4096);
        assertThat(set.batchTokens(true)).isEqualTo(4096);
    }

    @Test
    void aNegativeBudgetIsRefusedByName() {
        assertThatThrownBy(() -> new ServingProperties.Embedding(-1, Duration.ZERO, 8))
                .hasMessageContaining("llmserve.embedding.max-batch-tokens");
    }
}
