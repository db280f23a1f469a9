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
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Completion models: a language model under a continuous-batching {@link InferenceEngine}, served
 * with its tokenizer and chat template, requests bounded by the {@code generation} time limiter.
 */
final class TextKind implements ServedKind<LanguageModel, InferenceEngine> {

    private static final Logger LOG = LoggerFactory.getLogger(TextKind.class);
    /** Empty stats for meters read before an engine runs. */
    private static final EngineStats NO_STATS = new EngineStats(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

    private final ModelPlan plan;
    private final GgufFile file;
    private final Tokenizer tokenizer;
    private final ChatTemplate chatTemplate;
    private final ModelOptions modelOptions;
    private final ServingProperties.Engine engine;
    private final int configuredKvBlocks;
    private final int sharers;
    private final Duration requestTimeout;
    private final TimeLimiter timeLimiter;
    private final ModelObservers observers;
    private final int[] probePrompt;

    /** @throws IOException when the configured chat template file cannot be read */
    TextKind(
            ModelPlan plan,
            GgufFile file,
            ServingProperties.Engine engine,
            TimeLimiter timeLimiter,
            ModelObservers observers,
            int sharers)
            throws IOException {
        this.plan = plan;
        this.file = file;
        this.tokenizer = Tokenizer.fromGguf(file.metadata());
        this.chatTemplate = chatTemplate(plan, file, tokenizer);
        this.modelOptions = engine.modelOptions(plan.contextSize());
        // the engine's own default: the timeout of requests that set none (every request gets the limiter's anyway)
        this.requestTimeout = timeLimiter.getTimeLimiterConfig().getTimeoutDuration();
        this.engine = engine;
        this.configuredKvBlocks =
                engine.configuredKvBlocks(plan.spec() == null ? 0 : plan.spec().kvBlocks());
        this.sharers = sharers;
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
    public InferenceEngine start(LanguageModel model, Backend backend, String device) {
        EngineOptions options = engine.options(kvBlocks(model, backend, device), requestTimeout);
        AtomicReference<InferenceEngine> started = new AtomicReference<>();
        InferenceEngine loop =
                InferenceEngine.start(plan.id(), model, options, observers.completion(plan.id(), device, () -> {
                    InferenceEngine e = started.get();
                    return e == null ? NO_STATS : e.stats();
                }));
        started.set(loop);
        return loop;
    }

    /**
     * The KV blocks of a replica: those configured; else, on a device that reports its memory, the
     * engine's {@code gpu-kv-share} of what is free now (its weights are up), split with the GPU
     * models still to load at startup, but no more than its running sequences can fill; else the
     * CPU's default.
     */
    private int kvBlocks(LanguageModel model, Backend backend, String device) {
        if (configuredKvBlocks > 0) {
            return configuredKvBlocks;
        }
        OptionalLong free = backend.accelerated() ? backend.freeMemory() : OptionalLong.empty();
        if (free.isEmpty()) {
            return EngineOptions.DEFAULT_KV_BLOCKS;
        }
        long perBlock = bytesPerBlock(model);
        long share = (long) (engine.gpuKvShare() * free.getAsLong() / sharers);
        // no more than the running sequences can fill (and the null block): a small model leaves the rest
        long usable = (long) engine.maxRunning() * Math.ceilDiv(model.contextLength(), engine.blockSize()) + 1;
        long fits = share / perBlock;
        int blocks = (int) Math.clamp(Math.min(fits, usable), EngineOptions.MIN_KV_BLOCKS, Integer.MAX_VALUE);
        LOG.info(
                "Model '{}' on {}: a KV cache of {} blocks ({} tokens, {} MiB, {}): {}",
                plan.id(),
                device,
                blocks,
                (long) blocks * engine.blockSize(),
                blocks * perBlock >> 20,
                model.kvCacheType().id(),
                fits > usable
                        ? "what " + engine.maxRunning() + " sequences of " + model.contextLength() + " tokens fill"
                        : engine.gpuKvShare() + " of the " + (free.getAsLong() >> 20) + " MiB free"
                                + (sharers > 1 ? ", split with " + (sharers - 1) + " more GPU model(s) to load" : ""));
        return blocks;
    }

    /** A block of every layer, keys and values, as the model's KV cache type stores them (F16: 4 bytes a value). */
    private long bytesPerBlock(LanguageModel model) {
        return (long) model.layers() * engine.blockSize() * model.kvCacheType().bytesPerSlot(model.kvDim());
    }

    /** The KV cache a CPU copy of {@code model} gets: its configured blocks, or the CPU's default. */
    @Override
    public long cacheBytes(LanguageModel model) {
        return (configuredKvBlocks > 0 ? configuredKvBlocks : EngineOptions.DEFAULT_KV_BLOCKS) * bytesPerBlock(model);
    }

    @Override
    public double kvUse(InferenceEngine loop) {
        long[] used = loop.kvBlocksUsedPerGroup();
        int[] blocks = loop.kvLayout().blocksOfGroup();
        double share = 0;
        for (int g = 0; g < used.length; g++) {
            // the reserved null block of each group is never handed out
            share = Math.max(share, used[g] / (double) Math.max(1, blocks[g] - 1));
        }
        return share;
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
