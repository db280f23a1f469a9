package com.llmserve.app.models;

import com.llmserve.app.resilience.Failover;
import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.model.EmbeddingModel;
import com.llmserve.engine.model.ModelKind;
import com.llmserve.engine.sched.EmbeddingEngine;
import com.llmserve.engine.tokenizer.Tokenizer;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadFullException;
import io.github.resilience4j.timelimiter.TimeLimiter;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;

/**
 * An embedding model being served: its engine loop (two when a GPU model has a CPU copy), which
 * merges the inputs of concurrent requests into shared forward passes, and its tokenizer. Requests
 * pass the {@code admission} bulkhead and wait at most the {@code embedding} time limiter's
 * timeout; a model placed on a GPU routes them by its {@link Failover}.
 */
public final class ServedEmbeddingModel implements ServedModel {

    /**
     * One loaded copy of the model with its loop.
     *
     * @param device where it runs, as its backend names it; the meters' {@code device} tag
     */
    public record Replica(String device, Backend backend, EmbeddingModel model, EmbeddingEngine engine) {}

    private final String id;
    private final GgufFile file;
    private final Replica primary;
    private final Replica fallback;
    private final Failover failover;
    private final Bulkhead admission;
    private final TimeLimiter timeLimiter;
    private final Tokenizer tokenizer;
    private final String backendDescription;

    ServedEmbeddingModel(
            String id,
            GgufFile file,
            Replica primary,
            Replica fallback,
            Failover failover,
            Bulkhead admission,
            TimeLimiter timeLimiter,
            Tokenizer tokenizer,
            String backendDescription) {
        this.id = id;
        this.file = file;
        this.primary = primary;
        this.fallback = fallback;
        this.failover = failover;
        this.admission = admission;
        this.timeLimiter = timeLimiter;
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
        return primary.model().architecture();
    }

    @Override
    public Tokenizer tokenizer() {
        return tokenizer;
    }

    /** The most tokens of one input, special tokens included. */
    @Override
    public int maxModelLen() {
        return primary.model().contextLength();
    }

    public int dimensions() {
        return primary.model().dimensions();
    }

    @Override
    public String backendDescription() {
        return backendDescription;
    }

    /** The copies of the model: the primary first, then the CPU fallback when there is one. */
    public List<Replica> replicas() {
        return fallback == null ? List.of(primary) : List.of(primary, fallback);
    }

    /** The router of a model placed on a GPU; empty for a model on the CPU. */
    public Optional<Failover> failover() {
        return Optional.ofNullable(failover);
    }

    public int waitingRequests() {
        return replicas().stream().mapToInt(r -> r.engine().waitingRequests()).sum();
    }

    public long embeddedInputs() {
        return replicas().stream().mapToLong(r -> r.engine().inputsEmbedded()).sum();
    }

    public long batches() {
        return replicas().stream().mapToLong(r -> r.engine().batches()).sum();
    }

    /**
     * Embeds tokenized inputs, each within {@link #maxModelLen()} tokens, waiting at most the
     * {@code embedding} time limiter's timeout.
     *
     * @throws BulkheadFullException                        when the service already has its most requests in flight
     * @throws com.llmserve.app.resilience.DeviceUnavailableException when the model's GPU is shut off and it has no CPU copy
     * @throws com.llmserve.engine.sched.AdmissionException when the queue is full or the engine stopped
     * @throws EmbeddingFailedException                     when the model fails, stops or takes too long
     */
    public float[][] embed(List<int[]> tokenized) throws InterruptedException {
        if (!admission.tryAcquirePermission()) {
            throw BulkheadFullException.createBulkheadFullException(admission);
        }
        try {
            Failover.Route route = failover == null ? Failover.Route.PRIMARY : failover.route();
            boolean guarded = failover != null && route == Failover.Route.PRIMARY;
            return embed(route == Failover.Route.PRIMARY ? primary : fallback, tokenized, guarded);
        } finally {
            admission.onComplete();
        }
    }

    private float[][] embed(Replica target, List<int[]> tokenized, boolean guarded) throws InterruptedException {
        long start = System.nanoTime();
        CompletableFuture<float[][]> result;
        try {
            result = target.engine().submit(tokenized);
        } catch (RuntimeException e) {
            if (guarded) {
                failover.refused(e);
            }
            throw e;
        }
        try {
            // on timeout the limiter cancels the future, which drops the request if it has not run yet
            float[][] vectors = timeLimiter.executeFutureSupplier(() -> result);
            if (guarded) {
                failover.succeeded(System.nanoTime() - start);
            }
            return vectors;
        } catch (InterruptedException e) {
            result.cancel(false);
            settleWithoutVerdict(guarded);
            throw e;
        } catch (TimeoutException e) {
            settleWithoutVerdict(guarded);
            throw new EmbeddingFailedException(
                    EmbeddingFailedException.Reason.TIMEOUT,
                    "The embedding request did not finish within "
                            + timeLimiter
                                    .getTimeLimiterConfig()
                                    .getTimeoutDuration()
                                    .toSeconds() + " s",
                    e);
        } catch (CancellationException e) {
            settleWithoutVerdict(guarded);
            throw new EmbeddingFailedException(
                    EmbeddingFailedException.Reason.SHUTTING_DOWN, "The service is shutting down", e);
        } catch (Exception e) {
            if (guarded) {
                failover.failed(System.nanoTime() - start, e);
            }
            throw new EmbeddingFailedException(
                    EmbeddingFailedException.Reason.ENGINE_ERROR, "The model failed while embedding", e);
        }
    }

    private void settleWithoutVerdict(boolean guarded) {
        if (guarded) {
            failover.noVerdict();
        }
    }

    @Override
    public void close() {
        if (failover != null) {
            failover.close();
        }
        // the loops first: they end what is queued and stop touching the models, backends and mapping
        try {
            for (Replica r : replicas()) {
                r.engine().close();
            }
            for (Replica r : replicas()) {
                r.model().close();
                r.backend().close();
            }
        } finally {
            file.close();
        }
    }

    @Override
    public String toString() {
        return "ServedEmbeddingModel[" + id + ", " + architecture() + ", " + backendDescription + "]";
    }
}
