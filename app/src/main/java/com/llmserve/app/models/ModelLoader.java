package com.llmserve.app.models;

import com.llmserve.app.resilience.CpuFallbackPolicy;
import com.llmserve.app.resilience.Failover;
import com.llmserve.app.resilience.ServingPolicies;
import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.BackendChoice;
import com.llmserve.engine.gguf.GgufFile;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a {@link ModelPlan} into a {@link ServedModel}, the same way for every kind (a
 * {@link ServedKind} says what differs): maps the file, loads the weights, starts the engine loop.
 * A model placed on an accelerator also gets, when the fallback policy allows, a second copy on the
 * CPU with its own loop, and a {@link Failover} that routes between the two.
 */
final class ModelLoader {

    private static final Logger LOG = LoggerFactory.getLogger(ModelLoader.class);
    private static final Duration WARM_UP_LIMIT = Duration.ofMinutes(5);

    private final ServingProperties properties;
    private final BackendProvider backends;
    private final ServingPolicies policies;
    private final ModelObservers observers;

    ModelLoader(
            ServingProperties properties,
            BackendProvider backends,
            ServingPolicies policies,
            ModelObservers observers) {
        this.properties = properties;
        this.backends = backends;
        this.policies = policies;
        this.observers = observers;
    }

    /** Without meters, with the default policies: for tests and tools. */
    ModelLoader(ServingProperties properties, BackendProvider backends) {
        this(properties, backends, ServingPolicies.defaults(), ModelObservers.NONE);
    }

    ServedModel load(ModelPlan plan) throws IOException {
        return load(plan, 0);
    }

    /**
     * Loads a model while {@code laterGpuModels} more models that may go on GPUs wait to load at
     * startup: a KV cache sized from a GPU's memory leaves them their part of it.
     */
    ServedModel load(ModelPlan plan, int laterGpuModels) throws IOException {
        // the later models spread over the GPUs as models are placed: in turn
        int sharers = 1 + (laterGpuModels + Math.max(1, backends.gpuCount()) - 1) / Math.max(1, backends.gpuCount());
        GgufFile file = GgufFile.open(plan.path());
        List<AutoCloseable> opened = new ArrayList<>(); // closed in reverse if the load fails
        try {
            return switch (plan.kind()) {
                case COMPLETION ->
                    load(
                            plan,
                            file,
                            new TextKind(
                                    plan,
                                    file,
                                    properties.engine(),
                                    policies.generationTimeLimiter(),
                                    observers,
                                    sharers),
                            opened);
                case EMBEDDING ->
                    load(
                            plan,
                            file,
                            new EmbeddingKind(
                                    plan, file, properties.embedding(), policies.embeddingTimeLimiter(), observers),
                            opened);
            };
        } catch (IOException | RuntimeException | Error e) {
            for (AutoCloseable c : opened.reversed()) {
                try {
                    c.close();
                } catch (Exception suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            file.close();
            observers.released(plan.id());
            throw e;
        }
    }

    /** Closes a model that leaves the service, and drops its meters (a later copy of its id gets its own). */
    void unload(ServedModel model) {
        try {
            model.close();
        } catch (RuntimeException e) {
            LOG.warn("Closing model '{}' failed", model.id(), e);
        } finally {
            observers.released(model.id());
        }
    }

    private <M extends AutoCloseable, E extends AutoCloseable> ServedModel load(
            ModelPlan plan, GgufFile file, ServedKind<M, E> kind, List<AutoCloseable> opened) {
        List<Replica<M, E>> primaries = new ArrayList<>();
        List<List<Integer>> groups = GpuPlacement.groups(plan, backends.gpuCount());
        if (groups.isEmpty()) {
            primaries.add(replica(plan.id(), kind, backends.create(plan.backend(), plan.id()), opened));
        } else {
            for (List<Integer> group : groups) {
                primaries.add(replica(plan.id(), kind, backends.createOn(group, plan.id()), opened));
            }
        }
        Replica<M, E> first = primaries.getFirst();
        Replica<M, E> fallback = null;
        List<Failover> failovers = new ArrayList<>();
        if (first.backend().accelerated()) {
            if (cpuFallback(plan, plan.fileSize() + kind.cacheBytes(first.model()))) {
                fallback = replica(plan.id(), kind, backends.create(BackendChoice.CPU, plan.id()), opened);
            }
            boolean copy = fallback != null;
            for (Replica<M, E> r : primaries) {
                E engine = r.engine();
                Failover.Probe probe = () -> kind.probe(engine);
                Failover f = primaries.size() == 1
                        ? policies.failover(plan.id(), r.device(), r.devices(), copy, probe)
                        : policies.replicaFailover(plan.id(), r.device(), r.devices(), copy, probe);
                opened.add(f);
                failovers.add(f);
            }
        }
        String description =
                primaries.stream().map(r -> r.backend().description()).collect(Collectors.joining(", "))
                        + (primaries.size() > 1 ? " (" + primaries.size() + " replicas)" : "")
                        + (fallback == null
                                ? ""
                                : ", CPU fallback " + fallback.backend().description());
        return kind.serve(new ReplicaSet<>(
                file,
                primaries,
                failovers,
                fallback,
                policies.admission(),
                kind.timeLimiter(),
                kind::probe,
                kind::kvUse,
                description));
    }

    private <M extends AutoCloseable, E extends AutoCloseable> Replica<M, E> replica(
            String modelId, ServedKind<M, E> kind, Backend backend, List<AutoCloseable> opened) {
        opened.add(backend);
        boolean accelerated = backend.accelerated();
        M model = kind.load(backend, accelerated);
        opened.add(model);
        if (!accelerated) {
            policies.checkHostMemory(modelId, kind.cacheBytes(model));
        }
        String device = Replica.deviceOf(backend);
        E engine = kind.start(model, backend, device);
        opened.add(engine);
        return new Replica<>(device, backend, model, engine);
    }

    /** Whether the CPU copy of a GPU model is loaded, logged either way. */
    private boolean cpuFallback(ModelPlan plan, long bytes) {
        CpuFallbackPolicy.Decision decision = policies.cpuFallback(bytes);
        if (decision.load()) {
            LOG.info("Model '{}': loading a CPU copy to serve while its GPU fails ({})", plan.id(), decision.reason());
        } else {
            LOG.warn(
                    "Model '{}': no CPU copy, so requests are refused while its GPU fails ({})",
                    plan.id(),
                    decision.reason());
        }
        return decision.load();
    }

    /** One short request through each copy, so JIT compilation and first page faults happen before clients arrive. */
    void warmUp(ServedModel model) throws Exception {
        switch (model) {
            case ReplicatedModel<?, ?> replicated -> replicated.replicaSet().warmUp(WARM_UP_LIMIT);
        }
    }
}
