package com.llmserve.engine.sched;

import com.llmserve.engine.kv.BlockPool;
import com.llmserve.engine.kv.BlockPool.BlockKey;
import com.llmserve.engine.kv.KvLayout;
import com.llmserve.engine.kv.KvPools;
import com.llmserve.engine.kv.SequenceBlocks;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Decides, once per step, which tokens of which sequences the next forward pass computes. There are
 * no prefill and decode phases: every sequence has computed and pending tokens, and all share one
 * token budget. Running sequences go first (so decodes keep their pace), then waiting ones are
 * admitted in arrival order while the budget and the KV blocks last; a long prompt is computed in
 * chunks across steps. When a running sequence needs a block and none is free, the most recently
 * admitted sequence is preempted: its blocks go back and it is recomputed later.
 *
 * <p>KV groups ({@link KvLayout}): a sequence holds a block table per group; before each step, a
 * windowed group's blocks that no query of the step reads (wholly before the window of the
 * sequence's first uncomputed position) go back to its pool, and a step needs blocks in every
 * group (all or nothing). The prefix cache keys each group's blocks alike; a cached prefix is taken
 * only where every global group holds all its blocks and every windowed group the blocks within
 * the window of the first position left to compute: blocks a sequence gave back can still be found
 * until their pool hands them out again, and ones it no longer holds are never needed.
 */
final class Scheduler {

    private final KvPools pools;
    private final BlockPool pool;
    private final int budget;
    private final int maxRunning;
    private final boolean prefixCaching;
    /** The most prompt tokens of a scored prompt per step. */
    static final int SCORED_CHUNK = 64;

    private final Deque<Sequence> waiting = new ArrayDeque<>();
    /** In admission order: the last is the first to be preempted. */
    private final List<Sequence> running = new ArrayList<>();

    private long preemptions;

    Scheduler(KvPools pools, int budget, int maxRunning, boolean prefixCaching) {
        this.pools = pools;
        this.pool = pools.pool(0);
        this.budget = budget;
        this.maxRunning = maxRunning;
        this.prefixCaching = prefixCaching;
    }

    void enqueue(Sequence s) {
        waiting.addLast(s);
    }

    void enqueueFirst(Sequence s) {
        waiting.addFirst(s);
    }

    int waitingSequences() {
        return waiting.size();
    }

    int runningSequences() {
        return running.size();
    }

    long preemptions() {
        return preemptions;
    }

    List<Sequence> running() {
        return running;
    }

    Iterable<Sequence> waiting() {
        return waiting;
    }

    StepPlan schedule() {
        List<StepPlan.Chunk> chunks = new ArrayList<>();
        int left = budget;
        boolean preempted = false;
        for (int i = 0; i < running.size() && left > 0; i++) {
            Sequence s = running.get(i);
            int count = chunk(s, left);
            s.table.slide(s.computed);
            while (!s.table.ensureCapacity(s.computed + (long) count)) {
                Sequence victim = running.getLast();
                preempt(victim);
                preempted = true;
                if (victim == s) {
                    break;
                }
            }
            if (s.state != Sequence.State.RUNNING) {
                break; // s itself was the last one: nothing after it runs either
            }
            chunks.add(new StepPlan.Chunk(s, count, s.computed + count == s.length()));
            left -= count;
        }
        // admitting while preempting would only thrash: wait for running sequences to finish
        while (!preempted && left > 0 && running.size() < maxRunning && !waiting.isEmpty()) {
            Sequence s = waiting.peekFirst();
            if (!admit(s, left)) {
                break;
            }
            waiting.pollFirst();
            s.state = Sequence.State.RUNNING;
            running.add(s);
            int count = chunk(s, left);
            chunks.add(new StepPlan.Chunk(s, count, s.computed + count == s.length()));
            left -= count;
        }
        return new StepPlan(chunks, budget - left);
    }

    /**
     * The tokens of {@code s} to compute next within {@code left}; a prompt being scored goes in
     * chunks of at most {@link #SCORED_CHUNK}, since each of its positions returns a row of logits.
     */
    private static int chunk(Sequence s, int left) {
        int count = Math.min(s.pending(), left);
        return s.scoringPrompt() ? Math.min(count, SCORED_CHUNK) : count;
    }

