package com.llmserve.app.models;

import com.llmserve.engine.model.EmbeddingModel;
import com.llmserve.engine.model.ModelKind;
import com.llmserve.engine.sched.EmbeddingEngine;
import com.llmserve.engine.tokenizer.Tokenizer;
import io.github.resilience4j.bulkhead.BulkheadFullException;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;

/**
 * An embedding model being served: its replicas (two when a GPU model has a CPU copy), whose loops
 * merge the inputs of concurrent requests into shared forward passes, and its tokenizer. Requests
 * pass the {@code admission} bulkhead and wait at most the {@code embedding} time limiter's
 * timeout.
 */
public final class ServedEmbeddingModel extends ReplicatedModel<EmbeddingModel, EmbeddingEngine> {

    ServedEmbeddingModel(String id, ReplicaSet<EmbeddingModel, EmbeddingEngine> replicas, Tokenizer tokenizer) {
        super(id, replicas, tokenizer, replicas.primary().model().architecture());
    }

    @Override
    public ModelKind kind() {
        return ModelKind.EMBEDDING;
    }

    /** The most tokens of one input, special tokens included. */
    @Override
    public int maxModelLen() {
        return replicas.primary().model().contextLength();
    }

    public int dimensions() {
        return replicas.primary().model().dimensions();
    }

    public int waitingRequests() {
        return (int) replicas.sum(EmbeddingEngine::waitingRequests);
    }

    public long embeddedInputs() {
        return replicas.sum(EmbeddingEngine::inputsEmbedded);
    }

    public long batches() {
        return replicas.sum(EmbeddingEngine::batches);
    }

    /**
     * Embeds tokenized inputs, each within {@link #maxModelLen()} tokens, on the replica its
     * failover picks, waiting at most the {@code embedding} time limiter's timeout.
     *
     * @throws BulkheadFullException                        when the service already has its most requests in flight
     * @throws com.llmserve.app.resilience.DeviceUnavailableException when the model's GPU is shut off and it has no CPU copy
     * @throws com.llmserve.engine.sched.AdmissionException when the queue is full or the engine stopped
     * @throws EmbeddingFailedException                     when the model fails, stops or takes too long
     */
    public float[][] embed(List<int[]> tokenized) throws InterruptedException {
        try (ReplicaSet<EmbeddingModel, EmbeddingEngine>.Ticket ticket = replicas.admit()) {
            CompletableFuture<float[][]> result = ticket.submit(engine -> engine.submit(tokenized));
            try {
                // on timeout the limiter cancels the future, which drops the request if it has not run yet
                float[][] vectors = replicas.timeLimiter().executeFutureSupplier(() -> result);
                ticket.succeeded();
                return vectors;
            } catch (InterruptedException e) {
                result.cancel(false);
                ticket.noVerdict();
                throw e;
            } catch (TimeoutException e) {
                ticket.noVerdict();
                throw new EmbeddingFailedException(
                        EmbeddingFailedException.Reason.TIMEOUT,
                        "The embedding request did not finish within "
                                + replicas.timeout().toSeconds() + " s",
                        e);
            } catch (CancellationException e) {
                ticket.noVerdict();
                throw new EmbeddingFailedException(
                        EmbeddingFailedException.Reason.SHUTTING_DOWN, "The service is shutting down", e);
            } catch (Exception e) {
                ticket.failed(e);
                throw new EmbeddingFailedException(
                        EmbeddingFailedException.Reason.ENGINE_ERROR, "The model failed while embedding", e);
            }
        }
    }
}
