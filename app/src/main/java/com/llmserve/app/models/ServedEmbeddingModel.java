package com.llmserve.app.models;

import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.model.EmbeddingModel;
import com.llmserve.engine.model.ModelKind;
import com.llmserve.engine.sched.EmbeddingEngine;
import com.llmserve.engine.tokenizer.Tokenizer;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * An embedding model being served: its engine loop, which merges the inputs of concurrent
 * requests into shared forward passes, and its tokenizer.
 */
public final class ServedEmbeddingModel implements ServedModel {

    private final String id;
    private final GgufFile file;
    private final Backend backend;
    private final EmbeddingModel model;
    private final EmbeddingEngine engine;
    private final Tokenizer tokenizer;
    private final String backendDescription;

    ServedEmbeddingModel(String id, GgufFile file, Backend backend, EmbeddingModel model, EmbeddingEngine engine, Tokenizer tokenizer,
                         String backendDescription) {
        this.id = id;
        this.file = file;
        this.backend = backend;
        this.model = model;
        this.engine = engine;
        this.tokenizer = tokenizer;
        this.backendDescription = backendDescription;
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public ModelKind kind() {
        return ModelKind.EMBEDDING;
    }

    @Override
    public String architecture() {
        return model.architecture();
    }

    @Override
    public Tokenizer tokenizer() {
        return tokenizer;
    }

    /** The most tokens of one input, special tokens included. */
    @Override
    public int maxModelLen() {
        return model.contextLength();
    }

    public int dimensions() {
        return model.dimensions();
    }

    @Override
    public String backendDescription() {
        return backendDescription;
    }

    public int waitingRequests() {
        return engine.waitingRequests();
    }

    public long embeddedInputs() {
        return engine.inputsEmbedded();
    }

    public long batches() {
        return engine.batches();
    }

    /**
     * Embeds tokenized inputs, each within {@link #maxModelLen()} tokens, waiting at most {@code timeout}.
     *
     * @throws com.llmserve.engine.sched.AdmissionException when the queue is full or the engine stopped
     * @throws EmbeddingFailedException                     when the model fails, stops or takes too long
     */
    public float[][] embed(List<int[]> tokenized, Duration timeout) throws InterruptedException {
        CompletableFuture<float[][]> result = engine.submit(tokenized);
        try {
            return result.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            result.cancel(false);
            throw e;
        } catch (TimeoutException e) {
            result.cancel(false); // dropped if it has not run yet
            throw new EmbeddingFailedException(EmbeddingFailedException.Reason.TIMEOUT,
                    "The embedding request did not finish within " + timeout.toSeconds() + " s", e);
        } catch (CancellationException e) {
            throw new EmbeddingFailedException(EmbeddingFailedException.Reason.SHUTTING_DOWN, "The service is shutting down", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof CancellationException c) {
                throw new EmbeddingFailedException(EmbeddingFailedException.Reason.SHUTTING_DOWN, "The service is shutting down", c);
            }
            throw new EmbeddingFailedException(EmbeddingFailedException.Reason.ENGINE_ERROR, "The model failed while embedding",
                    e.getCause());
        }
    }

    @Override
    public void close() {
        // the loop first: it ends what is queued and stops touching the model, backend and mapping
        engine.close();
        try {
            model.close();
            backend.close();
        } finally {
            file.close();
        }
    }

    @Override
    public String toString() {
        return "ServedEmbeddingModel[" + id + ", " + architecture() + ", " + backendDescription + "]";
    }
}
