package com.llmserve.app.models;

import com.llmserve.app.resilience.CpuFallbackPolicy;
import com.llmserve.app.resilience.Failover;
import com.llmserve.app.resilience.ServingPolicies;
import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.BackendChoice;
import com.llmserve.engine.chat.ChatTemplate;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.model.Architectures;
import com.llmserve.engine.model.EmbeddingModel;
import com.llmserve.engine.model.LanguageModel;
import com.llmserve.engine.sampling.TokenLogprobs;
import com.llmserve.engine.sched.EmbeddingEngine;
import com.llmserve.engine.sched.EngineOptions;
import com.llmserve.engine.sched.EngineStats;
import com.llmserve.engine.sched.FinishReason;
import com.llmserve.engine.sched.InferenceEngine;
import com.llmserve.engine.sched.InferenceRequest;
import com.llmserve.engine.sched.TokenListener;
import com.llmserve.engine.tokenizer.Tokenizer;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a {@link ModelPlan} into a {@link ServedModel}: maps the file, loads weights, starts the
 * engine. A model placed on an accelerator also gets, when the fallback policy allows, a second
 * copy on the CPU with its own engine, and a {@link Failover} that routes between the two.
 */
final class ModelLoader {

    private static final Logger LOG = LoggerFactory.getLogger(ModelLoader.class);
    private static final Duration WARM_UP_LIMIT = Duration.ofMinutes(5);
    /** The KV cache is F16 on every backend: two bytes per value, a key and a value per slot. */
    private static final long KV_BYTES_PER_VALUE = 2 * 2;
    /** Empty stats for meters read before an engine runs. */
    private static final EngineStats NO_STATS = new EngineStats(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

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
        GgufFile file = GgufFile.open(plan.path());
        List<AutoCloseable> opened = new ArrayList<>(); // closed in reverse if the load fails
        try {
            Backend backend = backends.create(plan.backend(), plan.id());
            opened.add(backend);
            return switch (plan.kind()) {
                case COMPLETION -> loadText(plan, file, backend, opened);
                case EMBEDDING -> loadEmbedding(plan, file, backend, opened);
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
            throw e;
        }
    }

    private ServedTextModel loadText(ModelPlan plan, GgufFile file, Backend backend, List<AutoCloseable> opened)
            throws IOException {
        Tokenizer tokenizer = Tokenizer.fromGguf(file.metadata());
        ChatTemplate template = chatTemplate(plan, file, tokenizer);
        EngineOptions options = engineOptions(plan);
        ServedTextModel.Replica primary = textReplica(plan, file, backend, options, opened);
        ServedTextModel.Replica fallback = null;
        Failover failover = null;
        if (backends.accelerated(backend)) {
            LanguageModel m = primary.model();
            long kvBytes =
                    (long) m.layers() * options.kvBlocks() * options.blockSize() * m.kvDim() * KV_BYTES_PER_VALUE;
            if (cpuFallback(plan, plan.fileSize() + kvBytes)) {
                Backend cpu = backends.create(BackendChoice.CPU, plan.id());
                opened.add(cpu);
                fallback = textReplica(plan, file, cpu, options, opened);
            }
            int[] probePrompt = probePrompt(tokenizer);
            InferenceEngine gpu = primary.engine();
            failover =
                    policies.failover(plan.id(), primary.device(), fallback != null, () -> generate(gpu, probePrompt));
        }
        return new ServedTextModel(
                plan.id(),
                file,
                primary,
                fallback,
                failover,
                policies.admission(),
                policies.generationTimeLimiter(),
                tokenizer,
                template,
                describe(primary.backend(), fallback == null ? null : fallback.backend()));
    }

    private ServedTextModel.Replica textReplica(
            ModelPlan plan, GgufFile file, Backend backend, EngineOptions options, List<AutoCloseable> opened) {
        LanguageModel model = Architectures.loadLanguageModel(
                file, backend, properties.engine().modelOptions(plan.contextSize()));
        opened.add(model);
        String device = backends.device(backend);
        AtomicReference<InferenceEngine> started = new AtomicReference<>();
        InferenceEngine engine =
                InferenceEngine.start(plan.id(), model, options, observers.completion(plan.id(), device, () -> {
                    InferenceEngine e = started.get();
                    return e == null ? NO_STATS : e.stats();
                }));
        started.set(engine);
        opened.add(engine);
        return new ServedTextModel.Replica(device, backend, model, engine);
    }

    private EngineOptions engineOptions(ModelPlan plan) {
        // the engine's own default: the timeout of requests that set none (every request gets the limiter's anyway)
        Duration timeout =
                policies.generationTimeLimiter().getTimeLimiterConfig().getTimeoutDuration();
        return properties.engine().options(plan.spec() == null ? 0 : plan.spec().kvBlocks(), timeout);
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

    private String describe(Backend primary, Backend fallback) {
        return fallback == null
                ? backends.describe(primary)
                : backends.describe(primary) + ", CPU fallback " + backends.describe(fallback);
    }

    /** The configured override, or the file's template, or the documented ChatML fallback. */
    private static ChatTemplate chatTemplate(ModelPlan plan, GgufFile file, Tokenizer tokenizer) throws IOException {
        ServingProperties.ModelSpec spec = plan.spec();
        String source = null;
        if (spec != null && spec.chatTemplate() != null && !spec.chatTemplate().isBlank()) {
            source = spec.chatTemplate();
        } else if (spec != null && spec.chatTemplateFile() != null) {
            source = Files.readString(java.nio.file.Path.of(spec.chatTemplateFile()));
        }
        if (source == null) {
            return ChatTemplate.fromGguf(file.metadata(), tokenizer);
        }
        String bos = tokenizer.bos().isPresent()
                ? tokenizer.tokenText(tokenizer.bos().getAsInt())
                : "";
        String eos = tokenizer.eos().isPresent()
                ? tokenizer.tokenText(tokenizer.eos().getAsInt())
                : "";
        return ChatTemplate.of(source, bos, eos);
    }

    private ServedEmbeddingModel loadEmbedding(
            ModelPlan plan, GgufFile file, Backend backend, List<AutoCloseable> opened) {
        Tokenizer tokenizer = Tokenizer.fromGguf(file.metadata());
        ServedEmbeddingModel.Replica primary = embeddingReplica(plan, file, backend, opened);
        ServedEmbeddingModel.Replica fallback = null;
        Failover failover = null;
        if (backends.accelerated(backend)) {
            if (cpuFallback(plan, plan.fileSize())) {
                Backend cpu = backends.create(BackendChoice.CPU, plan.id());
                opened.add(cpu);
                fallback = embeddingReplica(plan, file, cpu, opened);
            }
            List<int[]> probeInput = List.of(tokenizer.encode("Hello", true, false));
            EmbeddingEngine gpu = primary.engine();
            failover = policies.failover(plan.id(), primary.device(), fallback != null, () -> gpu.submit(probeInput));
        }
        return new ServedEmbeddingModel(
                plan.id(),
                file,
                primary,
                fallback,
                failover,
                policies.admission(),
                policies.embeddingTimeLimiter(),
                tokenizer,
                describe(primary.backend(), fallback == null ? null : fallback.backend()));
    }

    private ServedEmbeddingModel.Replica embeddingReplica(
            ModelPlan plan, GgufFile file, Backend backend, List<AutoCloseable> opened) {
        ServingProperties.Embedding e = properties.embedding();
        boolean accelerated = backends.accelerated(backend);
        EmbeddingModel model =
                Architectures.loadEmbeddingModel(file, backend, e.modelOptions(accelerated, plan.contextSize()));
        opened.add(model);
        String device = backends.device(backend);
        AtomicReference<EmbeddingEngine> started = new AtomicReference<>();
        EmbeddingEngine.EmbeddingObserver observer = observers.embedding(
                plan.id(),
                device,
                () -> started.get() == null ? 0 : started.get().inputsEmbedded(),
                () -> started.get() == null ? 0 : started.get().waitingRequests());
        EmbeddingEngine engine = EmbeddingEngine.start(plan.id(), model, e.options(accelerated), observer);
        started.set(engine);
        opened.add(engine);
        return new ServedEmbeddingModel.Replica(device, backend, model, engine);
    }

    private static int[] probePrompt(Tokenizer tokenizer) {
        int[] prompt = tokenizer.encode("Hello", tokenizer.addsBos(), true);
        return prompt.length == 0 ? new int[] {0} : prompt;
    }

    /**
     * Four greedy tokens straight on {@code engine} (no admission, no routing): the warm-up, and the
     * half-open probe of a GPU. Completes with how the choice ended, exceptionally with the engine's error.
     */
    private static CompletableFuture<FinishReason> generate(InferenceEngine engine, int[] prompt) {
        CompletableFuture<FinishReason> done = new CompletableFuture<>();
        engine.submit(InferenceRequest.greedy(prompt, 4), new TokenListener() {
            @Override
            public void onToken(int choice, int token, TokenLogprobs logprobs) {}

            @Override
            public void onFinish(int choice, FinishReason reason) {
                if (reason == FinishReason.LENGTH || reason == FinishReason.STOP) {
                    done.complete(reason);
                } else {
                    done.completeExceptionally(new IllegalStateException("the request ended with " + reason));
                }
            }

            @Override
            public void onError(Throwable error) {
                done.completeExceptionally(error);
            }
        });
        return done;
    }

    /** One short request through each copy, so JIT compilation and first page faults happen before clients arrive. */
    void warmUp(ServedModel model) throws Exception {
        switch (model) {
            case ServedTextModel text -> {
                int[] prompt = probePrompt(text.tokenizer());
                for (ServedTextModel.Replica r : text.replicas()) {
                    generate(r.engine(), prompt).get(WARM_UP_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
                }
            }
            case ServedEmbeddingModel embedding -> {
                List<int[]> input = List.of(embedding.tokenizer().encode("Hello", true, false));
                for (ServedEmbeddingModel.Replica r : embedding.replicas()) {
                    r.engine().submit(input).get(WARM_UP_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
                }
            }
        }
    }
}
