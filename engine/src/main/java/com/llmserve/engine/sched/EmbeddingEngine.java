package com.llmserve.engine.sched;

import com.llmserve.engine.model.EmbeddingModel;
import com.llmserve.engine.model.InputTooLongException;
import java.time.Duration;
import java.util.ArrayDeque;
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

    /**
     * One request: its inputs, embedded in slices of at most a batch each, and its vectors so far.
     * Only the loop thread touches {@code next}, {@code done} and {@code vectors}.
     */
    private static final class Job {
        final List<int[]> inputs;
        final int tokens;
        final CompletableFuture<float[][]> result = new CompletableFuture<>();
        final float[][] vectors;
        /** The first input not yet in a batch. */
        int next;
        /** Inputs embedded. */
        int done;

        Job(List<int[]> inputs, int tokens) {
            this.inputs = inputs;
            this.tokens = tokens;
            this.vectors = new float[inputs.size()][];
        }
    }

    /** Inputs {@code [from, to)} of a job, in one batch. */
    private record Slice(Job job, int from, int to) {}

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
    /**
     * Jobs taken from the queue with inputs left, in turn: each batch takes slices from the front,
     * and a job with more left goes to the back, so a large request shares the loop with the small
     * ones behind it instead of holding it. The loop thread's alone.
     */
    private final ArrayDeque<Job> turns = new ArrayDeque<>();
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
     * A request larger than a batch runs in slices; cancelling the future (a timeout, a client that
     * left) drops whatever of it has not run yet.
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
        Job job = new Job(List.copyOf(inputs), tokens);
        queue.add(job);
        return job.result;
    }

    /** Requests waiting: queued, or taking turns with inputs not yet in a batch. */
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
                List<Slice> batch = gather();
                if (!batch.isEmpty()) {
                    run(batch);
                }
            } catch (InterruptedException e) {
                break;
            } catch (RuntimeException | Error e) {
                LOG.error("embedding engine {} failed a batch", name, e);
            }
        }
        List<Job> left = new ArrayList<>(turns);
        queue.drainTo(left);
        for (Job j : left) {
            j.result.completeExceptionally(new CancellationException("the embedding engine for " + name + " stopped"));
        }
    }

    /**
     * The next batch: slices of the jobs in turn, then of the jobs that arrive within the wait,
     * up to the token budget (at least one input).
     */
    private List<Slice> gather() throws InterruptedException {
        if (turns.isEmpty()) {
            Job first = queue.poll(100, TimeUnit.MILLISECONDS);
            if (first == null) {
                return List.of();
            }
            admit(first);
        }
        // the requests already waiting take their turns behind those in the loop, however large those are
        for (Job waitingJob = queue.poll(); waitingJob != null; waitingJob = queue.poll()) {
            admit(waitingJob);
        }
        List<Slice> batch = new ArrayList<>();
        int budget = options.maxBatchTokens();
        long deadline =
                System.nanoTime() + (lastRequests > 1 ? options.maxWait().toNanos() : 0);
        while (fill(batch, budget - tokens(batch))) {
            long left = deadline - System.nanoTime();
            Job next = left > 0 ? queue.poll(left, TimeUnit.NANOSECONDS) : queue.poll();
            if (next == null) {
                break;
            }
            admit(next);
        }
        lastRequests = (int) batch.stream().map(Slice::job).distinct().count();
        return batch;
    }

    /**
     * Adds slices of the jobs in turn while they fit {@code budget}.
     *
     * @return whether the batch has room for more (an input of a job yet to come might fit)
     */
    private boolean fill(List<Slice> batch, int budget) {
        while (!turns.isEmpty()) {
            Job j = turns.peekFirst();
            if (j.result.isDone()) {
                turns.removeFirst(); // cancelled (a timeout, a client that left) or failed: the rest is dropped
                waiting.decrementAndGet();
                continue;
            }
            int to = j.next;
            int tokens = 0;
            while (to < j.inputs.size()
                    && (tokens + j.inputs.get(to).length <= budget || (batch.isEmpty() && to == j.next))) {
                tokens += j.inputs.get(to).length;
                to++;
            }
            if (to == j.next) {
                return false; // its next input does not fit: the batch is full
            }
            batch.add(new Slice(j, j.next, to));
            j.next = to;
            budget -= tokens;
            turns.removeFirst();
            if (j.next < j.inputs.size()) {
                turns.addLast(j);
            } else {
                waiting.decrementAndGet(); // all of it is in batches now
            }
        }
        return budget > 0;
    }

    private static int tokens(List<Slice> batch) {
        int tokens = 0;
        for (Slice s : batch) {
            for (int i = s.from(); i < s.to(); i++) {
                tokens += s.job().inputs.get(i).length;
            }
        }
        return tokens;
    }

    /** A job joins the turns; it counts as waiting until its last input is in a batch. */
    private void admit(Job job) {
        turns.addLast(job);
    }

    private void run(List<Slice> batch) {
        List<int[]> all = new ArrayList<>();
        for (Slice s : batch) {
            all.addAll(s.job().inputs.subList(s.from(), s.to()));
        }
        int tokens = 0;
        for (int[] input : all) {
            tokens += input.length;
        }
        long start = System.nanoTime();
        float[][] vectors;
        try {
            vectors = model.embed(all);
        } catch (RuntimeException e) {
            for (Slice s : batch) {
                s.job().result.completeExceptionally(e);
            }
            throw e;
        }
        // counted before the futures complete, so a caller that got its vectors sees its batch counted
        inputs.addAndGet(all.size());
        batches.incrementAndGet();
        int at = 0;
        for (Slice s : batch) {
            Job j = s.job();
            int n = s.to() - s.from();
            System.arraycopy(vectors, at, j.vectors, s.from(), n);
            at += n;
            j.done += n;
            if (j.done == j.inputs.size()) {
                j.result.complete(j.vectors);
            }
        }
        observer.onBatch(lastRequests, all.size(), tokens, Duration.ofNanos(System.nanoTime() - start));
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
