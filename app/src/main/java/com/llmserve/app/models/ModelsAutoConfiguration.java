package com.llmserve.app.models;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * Wires the model registry: the backends (replaceable, so a GPU build can bring its own) and the
 * {@code model} health component. An auto-configuration, so that an application's own
 * {@link BackendProvider} is seen before the default backs off.
 */
@AutoConfiguration
@EnableConfigurationProperties(ServingProperties.class)
public class ModelsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    BackendProvider backendProvider(ServingProperties properties) {
        return new CpuBackendProvider(properties.effectiveCpuThreads());
    }

    @Bean
    ModelRegistry modelRegistry(ServingProperties properties, BackendProvider backends) {
        ModelLoader loader = new ModelLoader(properties, backends);
        return new ModelRegistry(ModelCatalog.plan(properties, backends), loader, properties.warmUp());
    }

    @Bean
    HealthIndicator modelHealthIndicator(ModelRegistry registry) {
        return new ModelHealthIndicator(registry);
    }
}
