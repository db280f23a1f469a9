package com.llmserve.app.models;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code llm.model.state}: for each model and each state (loading, ready, failed), 1 while the
 * model is in it, else 0, as kube-state-metrics writes states; so a load that failed is on the
 * dashboard and can raise an alert, not only in the log. The rows follow the registry: a model
 * added while the service runs gets its rows, and a removed one loses them (no gauge of a model
 * that is not served).
 */
final class ModelStateMeters implements MeterBinder {

    private final ModelRegistry registry;
    private volatile MultiGauge states;

    ModelStateMeters(ModelRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void bindTo(MeterRegistry meters) {
        states = MultiGauge.builder("llm.model.state")
                .description("1 while the model is in this state (loading, ready, failed), else 0")
                .register(meters);
        registry.onChange(this::refresh);
        refresh();
    }

    /** Synchronized so that rows from an older look at the registry never replace newer ones. */
    private synchronized void refresh() {
        List<MultiGauge.Row<?>> rows = new ArrayList<>();
        for (ModelRegistry.Status status : registry.statuses()) {
            String id = status.id();
            for (ModelRegistry.State state : ModelRegistry.State.values()) {
                rows.add(
                        MultiGauge.Row.of(Tags.of("model", id, "state", state.apiName()), () -> in(id, state) ? 1 : 0));
            }
        }
        // rows of models no longer listed are removed; existing rows stay as they are (their values
        // read the registry): overwriting would remove and re-add them, and a scrape or a reader in
        // between would miss a model's rows
        states.register(rows, false);
    }

    private boolean in(String id, ModelRegistry.State state) {
        return registry.statuses().stream().anyMatch(s -> s.id().equals(id) && s.state() == state);
    }
}
