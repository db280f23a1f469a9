package com.llmserve.engine.sched;

import com.llmserve.engine.model.EmbeddingModel;
import com.llmserve.engine.model.InputTooLongException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Dynamic batching for an embedding model: a platform thread takes the oldest request, lets others
 * join for up to {@link EmbeddingOptions#maxWait()} or until the token budget is full, and embeds
 * all their inputs in one call. The wait is only spent while requests come together: after a batch
 * of one request the next starts at once (a lone client would otherwise pay the wait on every
 * request), and requests that queue while a batch runs join the next one anyway. Inputs attend only
 * to themselves, so batching never changes a vector. {@link #submit} is safe from any thread.
 */
public final class EmbeddingEngine implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddingEngine.class);

    private record Job(List<int[]> inputs, int tokens, CompletableFuture<float[][]> result) {}

    private final String name;
    private final EmbeddingModel model;
    private final EmbeddingOptions options;
    private final EmbeddingObserver observer;
    private final LinkedBlockingQueue<Job> queue = new LinkedBlockingQueue<>();
    private final AtomicInteger waiting = new AtomicInteger();
    private final AtomicLong inputs = new AtomicLong();
    private final AtomicLong batches = new AtomicLong();
    private final Thread thread;
    private volatile boolean stopping;
    /** A job taken from the queue that did not fit the last batch; the loop thread's alone. */
    private Job carried;
    /** Requests in the last batch; the loop thread's alone. */
    private int lastRequests;

    /** Timings and sizes of the batches, for metrics. Called on the loop thread. */
    public interface EmbeddingObserver {

        EmbeddingObserver NONE = (requests, inputs, tokens, elapsed) -> {};

        void onBatch(int requests, int inputs, int tokens, Duration elapsed);
    }

    private EmbeddingEngine(String name, EmbeddingModel model, EmbeddingOptions options, EmbeddingObserver observer) {
        this.name = name;
        this.model = model;
        this.options = options;
        this.observer = observer;
        this.thread =
                Thread.ofPlatform().name("llmserve-embed-" + name).daemon(true).unstarted(this::loop);
    }

    public static EmbeddingEngine start(
            String name, EmbeddingModel model, EmbeddingOptions options, EmbeddingObserver observer) {
        EmbeddingEngine e =
                new EmbeddingEngine(name, model, options, observer == null ? EmbeddingObserver.NONE : observer);
        e.thread.start();
        return e;
    }

    public EmbeddingModel model() {
        return model;
    }

    /**
     * Queues the inputs of one request; the future completes with one vector per input, in order.
     * Cancelling the future drops the request if it has not run yet.
     *
     * @throws InputTooLongException    for an input longer than the model's context (nothing queues)
     * @throws IllegalArgumentException for an empty request or input
     * @throws AdmissionException       when the queue is full or the engine stopped
     */
    public CompletableFuture<float[][]> submit(List<int[]> inputs) {
        if (inputs.isEmpty()) {
            throw new IllegalArgumentException("an embedding request needs at least one input");
        }
        int tokens = 0;
        for (int i = 0; i < inputs.size(); i++) {
            int n = inputs.get(i).length;
            if (n == 0) {
                throw new IllegalArgumentException("input " + i + " is empty");
            }
            if (n > model.contextLength()) {
                throw new InputTooLongException(i, n, model.contextLength());
            }
            tokens += n;
        }
        if (stopping) {
            throw new AdmissionException(
                    AdmissionException.Reason.STOPPED,
                    "the embedding engine for " + name + " is stopped",
                    Duration.ZERO);
        }
        if (waiting.incrementAndGet() > options.maxWaiting()) {
            waiting.decrementAndGet();
            throw new AdmissionException(
                    AdmissionException.Reason.QUEUE_FULL,
                    options.maxWaiting() + " embedding requests are already waiting for " + name,
                    Duration.ofSeconds(1));
        }
        Job job = new Job(List.copyOf(inputs), tokens, new CompletableFuture<>());
        queue.add(job);
        return job.result();
    }

    /** Requests waiting (not yet in a batch). */
    public int waitingRequests() {
        return Math.max(0, waiting.get());
    }

    /** Inputs embedded since start. */
    public long inputsEmbedded() {
        return inputs.get();
    }

    public long batches() {
        return batches.get();
    }

    private void loop() {
        while (!stopping) {
            try {
                List<Job> batch = gather();
                if (!batch.isEmpty()) {
                    run(batch);
                }
            } catch (InterruptedException e) {
                break;
            } catch (RuntimeException | Error e) {
                LOG.error("embedding engine {} failed a batch", name, e);
            }
        }
        List<Job> left = new ArrayList<>();
        if (carried != null) {
            left.add(carried);
        }
        queue.drainTo(left);
        for (Job j : left) {
            j.result()
                    .completeExceptionally(new CancellationException("the embedding engine for " + name + " stopped"));
        }
    }

    /** The next batch: the oldest job, then whatever arrives within the wait and fits the budget. */
    private List<Job> gather() throws InterruptedException {
        List<Job> batch = new ArrayList<>();
        Job first = carried != null ? carried : queue.poll(100, TimeUnit.MILLISECONDS);
        carried = null;
        if (first == null) {
            return batch;
        }
        take(batch, first);
        int tokens = first.tokens();
        long deadline =
                System.nanoTime() + (lastRequests > 1 ? options.maxWait().toNanos() : 0);
        while (tokens < options.maxBatchTokens()) {
            long left = deadline - System.nanoTime();
            Job next = left > 0 ? queue.poll(left, TimeUnit.NANOSECONDS) : queue.poll();
            if (next == null) {
                break;
            }
            if (tokens + next.tokens() > options.maxBatchTokens()) {
                carried = next;
                break;
            }
            take(batch, next);
            tokens += next.tokens();
        }
        lastRequests = batch.size();
        batch.removeIf(j -> j.result().isDone()); // cancelled while waiting
        return batch;
    }

    private void take(List<Job> batch, Job job) {
        waiting.decrementAndGet();
        batch.add(job);
    }

    private void run(List<Job> batch) {
        List<int[]> all = new ArrayList<>();
        int tokens = 0;
        for (Job j : batch) {
            all.addAll(j.inputs());
            tokens += j.tokens();
        }
        long start = System.nanoTime();
        float[][] vectors;
        try {
            vectors = model.embed(all);
        } catch (RuntimeException e) {
            for (Job j : batch) {
                j.result().completeExceptionally(e);
            }
            throw e;
        }
        // counted before the futures complete, so a caller that got its vectors sees its batch counted
        inputs.addAndGet(all.size());
        batches.incrementAndGet();
        int at = 0;
        for (Job j : batch) {
            float[][] mine = new float[j.inputs().size()][];
            System.arraycopy(vectors, at, mine, 0, mine.length);
            at += mine.length;
            j.result().complete(mine);
        }
        observer.onBatch(batch.size(), all.size(), tokens, Duration.ofNanos(System.nanoTime() - start));
    }

    /** Stops the loop; requests not yet embedded complete with a {@link CancellationException}. */
    @Override
    public void close() {
        stopping = true;
        thread.interrupt();
        try {
            thread.join(Duration.ofSeconds(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
