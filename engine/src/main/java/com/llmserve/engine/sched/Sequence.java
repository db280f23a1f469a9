package com.llmserve.engine.sched;

import com.llmserve.engine.grammar.TokenConstraint;
import com.llmserve.engine.kv.BlockPool.BlockKey;
import com.llmserve.engine.kv.KvPools;
import com.llmserve.engine.kv.SequenceBlocks;
import com.llmserve.engine.sampling.Sampler;
import com.llmserve.engine.sampling.TokenHistory;
import java.util.Arrays;

/**
 * One choice of a request as the scheduler sees it: its tokens (prompt, then output), how many of
 * them have keys and values in the cache, and its block table. Owned by the engine loop thread.
 */
final class Sequence {

    enum State {
        WAITING,
        RUNNING,
        FINISHED
    }

    final Request request;
    final int choice;
    final int promptLength;
    /** Its block tables, one per KV group. */
    final SequenceBlocks table;

    final Sampler sampler;
    final TokenHistory history;
    /** Where this choice stands in its request's grammar, or null when unconstrained. */
    final TokenConstraint constraint;
    /** The tokens the grammar allows for the token this step samples (set by the engine each step). */
    long[] stepMask;

    private int[] tokens;
    private int length;
    /** Tokens whose keys and values are in the cache. */
    int computed;

    int generated;
    State state = State.WAITING;
    /** Full blocks registered in (or taken from) the prefix cache, and the key of the last of them. */
    int keyedBlocks;

    BlockKey lastKey;
    /** The next prompt position to score, when this choice scores its request's prompt. */
    int promptScored = 1;

    long firstTokenNanos;
    long lastTokenNanos;
    /** Set from any thread by {@link RequestHandle#stop}; acted on by the loop. */
    volatile boolean stopRequested;

    Sequence(Request request, int choice, KvPools pool, Sampler sampler) {
        this.request = request;
        this.choice = choice;
        int[] prompt = request.spec.prompt();
        this.promptLength = prompt.length;
        this.tokens = Arrays.copyOf(prompt, prompt.length + Math.min(request.maxTokens, 1 << 12));
        this.length = prompt.length;
        this.table = new SequenceBlocks(pool);
        this.sampler = sampler;
        this.history = new TokenHistory(prompt);
        this.constraint =
                request.spec.grammar() == null ? null : request.spec.grammar().start();
    }

    int length() {
        return length;
    }

    int[] tokens() {
        return tokens;
    }

    /** Whether this choice reports its request's prompt log-probabilities (the first choice does, when asked). */
    boolean scoresPrompt() {
        return choice == 0 && request.spec.promptLogprobs() >= 0;
    }

    /** Whether prompt positions remain to be scored. */
    boolean scoringPrompt() {
        return scoresPrompt() && promptScored < promptLength;
    }

    /** Whether computing {@code count} tokens from {@code from} reaches prompt positions still to be scored. */
    boolean scoresPromptIn(int from, int count) {
        return scoresPrompt() && promptScored < promptLength && from + 1 < promptLength && from + count >= promptScored;
    }

    /** Tokens still to be computed before the next one can be sampled. */
    int pending() {
        return length - computed;
    }

    void append(int token) {
        if (length == tokens.length) {
            tokens = Arrays.copyOf(tokens, tokens.length * 2);
        }
        tokens[length++] = token;
        generated++;
        history.accept(token);
        if (constraint != null) {
            constraint.accept(token);
        }
    }

    /** Forgets the cache (preemption): everything is computed again when the sequence is readmitted. */
    void resetCache() {
        table.release();
        computed = 0;
        keyedBlocks = 0;
        lastKey = null;
    }

    @Override
    public String toString() {
        return "Sequence[" + request.id + "/" + choice + ", " + computed + "/" + length + " computed, " + state + "]";
    }
}
