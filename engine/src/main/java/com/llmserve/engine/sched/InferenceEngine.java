package com.llmserve.engine.sched;

import com.llmserve.engine.backend.Batch;
import com.llmserve.engine.backend.KvStorage;
import com.llmserve.engine.grammar.TokenConstraint;
import com.llmserve.engine.kv.KvLayout;
import com.llmserve.engine.kv.KvPools;
import com.llmserve.engine.model.LanguageModel;
import com.llmserve.engine.model.Logits;
import com.llmserve.engine.model.PendingLogits;
import com.llmserve.engine.sampling.TokenLogprobs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Continuous batching for one model replica: a platform thread runs iterations in which new
 * requests join and finished ones leave; each iteration asks the {@link Scheduler} for a plan,
 * runs one forward pass over every scheduled sequence, samples those that reached their end and
 * reports tokens to their listeners. Cancellations and timeouts take effect at the next iteration,
 * and every block a sequence held is back in the pool when its listener hears it finished.
 *
 * <p>Steps overlap where the model {@link LanguageModel#submitsAhead() submits ahead}: when every
 * sequence of a step decodes greedily (no grammar, no log-probs) and nobody waits to be admitted,
 * the next step is issued before this one's tokens are read, each row taking its sequence's token
 * where the device chose it ({@link Batch.Builder#addChoice}); the host reads, samples and reports
 * step n while the device runs step n+1, so the device does not wait for the host between steps.
 * A sequence that ends at step n (a stop token, a cancellation) has its row of step n+1 computed
 * for nothing; one that reaches its token limit at step n is left out of step n+1.
 * {@link EngineOptions#overlapSteps()} turns overlapping off.
 *
 * <p>{@link #submit} is safe from any thread; everything else happens on the loop thread.
 */
public final class InferenceEngine implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(InferenceEngine.class);
    /** How long an idle loop sleeps between looks at deadlines when nothing wakes it. */
    private static final long IDLE_PARK_NANOS = 50_000_000L;

    private final String name;
    private final LanguageModel model;
    private final EngineOptions options;
    private final EngineObserver observer;
    private final KvPools pools;
    private final KvStorage kv;
    private final Scheduler scheduler;
    private final Thread thread;
    private final ConcurrentLinkedQueue<Request> incoming = new ConcurrentLinkedQueue<>();
    private final List<Request> active = new ArrayList<>();
    private final AtomicInteger queuedRequests = new AtomicInteger();
    private final AtomicLong ids = new AtomicLong();
    private volatile boolean stopping;
    private volatile boolean endRequested;
    private volatile EngineStats stats;
    private volatile long[] usedPerGroup;
    private long promptTokens;
    private long generatedTokens;
    private long steps;
    /** Whether a greedy step's successor is issued before the step is read. */
    private final boolean overlap;
    /** The step issued and not read yet (the one a successor was issued after), or null. */
    private Issued issued;

    private InferenceEngine(
            String name,
            LanguageModel model,
            EngineOptions options,
            EngineObserver observer,
            boolean freeWindowed,
            boolean overlap) {
        this.name = name;
        this.overlap = overlap;
        this.model = model;
        this.options = options;
        this.observer = observer;
        KvLayout layout = kvLayout(model, options, freeWindowed);
        this.pools = new KvPools(layout, options.blockSize());
        this.kv = layout.groups() == 1
                ? model.newKvStorage(layout.blocksOfGroup()[0], options.blockSize())
                : model.newKvStorage(layout.groupOfLayer(), layout.blocksOfGroup(), options.blockSize());
        this.scheduler = new Scheduler(pools, options.maxBatchTokens(), options.maxRunning(), options.prefixCaching());
        if (layout.groups() > 1 || layout.windowed(0)) {
            LOG.info("engine {}: {}", name, layout);
        }
        this.stats = snapshot();
        this.thread =
                Thread.ofPlatform().name("llmserve-engine-" + name).daemon(true).unstarted(this::loop);
    }

    /** Starts the loop of a replica of {@code model}; {@code name} labels its thread and logs. */
    public static InferenceEngine start(
            String name, LanguageModel model, EngineOptions options, EngineObserver observer) {
        return start(
                name,
                model,
                options,
                observer,
                Boolean.parseBoolean(System.getProperty(FREE_WINDOW_BLOCKS, "true")),
                model.submitsAhead() && options.overlapSteps());
    }

    /** {@link #start(String, LanguageModel, EngineOptions, EngineObserver)}, freeing windowed layers' blocks or not. */
    static InferenceEngine start(
            String name, LanguageModel model, EngineOptions options, EngineObserver observer, boolean freeWindowed) {
        return start(name, model, options, observer, freeWindowed, model.submitsAhead() && options.overlapSteps());
    }

    /**
     * {@link #start(String, LanguageModel, EngineOptions, EngineObserver)} with windowed blocks
     * freed or not, and greedy steps overlapped or not (also where the model waits on each
     * submission: the same steps then, one after the other).
     */
    static InferenceEngine start(
            String name,
            LanguageModel model,
            EngineOptions options,
            EngineObserver observer,
            boolean freeWindowed,
            boolean overlap) {
        InferenceEngine e = new InferenceEngine(
                name, model, options, observer == null ? EngineObserver.NONE : observer, freeWindowed, overlap);
        e.thread.start();
        return e;
    }

    public LanguageModel model() {
        return model;
    }

    /**
     * How the engine splits a model's layers into KV groups ({@link KvLayout}): with
     * {@code freeWindowed}, windowed layers free their blocks behind the window (the default;
     * the system property {@code llmserve.engine.free-window-blocks=false} turns it off).
     */
    static KvLayout kvLayout(LanguageModel model, EngineOptions options, boolean freeWindowed) {
        int[] windows = new int[model.layers()];
        for (int l = 0; l < windows.length; l++) {
            windows[l] = model.slidingWindow(l);
        }
        return KvLayout.of(
                windows,
                options.kvBlocks(),
                options.blockSize(),
                options.maxRunning(),
                options.maxBatchTokens(),
                freeWindowed);
    }

    /** System property: {@code false} keeps windowed layers' blocks as global layers' (one KV group). */
    public static final String FREE_WINDOW_BLOCKS = "llmserve.engine.free-window-blocks";

    /** The KV groups and their pools' sizes. */
    public KvLayout kvLayout() {
        return pools.layout();
    }

    /**
     * Tokens the KV cache can hold for one sequence at most: a global group's blocks; with windowed
     * layers only, any length once one sequence's window and a step fit.
     */
    public long kvCapacityTokens() {
        KvLayout layout = pools.layout();
        long tokens = Long.MAX_VALUE;
        for (int g = 0; g < pools.groups(); g++) {
            long blocks = pools.pool(g).capacity() - 1;
            if (!layout.windowed(g)
                    || blocks
                            < KvLayout.windowBlocksPerSequence(layout.windowOfGroup()[g], pools.blockSize())
                                    + pools.pool(g).blocksFor(options.maxBatchTokens())) {
                tokens = Math.min(tokens, blocks * pools.blockSize());
            }
        }
        return tokens == Long.MAX_VALUE ? Integer.MAX_VALUE : tokens;
    }

    /** Blocks in use per KV group (of {@link #kvLayout()}), as of the latest snapshot. */
    public long[] kvBlocksUsedPerGroup() {
        return usedPerGroup.clone();
    }

    /**
     * Queues a request. Its listener hears every token and, once per choice, the finish.
     *
     * @throws AdmissionException when the queue is full, the prompt cannot fit, or the engine stopped;
     *                            nothing of the request runs then
     */
    public RequestHandle submit(InferenceRequest request, TokenListener listener) {
        if (stopping) {
            throw new AdmissionException(
                    AdmissionException.Reason.STOPPED, "the engine for " + name + " is stopped", Duration.ZERO);
        }
        if (request.grammar() != null && request.grammar().vocabSize() != model.vocabSize()) {
            throw new IllegalArgumentException("the request's grammar was compiled for a vocabulary of "
                    + request.grammar().vocabSize() + " tokens; this model has " + model.vocabSize());
        }
        int prompt = request.prompt().length;
        long room = Math.min(model.contextLength(), kvCapacityTokens()) - prompt;
        if (room < 1) {
            throw new AdmissionException(
                    AdmissionException.Reason.PROMPT_TOO_LONG,
                    "the prompt has " + prompt + " tokens; this model takes at most "
                            + (Math.min(model.contextLength(), kvCapacityTokens()) - 1),
                    Duration.ZERO);
        }
        if (queuedRequests.incrementAndGet() > options.maxWaiting()) {
            queuedRequests.decrementAndGet();
            throw new AdmissionException(
                    AdmissionException.Reason.QUEUE_FULL,
                    options.maxWaiting() + " requests are already waiting for " + name,
                    Duration.ofSeconds(1));
        }
        long now = System.nanoTime();
        Duration timeout = request.timeout() != null ? request.timeout() : options.defaultTimeout();
        Request r = new Request(
                ids.incrementAndGet(),
                request,
                listener,
                (int) Math.min(request.maxTokens(), room),
                now,
                now + timeout.toNanos(),
                pools,
                model.vocabSize());
        incoming.add(r);
        LockSupport.unpark(thread);
        return r;
    }

    /** The latest snapshot, refreshed every iteration. */
    public EngineStats stats() {
        return stats;
    }

    private void loop() {
        while (!stopping) {
            try {
                iterate();
            } catch (RuntimeException | Error e) {
                // a failed step must not kill the replica: fail what was running and go on
                issued = null;
                LOG.error("engine {} step failed; failing its running requests", name, e);
                failRunning(e);
            }
            stats = snapshot();
        }
        for (Request r : drainAll()) {
            finishAll(r, FinishReason.CANCELLED);
        }
        stats = snapshot();
    }

    private void iterate() {
        for (Request r; (r = incoming.poll()) != null; ) {
            active.add(r);
            scheduler.enqueue(r.choices.getFirst());
        }
        if (endRequested) {
            endRequested = false;
            for (Request r : List.copyOf(active)) {
                finishAll(r, FinishReason.LENGTH);
            }
        }
        expireAndCancel();
        Issued current = issued;
        issued = null;
        if (current == null) {
            StepPlan plan = scheduler.schedule();
            if (plan.isEmpty()) {
                LockSupport.parkNanos(IDLE_PARK_NANOS);
                return;
            }
            current = issue(plan);
        }
        Issued next = overlap ? follow(current) : null;
        read(current);
        if (next != null) {
            // its rows' tokens are the ones just read: now the prefix cache can key what it computes
            scheduler.completed(stillRunning(next.plan()));
            issued = next;
        }
    }

    /**
     * A step issued, not read yet: its plan, which chunks score their prompt, its logits to come,
     * whether only each row's best token comes back, and when it was issued.
     */
    private record Issued(StepPlan plan, boolean[] scoring, PendingLogits logits, boolean onlyBest, long start) {}

    /** Submits a scheduled step; what it computes counts as computed at once. */
    private Issued issue(StepPlan plan) {
        long start = System.nanoTime();
        for (StepPlan.Chunk c : plan.chunks()) {
            Request r = c.sequence().request;
            if (r.firstStepNanos == 0) {
                r.firstStepNanos = start;
                queuedRequests.decrementAndGet();
            }
        }
        boolean[] scoring = new boolean[plan.chunks().size()];
        boolean anyScoring = false;
        for (int i = 0; i < scoring.length; i++) {
            StepPlan.Chunk c = plan.chunks().get(i);
            scoring[i] = c.sequence().scoresPromptIn(c.sequence().computed, c.count());
            anyScoring |= scoring[i];
        }
        long[][] masks = grammarMasks(plan, scoring);
        boolean onlyBest = !anyScoring && onlyLargestLogits(plan);
        PendingLogits logits = model.submit(batchOf(plan, scoring), kv, onlyBest ? 1 : 0, masks);
        scheduler.completed(plan);
        return new Issued(plan, scoring, logits, onlyBest, start);
    }

    /**
     * The step after {@code current}, issued before {@code current} is read: each of its greedy
     * sequences one more token, the one {@code current} chooses for it; null when that step is not
     * certain to be the next one (a sequence samples otherwise, a prompt is not done, someone
     * waits to be admitted) or needs a block the pool does not have.
     */
    private Issued follow(Issued current) {
        if (!current.onlyBest()
                || !incoming.isEmpty()
                || endRequested
                || (scheduler.waitingSequences() > 0 && scheduler.runningSequences() < options.maxRunning())) {
            return null;
        }
        List<StepPlan.Chunk> chunks = new ArrayList<>();
        Batch.Builder b = Batch.builder(pools.blockSize());
        int row = 0;
        for (StepPlan.Chunk c : current.plan().chunks()) {
            Sequence s = c.sequence();
            if (!c.sample() || s.constraint != null) {
                return null;
            }
            int previousRow = row++;
            if (s.state != Sequence.State.RUNNING || s.generated + 1 >= s.request.maxTokens) {
                continue; // it ends at the current step at the latest
            }
            s.table.slide(s.computed);
            if (!s.table.ensureCapacity(s.computed + 1L)) {
                return null; // the scheduler preempts, next step
            }
            chunks.add(new StepPlan.Chunk(s, 1, true));
            b.addChoice(s.table.blocks(), s.computed, previousRow, Batch.Logits.LAST);
        }
        if (chunks.isEmpty()) {
            return null;
        }
        StepPlan plan = new StepPlan(chunks, chunks.size());
        PendingLogits logits = model.submit(b.build(), kv, 1, null);
        return new Issued(plan, new boolean[chunks.size()], logits, true, System.nanoTime());
    }

    /** The chunks of {@code plan} whose sequences still run (others ended while it was out). */
    private static StepPlan stillRunning(StepPlan plan) {
        List<StepPlan.Chunk> chunks = new ArrayList<>(plan.chunks().size());
        for (StepPlan.Chunk c : plan.chunks()) {
            if (c.sequence().state == Sequence.State.RUNNING) {
                chunks.add(c);
            }
        }
        return chunks.size() == plan.chunks().size() ? plan : new StepPlan(chunks, chunks.size());
    }

    /** Waits for an issued step's logits and scores, samples and reports what it computed. */
    private void read(Issued step) {
        StepPlan plan = step.plan();
        boolean[] scoring = step.scoring();
        Logits logits = step.logits().await();
        int row = 0;
        for (int i = 0; i < scoring.length; i++) {
            StepPlan.Chunk c = plan.chunks().get(i);
            Sequence s = c.sequence();
            // a scored chunk has a row per token, the last of which is sampled when the chunk ends the sequence
            int rows = scoring[i] ? c.count() : c.sample() ? 1 : 0;
            if (s.state == Sequence.State.FINISHED) {
                row += rows; // it ended while the step was out
                continue;
            }
            int from = s.computed - c.count();
            promptTokens += Math.max(0, Math.min(s.computed, s.promptLength) - from); // recomputed output is not prompt
            if (scoring[i]) {
                scorePrompt(s, logits, row, from, c.count());
            }
            if (c.sample()) {
                sample(s, logits, row + rows - 1);
            }
            row += rows;
        }
        steps++;
        observer.onStep(plan.chunks().size(), plan.tokens(), Duration.ofNanos(System.nanoTime() - step.start()));
    }

    private Batch batchOf(StepPlan plan, boolean[] scoring) {
        Batch.Builder b = Batch.builder(pools.blockSize());
        for (int i = 0; i < scoring.length; i++) {
            StepPlan.Chunk c = plan.chunks().get(i);
            Sequence s = c.sequence();
            b.add(
                    s.table.blocks(),
                    s.computed,
                    s.tokens(),
                    s.computed,
                    c.count(),
                    scoring[i] ? Batch.Logits.ALL : c.sample() ? Batch.Logits.LAST : Batch.Logits.NONE);
        }
        return b.build();
    }

    /**
     * Reports the prompt positions this chunk scores: row {@code row + i} holds the logits after
     * position {@code from + i}, which score the prompt token at {@code from + i + 1}.
     */
    private void scorePrompt(Sequence s, Logits logits, int row, int from, int count) {
        Request r = s.request;
        for (int i = 0; i < count; i++) {
            int position = from + i + 1;
            if (position < s.promptScored || position >= s.promptLength) {
                continue;
            }
            TokenLogprobs lp = TokenLogprobs.of(
                    logits.array(),
                    logits.offset(row + i),
                    logits.vocabSize(),
                    s.tokens()[position],
                    r.spec.promptLogprobs());
            s.promptScored = position + 1;
            try {
                r.listener.onPromptToken(position, lp);
            } catch (RuntimeException e) {
                LOG.warn("listener of request {} failed; cancelling it", r.id, e);
                r.cancelRequested = true;
                return;
            }
        }
    }

    /**
     * Per logit row of the step, the tokens its sequence's grammar allows (stop tokens included once
     * its text is complete), or null; null when no row has a grammar. Kept on the sequence for
     * sampling, and given to the forward pass, whose top-k then chooses among allowed tokens.
     */
    private static long[][] grammarMasks(StepPlan plan, boolean[] scoring) {
        int total = 0;
        boolean any = false;
        for (int i = 0; i < scoring.length; i++) {
            StepPlan.Chunk c = plan.chunks().get(i);
            total += scoring[i] ? c.count() : c.sample() ? 1 : 0;
            any |= c.sample() && c.sequence().constraint != null;
        }
        if (!any) {
            return null;
        }
        long[][] masks = new long[total][];
        int row = 0;
        for (int i = 0; i < scoring.length; i++) {
            StepPlan.Chunk c = plan.chunks().get(i);
            Sequence s = c.sequence();
            row += scoring[i] ? c.count() : c.sample() ? 1 : 0;
            if (c.sample() && s.constraint != null) {
                s.stepMask = grammarMask(s);
                masks[row - 1] = s.stepMask; // a sampled chunk's last row is the one sampled
            }
        }
        return masks;
    }

    private static long[] grammarMask(Sequence s) {
        Request r = s.request;
        long[] allowed = s.constraint.allowed(r.maxTokens - s.generated);
        if (!s.constraint.canEnd() || r.spec.stopTokens().isEmpty()) {
            return allowed;
        }
        long[] withStops = allowed.clone(); // the grammar's mask is shared: add the stop tokens to a copy
        for (int t : r.spec.stopTokens()) {
            if (t >= 0 && (t >>> 6) < withStops.length) {
                withStops[t >>> 6] |= 1L << t;
            }
        }
        return withStops;
    }

    /** Whether every row this step samples takes its largest logit and no log-probs: then whole rows need not be read. */
    private static boolean onlyLargestLogits(StepPlan plan) {
        for (StepPlan.Chunk c : plan.chunks()) {
            Sequence s = c.sequence();
            if (c.sample() && (!s.sampler.params().choosesLargestLogit() || s.request.spec.topLogprobs() >= 0)) {
                return false;
            }
        }
        return true;
    }

    private void sample(Sequence s, Logits logits, int row) {
        Request r = s.request;
        if (s.generated == 0) {
            // the first choice has computed the shared prompt: the others now find it in the cache
            for (Sequence d : r.deferred) {
                scheduler.enqueueFirst(d);
            }
            r.deferred.clear();
        }
        if (r.maxTokens == 0) {
            finish(s, FinishReason.LENGTH); // the prompt was only to be scored
            return;
        }
        TokenConstraint constraint = s.constraint;
        if (constraint != null && constraint.mustEnd()) {
            finish(s, FinishReason.STOP); // the text is complete and nothing may follow
            return;
        }
        long[] mask = constraint == null ? null : s.stepMask;
        int token;
        if (logits.topK() > 0) {
            token = logits.best(row); // chosen among the allowed tokens on the backend
            if (mask != null && (token >= logits.vocabSize() || (mask[token >>> 6] >>> token & 1) == 0)) {
                token = -1;
            }
        } else {
            token = mask == null
                    ? s.sampler.sample(logits.array(), logits.offset(row), s.history)
                    : s.sampler.sample(logits.array(), logits.offset(row), s.history, mask, Set.of());
        }
        if (token < 0) {
            // the grammar allows no token of this vocabulary here and the text is not complete
            LOG.warn(
                    "request {}: the grammar allows no token of the vocabulary here; stopping choice {}",
                    r.id,
                    s.choice);
            finish(s, FinishReason.STOP);
            return;
        }
        long now = System.nanoTime();
        if (r.spec.stopTokens().contains(token)) {
            finish(s, FinishReason.STOP);
            return;
        }
        TokenLogprobs lp = r.spec.topLogprobs() < 0
                ? null
                : TokenLogprobs.of(logits.array(), logits.offset(row), logits.vocabSize(), token, r.spec.topLogprobs());
        s.append(token);
        generatedTokens++;
        if (s.generated == 1) {
            s.firstTokenNanos = now;
            observer.onFirstToken(Duration.ofNanos(now - r.submittedNanos));
        } else {
            observer.onInterToken(Duration.ofNanos(now - s.lastTokenNanos));
        }
        s.lastTokenNanos = now;
        try {
            r.listener.onToken(s.choice, token, lp);
        } catch (RuntimeException e) {
            // the consumer of this request broke (e.g. its client went away mid-write): end it, not the others
            LOG.warn("listener of request {} failed; cancelling it", r.id, e);
            finishAll(r, FinishReason.CANCELLED);
            return;
        }
        if (constraint != null && (constraint.mustEnd() || (s.generated >= r.maxTokens && constraint.canEnd()))) {
            // the text is complete: nothing may follow, or the budget ends where the grammar may (not cut off)
            finish(s, FinishReason.STOP);
        } else if (s.generated >= r.maxTokens) {
            finish(s, FinishReason.LENGTH);
        }
    }

    /** Acts on cancellations, stop requests and deadlines, for running and waiting choices alike. */
    private void expireAndCancel() {
        long now = System.nanoTime();
        for (Request r : List.copyOf(active)) {
            FinishReason reason =
                    r.cancelRequested ? FinishReason.CANCELLED : now > r.deadlineNanos ? FinishReason.TIMEOUT : null;
            if (reason != null) {
                finishAll(r, reason);
                continue;
            }
            for (Sequence s : r.choices) {
                if (s.stopRequested && s.state != Sequence.State.FINISHED) {
                    finish(s, FinishReason.STOP);
                }
            }
        }
    }

    private void finishAll(Request r, FinishReason reason) {
        for (Sequence s : r.choices) {
            if (s.state != Sequence.State.FINISHED) {
                finish(s, reason);
            }
        }
    }

    private void finish(Sequence s, FinishReason reason) {
        Request r = s.request;
        boolean wasDeferred = r.deferred.remove(s);
        if (!wasDeferred) {
            scheduler.remove(s);
        }
        s.state = Sequence.State.FINISHED;
        if (r.firstStepNanos == 0 && s.choice == 0) {
            queuedRequests.decrementAndGet(); // it leaves the queue without ever running
            r.firstStepNanos = -1;
        }
        r.finished++;
        long now = System.nanoTime();
        try {
            r.listener.onFinish(s.choice, reason);
        } catch (RuntimeException e) {
            LOG.warn("listener of request {} failed", r.id, e);
        }
        observer.onChoiceFinished(
                reason,
                Duration.ofNanos(now - r.submittedNanos),
                Duration.ofNanos(Math.max(0, (r.firstStepNanos > 0 ? r.firstStepNanos : now) - r.submittedNanos)),
                s.promptLength,
                s.generated);
        if (r.done()) {
            active.remove(r);
        }
    }

    private void failRunning(Throwable error) {
        for (Request r : List.copyOf(active)) {
            boolean involved = r.choices.stream().anyMatch(s -> s.state == Sequence.State.RUNNING);
            if (involved) {
                try {
                    r.listener.onError(error);
                } catch (RuntimeException e) {
                    LOG.warn("listener of request {} failed", r.id, e);
                }
                finishAll(r, FinishReason.ERROR);
            }
        }
    }

    private List<Request> drainAll() {
        List<Request> all = new ArrayList<>(active);
        for (Request r; (r = incoming.poll()) != null; ) {
            all.add(r);
            active.add(r);
        }
        return all;
    }

    private EngineStats snapshot() {
        usedPerGroup = pools.used();
        return new EngineStats(
                Math.max(0, queuedRequests.get()),
                options.maxWaiting(),
                scheduler.runningSequences(),
                pools.usedAllLayerBlocks(),
                pools.totalAllLayerBlocks(),
                pools.pool(0).cacheHits(),
                pools.pool(0).cacheQueries(),
                promptTokens,
                generatedTokens,
                steps,
                scheduler.preemptions());
    }

    /**
     * Ends every request taken so far, at its next step, with {@link FinishReason#LENGTH}: its
     * answer ends cleanly with what it has, as at its token limit (a drain limit at shutdown).
     * Requests submitted later run as usual.
     */
    public void endAll() {
        endRequested = true;
        LockSupport.unpark(thread);
    }

    /** Stops the loop; unfinished requests end with {@link FinishReason#CANCELLED}. */
    @Override
    public void close() {
        stopping = true;
        LockSupport.unpark(thread);
        try {
            thread.join(Duration.ofSeconds(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        kv.close();
    }

    @Override
    public String toString() {
        return "InferenceEngine[" + name + ", " + stats + "]";
    }
}
