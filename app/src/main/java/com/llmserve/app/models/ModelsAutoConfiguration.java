package com.llmserve.app.models;

import com.llmserve.app.gpu.GpuProperties;
import com.llmserve.app.gpu.GpuRuntime;
import com.llmserve.app.resilience.ServingPolicies;
import com.llmserve.engine.backend.Backends;
import com.llmserve.engine.backend.cpu.CpuKernels;
import com.llmserve.engine.backend.gpu.GpuOptions;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnExpression;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;

/**
 * Wires the model registry: the backends (replaceable by an application's own), the models
 * folder's watcher, the admin operations, the request leases on models and the {@code model}
 * health component. An auto-configuration, so that an application's own
 * {@link BackendProvider} is seen before the default backs off.
 */
@AutoConfiguration
@EnableConfigurationProperties(ServingProperties.class)
public class ModelsAutoConfiguration {

    /**
     * Models on the GPUs of the runtime's pool when there is one (the service always opens it),
     * else on the CPU; GPU tuning from {@code llmserve.gpu.*}, or the engine's defaults without it.
     */
    @Bean
    @ConditionalOnMissingBean
    BackendProvider backendProvider(
            ServingProperties properties, ObjectProvider<GpuRuntime> runtime, ObjectProvider<GpuProperties> gpu) {
        int threads = properties.effectiveCpuThreads();
        GpuOptions options =
                gpu.stream().findFirst().map(GpuProperties::backendOptions).orElseGet(GpuOptions::defaults);
        Optional<GpuRuntime> opened = runtime.stream().findFirst();
        Backends backends = opened.flatMap(GpuRuntime::pool)
                .map(pool -> new Backends(pool, threads, options))
                .orElseGet(() -> Backends.cpuOnly(
                        threads,
                        opened.map(r -> String.join("; ", r.statuses())).orElse("no GPU runtime in this application")));
        return new DefaultBackendProvider(backends.withBatchInvariant(
                        properties.engine().batchInvariant().cpu(),
                        properties.engine().batchInvariant().gpu())
                .withCpuKernels(CpuKernels.parse(properties.engine().cpuKernels())));
    }

    /**
     * The policies and meters are optional so that the registry also runs in a bare context (the
     * service always has both): without them models get our default policies and no meters.
     */
    @Bean
    ModelRegistry modelRegistry(
            ServingProperties properties,
            BackendProvider backends,
            ObjectProvider<ServingPolicies> policies,
            ObjectProvider<ModelObservers> observers) {
        ModelLoader loader = new ModelLoader(
                properties,
                backends,
                policies.getIfAvailable(ServingPolicies::defaults),
                observers.getIfAvailable(() -> ModelObservers.NONE));
        return new ModelRegistry(new ModelCatalog(properties, backends).startup(), loader, properties.warmUp());
    }

    /** Files added to, changed in and removed from the models folder, while the service runs. */
    @Bean
    @ConditionalOnExpression("${llmserve.scan-models-dir:true} and ${llmserve.watch.enabled:true}")
    ModelFolderWatcher modelFolderWatcher(
            ServingProperties properties, BackendProvider backends, ModelRegistry registry) {
        return new ModelFolderWatcher(
                new ModelCatalog(properties, backends), registry, properties.watch(), System::nanoTime);
    }

    @Bean
    @ConditionalOnBooleanProperty(name = "llmserve.admin.enabled", matchIfMissing = true)
    ModelAdmin modelAdmin(ServingProperties properties, BackendProvider backends, ModelRegistry registry) {
        return new ModelAdmin(
                new ModelCatalog(properties, backends),
                registry,
                properties.admin().allowAnyPath());
    }

    /** Holds the models a request uses until its response is complete, so removing a model never cuts an answer. */
    @Bean
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    FilterRegistrationBean<ModelLeaseFilter> modelLeaseFilter() {
        return new FilterRegistrationBean<>(new ModelLeaseFilter());
    }

    @Bean
    MeterBinder modelStateMeters(ModelRegistry registry) {
        return new ModelStateMeters(registry);
    }

    @Bean
    HealthIndicator modelHealthIndicator(ModelRegistry registry) {
        return new ModelHealthIndicator(registry);
    }
}
