package com.llmserve.app.models;

import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.chat.ChatTemplate;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.model.Architectures;
import com.llmserve.engine.model.LanguageModel;
import com.llmserve.engine.model.ModelOptions;
import com.llmserve.engine.sampling.TokenLogprobs;
import com.llmserve.engine.sched.EngineOptions;
import com.llmserve.engine.sched.EngineStats;
import com.llmserve.engine.sched.FinishReason;
import com.llmserve.engine.sched.InferenceEngine;
import com.llmserve.engine.sched.InferenceRequest;
import com.llmserve.engine.sched.TokenListener;
import com.llmserve.engine.tokenizer.Tokenizer;
import io.github.resilience4j.timelimiter.TimeLimiter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Completion models: a language model under a continuous-batching {@link InferenceEngine}, served
 * with its tokenizer and chat template, requests bounded by the {@code generation} time limiter.
 */
final class TextKind implements ServedKind<LanguageModel, InferenceEngine> {

    /** The KV cache is F16 on every backend: two bytes per value, a key and a value per slot. */
    private static final long KV_BYTES_PER_VALUE = 2 * 2;
    /** Empty stats for meters read before an engine runs. */
    private static final EngineStats NO_STATS = new EngineStats(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

    private final ModelPlan plan;
    private final GgufFile file;
    private final Tokenizer tokenizer;
    private final ChatTemplate chatTemplate;
    private final ModelOptions modelOptions;
    private final EngineOptions engineOptions;
    private final TimeLimiter timeLimiter;
    private final ModelObservers observers;
    private final int[] probePrompt;

    /** @throws IOException when the configured chat template file cannot be read */
    TextKind(
            ModelPlan plan,
            GgufFile file,
            ServingProperties.Engine engine,
            TimeLimiter timeLimiter,
            ModelObservers observers)
            throws IOException {
        this.plan = plan;
        this.file = file;
        this.tokenizer = Tokenizer.fromGguf(file.metadata());
        this.chatTemplate = chatTemplate(plan, file, tokenizer);
        this.modelOptions = engine.modelOptions(plan.contextSize());
        // the engine's own default: the timeout of requests that set none (every request gets the limiter's anyway)
        Duration timeout = timeLimiter.getTimeLimiterConfig().getTimeoutDuration();
        this.engineOptions =
                engine.options(plan.spec() == null ? 0 : plan.spec().kvBlocks(), timeout);
        this.timeLimiter = timeLimiter;
        this.observers = observers;
        int[] hello = tokenizer.encode("Hello", tokenizer.addsBos(), true);
        this.probePrompt = hello.length == 0 ? new int[] {0} : hello;
    }

    @Override
    public LanguageModel load(Backend backend, boolean accelerated) {
        return Architectures.loadLanguageModel(file, backend, modelOptions);
    }

    @Override
    public InferenceEngine start(LanguageModel model, String device, boolean accelerated) {
        AtomicReference<InferenceEngine> started = new AtomicReference<>();
        InferenceEngine engine =
                InferenceEngine.start(plan.id(), model, engineOptions, observers.completion(plan.id(), device, () -> {
                    InferenceEngine e = started.get();
                    return e == null ? NO_STATS : e.stats();
                }));
        started.set(engine);
        return engine;
    }

    /** The KV cache a copy of {@code model} gets. */
    @Override
    public long cacheBytes(LanguageModel model) {
        return (long) model.layers()
                * engineOptions.kvBlocks()
                * engineOptions.blockSize()
                * model.kvDim()
                * KV_BYTES_PER_VALUE;
    }

    /** Four greedy tokens; completes with how the choice ended. */
    @Override
    public CompletableFuture<FinishReason> probe(InferenceEngine engine) {
        CompletableFuture<FinishReason> done = new CompletableFuture<>();
        engine.submit(InferenceRequest.greedy(probePrompt, 4), new TokenListener() {
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

    @Override
    public TimeLimiter timeLimiter() {
        return timeLimiter;
    }

    @Override
    public ServedModel serve(ReplicaSet<LanguageModel, InferenceEngine> replicas) {
        return new ServedTextModel(plan.id(), replicas, tokenizer, chatTemplate);
    }

    /** The configured override, or the file's template, or the documented ChatML fallback. */
    private static ChatTemplate chatTemplate(ModelPlan plan, GgufFile file, Tokenizer tokenizer) throws IOException {
        ServingProperties.ModelSpec spec = plan.spec();
        String source = null;
        if (spec != null && spec.chatTemplate() != null && !spec.chatTemplate().isBlank()) {
            source = spec.chatTemplate();
        } else if (spec != null && spec.chatTemplateFile() != null) {
            source = Files.readString(Path.of(spec.chatTemplateFile()));
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
}
