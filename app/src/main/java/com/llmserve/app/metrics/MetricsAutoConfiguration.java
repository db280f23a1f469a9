package com.llmserve.app.metrics;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.context.annotation.Bean;

/** The models' meters: Spring Boot binds the {@link EngineMetrics} binder to its registry; the model loader feeds it. */
@AutoConfiguration
public class MetricsAutoConfiguration {

    @Bean
    EngineMetrics engineMetrics() {
        return new EngineMetrics();
    }
}
