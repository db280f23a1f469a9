package com.llmserve.app.models;

import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.chat.ChatTemplate;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.model.Architectures;
import com.llmserve.engine.model.EmbeddingModel;
import com.llmserve.engine.model.LanguageModel;
import com.llmserve.engine.model.ModelOptions;
import com.llmserve.engine.sampling.TokenLogprobs;
import com.llmserve.engine.sched.EmbeddingEngine;
import com.llmserve.engine.sched.EmbeddingOptions;
import com.llmserve.engine.sched.EngineObserver;
import com.llmserve.engine.sched.EngineOptions;
import com.llmserve.engine.sched.FinishReason;
import com.llmserve.engine.sched.InferenceEngine;
import com.llmserve.engine.sched.InferenceRequest;
import com.llmserve.engine.sched.TokenListener;
import com.llmserve.engine.tokenizer.Tokenizer;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Turns a {@link ModelPlan} into a {@link ServedModel}: maps the file, loads weights, starts the engine. */
final class ModelLoader {

    private static final Duration WARM_UP_LIMIT = Duration.ofMinutes(5);

    private final ServingProperties properties;
    private final BackendProvider backends;

    ModelLoader(ServingProperties properties, BackendProvider backends) {
        this.properties = properties;
        this.backends = backends;
    }

    ServedModel load(ModelPlan plan) throws IOException {
        GgufFile file = GgufFile.open(plan.path());
        Backend backend = null;
        try {
            backend = backends.create(plan.backend(), plan.id());
            return switch (plan.kind()) {
                case COMPLETION -> loadText(plan, file, backend);
                case EMBEDDING -> loadEmbedding(plan, file, backend);
            };
        } catch (IOException | RuntimeException | Error e) {
            if (backend != null) {
                backend.close();
            }
            file.close();
            throw e;
        }
    }

    private ServedTextModel loadText(ModelPlan plan, GgufFile file, Backend backend) throws IOException {
        ServingProperties.Engine e = properties.engine();
        Tokenizer tokenizer = Tokenizer.fromGguf(file.metadata());
        ChatTemplate template = chatTemplate(plan, file, tokenizer);
        LanguageModel model = Architectures.loadLanguageModel(file, backend, new ModelOptions(e.maxBatchTokens(), plan.contextSize()));
        try {
            int kvBlocks = plan.spec() != null && plan.spec().kvBlocks() > 0 ? plan.spec().kvBlocks() : e.kvBlocks();
            EngineOptions options = new EngineOptions(kvBlocks, e.blockSize(), e.maxBatchTokens(), e.maxRunning(), e.maxWaiting(),
                    e.prefixCaching(), e.requestTimeout());
            InferenceEngine engine = InferenceEngine.start(plan.id(), model, options, EngineObserver.NONE);
            return new ServedTextModel(plan.id(), file, backend, model, engine, tokenizer, template, backends.describe(backend));
        } catch (RuntimeException ex) {
            model.close();
            throw ex;
        }
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
        String bos = tokenizer.bos().isPresent() ? tokenizer.tokenText(tokenizer.bos().getAsInt()) : "";
        String eos = tokenizer.eos().isPresent() ? tokenizer.tokenText(tokenizer.eos().getAsInt()) : "";
        return ChatTemplate.of(source, bos, eos);
    }

    private ServedEmbeddingModel loadEmbedding(ModelPlan plan, GgufFile file, Backend backend) {
        ServingProperties.Embedding e = properties.embedding();
        Tokenizer tokenizer = Tokenizer.fromGguf(file.metadata());
        EmbeddingModel model = Architectures.loadEmbeddingModel(file, backend, new ModelOptions(e.maxBatchTokens(), plan.contextSize()));
        try {
            EmbeddingEngine engine = EmbeddingEngine.start(plan.id(), model,
                    new EmbeddingOptions(e.maxBatchTokens(), e.maxWait(), e.maxWaiting()), EmbeddingEngine.EmbeddingObserver.NONE);
            return new ServedEmbeddingModel(plan.id(), file, backend, model, engine, tokenizer, backends.describe(backend));
        } catch (RuntimeException ex) {
            model.close();
            throw ex;
        }
    }

    /** One short request, so JIT compilation and first page faults happen before clients arrive. */
    void warmUp(ServedModel model) throws Exception {
        switch (model) {
            case ServedTextModel text -> {
                int[] prompt = text.encodePrompt("Hello");
                if (prompt.length == 0) {
                    prompt = new int[] {0};
                }
                CompletableFuture<FinishReason> done = new CompletableFuture<>();
                text.submit(InferenceRequest.greedy(prompt, 4), new TokenListener() {
                    @Override
                    public void onToken(int choice, int token, TokenLogprobs logprobs) {
                    }

                    @Override
                    public void onFinish(int choice, FinishReason reason) {
                        done.complete(reason);
                    }

                    @Override
                    public void onError(Throwable error) {
                        done.completeExceptionally(error);
                    }
                });
                FinishReason reason = done.get(WARM_UP_LIMIT.toMillis(), TimeUnit.MILLISECONDS);
                if (reason != FinishReason.LENGTH && reason != FinishReason.STOP) {
                    throw new IllegalStateException("warm-up request ended with " + reason);
                }
            }
            case ServedEmbeddingModel embedding ->
                    embedding.embed(List.of(embedding.tokenizer().encode("Hello", true, false)), WARM_UP_LIMIT);
        }
    }
}