    /**
     * Gives a waiting sequence its cached prefix and the blocks for its first chunk, all or
     * nothing. The last prompt token is always computed, since its logits give the first token,
     * so prefix hits stop at the last full block before it.
     */
    private boolean admit(Sequence s, int left) {
        int hits = 0;
        // a scored prompt is computed whole: cached blocks have no logits to give
        if (prefixCaching && s.computed == 0 && !s.scoresPrompt()) {
            hits = takeCachedPrefix(s);
        }
        int count = chunk(s, left);
        if (!s.table.ensureCapacity(s.computed + (long) count)) {
            if (hits > 0) {
                s.resetCache();
            }
            return false;
        }
        if (hits > 0 && s.choice == 0 && s.generated == 0) {
            s.request.cachedPromptTokens = s.computed;
        }
        return true;
    }

    /**
     * Takes the longest cached prefix of whole blocks every group can serve: a global group needs
     * each of its blocks, a windowed one those its first query to compute reads (the others become
     * holes). Returns the blocks taken per table.
     */
    private int takeCachedPrefix(Sequence s) {
        int B = pool.blockSize();
        int cacheable = (s.length() - 1) / B;
        KvLayout layout = pools.layout();
        int groups = pools.groups();
        BlockKey[] keys = new BlockKey[cacheable];
        boolean[][] cached = new boolean[groups][cacheable];
        int limit = cacheable;
        BlockKey key = null;
        for (int b = 0; b < cacheable; b++) {
            key = BlockKey.of(key, s.tokens(), b * B, B);
            keys[b] = key;
            for (int g = 0; g < groups; g++) {
                cached[g][b] = pools.pool(g).find(key) != BlockPool.NULL_BLOCK;
                if (!layout.windowed(g) && !cached[g][b]) {
                    limit = Math.min(limit, b); // a global group's prefix ends at its first miss
                }
            }
            if (limit <= b) {
                break;
            }
        }
        int hits = limit;
        while (hits > 0 && !servable(cached, hits, B)) {
            hits--;
        }
        for (int g = 0; g < groups; g++) {
            int first = SequenceBlocks.firstNeeded(hits * B, layout.windowOfGroup()[g], B);
            for (int b = 0; b < hits; b++) {
                if (b < first) {
                    s.table.table(g).appendHole();
                } else {
                    int block = pools.pool(g).lookup(keys[b]);
                    if (block == BlockPool.NULL_BLOCK) {
                        throw new IllegalStateException("a cached block went missing during admission");
                    }
                    s.table.table(g).appendReferenced(block);
                }
            }
        }
        s.computed = hits * B;
        s.keyedBlocks = hits;
        s.lastKey = hits == 0 ? null : keys[hits - 1];
        return hits;
    }

    /** Whether every windowed group holds the blocks a query at {@code hits * B} reads. */
    private boolean servable(boolean[][] cached, int hits, int B) {
        for (int g = 0; g < cached.length; g++) {
            int window = pools.layout().windowOfGroup()[g];
            if (window > 0) {
                for (int b = SequenceBlocks.firstNeeded(hits * B, window, B); b < hits; b++) {
                    if (!cached[g][b]) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    private void preempt(Sequence victim) {
        running.remove(victim);
        victim.resetCache();
        victim.state = Sequence.State.WAITING;
        waiting.addFirst(victim);
        preemptions++;
    }

    /** Records what a step computed and offers the newly filled blocks to the prefix cache. */
    void completed(StepPlan plan) {
        for (StepPlan.Chunk c : plan.chunks()) {
            Sequence s = c.sequence();
            s.computed += c.count();
            if (prefixCaching) {
                int B = pool.blockSize();
                while ((s.keyedBlocks + 1) * B <= s.computed) {
                    BlockKey key = BlockKey.of(s.lastKey, s.tokens(), s.keyedBlocks * B, B);
                    for (int g = 0; g < pools.groups(); g++) {
                        int block = s.table.table(g).block(s.keyedBlocks);
                        if (block != BlockPool.NULL_BLOCK) { // a windowed group may have given it back already
                            pools.pool(g).cache(block, key);
                        }
                    }
                    s.lastKey = key;
                    s.keyedBlocks++;
                }
            }
        }
    }

    /** Takes a sequence out of the running set or the queue and returns its blocks. */
    void remove(Sequence s) {
        if (!running.remove(s)) {
            waiting.remove(s);
        }
        s.table.release();
        s.state = Sequence.State.FINISHED;
    }
}
