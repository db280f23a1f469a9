package com.llmserve.app.models;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * {@code llm.model.state}: for each model and each state (loading, ready, failed), 1 while the
 * model is in it, else 0, as kube-state-metrics writes states; so a load that failed is on the
 * dashboard and can raise an alert, not only in the log.
 */
final class ModelStateMeters implements MeterBinder {

    private final ModelRegistry registry;

    ModelStateMeters(ModelRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void bindTo(MeterRegistry meters) {
        for (ModelRegistry.Status status : registry.statuses()) {
            String id = status.id();
            for (ModelRegistry.State state : ModelRegistry.State.values()) {
                Gauge.builder("llm.model.state", () -> in(id, state) ? 1 : 0)
                        .description("1 while the model is in this state (loading, ready, failed), else 0")
                        .tag("model", id)
                        .tag("state", state.apiName())
                        .register(meters);
            }
        }
    }

    private boolean in(String id, ModelRegistry.State state) {
        return registry.statuses().stream().anyMatch(s -> s.id().equals(id) && s.state() == state);
    }
}
