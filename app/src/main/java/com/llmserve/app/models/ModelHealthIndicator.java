package com.llmserve.app.models;

import com.llmserve.app.resilience.Failover;
import com.llmserve.engine.sched.EngineStats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

/**
 * The {@code model} health component, part of the readiness group: out of service while any
 * model loads, down when a configured model failed or nothing can be served, up otherwise. A file
 * of the models folder that fails is shown in the details without taking the service down, as
 * one broken download should not stop the other models; so are the folder's files that are not
 * served ({@code skipped}: not GGUF, truncated, an unsupported architecture, an id taken), with why.
 */
final class ModelHealthIndicator implements HealthIndicator {

    private final ModelRegistry registry;

    ModelHealthIndicator(ModelRegistry registry) {
        this.registry = registry;
    }

    @Override
    public Health health() {
        List<ModelRegistry.Status> statuses = registry.statuses();
        Map<String, Object> details = new LinkedHashMap<>();
        for (ModelRegistry.Status s : statuses) {
            details.put(s.id(), details(s));
        }
        Health.Builder health = Health.status(status(statuses));
        if (statuses.isEmpty()) {
            health.withDetail(
                    "message",
                    "no models to serve: put GGUF files in the models folder (MODELS_DIR) or configure llm.models");
        }
        health.withDetail("models", details);
        List<SkippedFile> skipped = registry.skipped();
        if (!skipped.isEmpty()) {
            health.withDetail(
                    "skipped",
                    skipped.stream().map(ModelHealthIndicator::details).toList());
        }
        return health.build();
    }

    private static Status status(List<ModelRegistry.Status> statuses) {
        if (statuses.stream().anyMatch(s -> s.state() == ModelRegistry.State.LOADING)) {
            return Status.OUT_OF_SERVICE;
        }
        boolean configuredFailed = statuses.stream()
                .anyMatch(
                        s -> s.state() == ModelRegistry.State.FAILED && s.plan().configured());
        boolean anyReady = statuses.stream().anyMatch(s -> s.state() == ModelRegistry.State.READY);
        return configuredFailed || !anyReady ? Status.DOWN : Status.UP;
    }

    private static Map<String, Object> details(SkippedFile f) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("file", f.file().toString());
        d.put("id", f.id());
        d.put("reason", f.reason());
        return d;
    }

    /** Each GPU replica of a model placed on several: its device, breaker and requests in flight. */
    private static List<Map<String, Object>> replicas(ReplicatedModel<?, ?> model) {
        List<Map<String, Object>> out = new ArrayList<>();
        int[] inFlight = model.inFlight();
        List<Failover> failovers = model.failovers();
        for (int i = 0; i < failovers.size(); i++) {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("device", model.replicas().get(i).device());
            r.put("circuitBreaker", failovers.get(i).breakerState());
            r.put("inFlight", inFlight[i]);
            out.add(r);
        }
        return out;
    }

    private static Map<String, Object> details(ModelRegistry.Status s) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("state", s.state().apiName());
        d.put("kind", s.plan().kindName());
        d.put("architecture", s.plan().architecture());
        d.put("file", s.plan().path().toString());
        if (s.loadTime() != null) {
            d.put("loadMillis", s.loadTime().toMillis());
        }
        if (s.error() != null) {
            d.put("error", s.error());
        }
        ServedModel model = s.model();
        if (model != null) {
            d.put("backend", model.backendDescription());
            List<Failover> failovers = model.failovers();
            if (failovers.size() == 1) {
                d.put("circuitBreaker", failovers.getFirst().breakerState());
            }
            if (model instanceof ReplicatedModel<?, ?> replicated && failovers.size() > 1) {
                d.put("replicas", replicas(replicated));
            }
            d.put("maxModelLen", model.maxModelLen());
        }
        switch (model) {
            case ServedTextModel m -> {
                EngineStats st = m.stats();
                d.put("waitingRequests", st.waitingRequests());
                d.put("runningSequences", st.runningSequences());
                d.put("kvBlocksUsed", st.kvBlocksUsed());
                d.put("kvBlocksTotal", st.kvBlocksTotal());
                d.put("kvCacheType", m.kvCacheType().id());
                d.put(
                        "prefixCacheHitRate",
                        st.prefixCacheQueries() == 0 ? 0.0 : (double) st.prefixCacheHits() / st.prefixCacheQueries());
                d.put("promptTokens", st.promptTokens());
                d.put("generatedTokens", st.generatedTokens());
                d.put("preemptions", st.preemptions());
            }
            case ServedEmbeddingModel m -> {
                d.put("dimensions", m.dimensions());
                d.put("waitingRequests", m.waitingRequests());
                d.put("embeddedInputs", m.embeddedInputs());
                d.put("batches", m.batches());
            }
            case null -> {}
        }
        return d;
    }
}
