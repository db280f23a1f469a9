package com.llmserve.engine.grammar;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A grammar over a vocabulary: which tokens may come next in a given parse state. Compiled once
 * per grammar and tokenizer and shared by every sequence that uses it (thread-safe), so the work
 * is done once and reused: states are interned, each interned state remembers the transitions
 * taken from it, and the token mask of a state is computed at most once. A JSON answer revisits
 * the same few states (inside a string, after a comma at a given depth), so after the first
 * answers almost every step is a cache hit: the per-step cost is then applying the mask.
 *
 * <p>Masks come from a walk of the {@link TokenTrie}: a prefix the grammar refuses cuts off
 * every token under it.
 */
public final class TokenAutomaton {

    /** Interned states beyond this are used uncached, so a pathological grammar cannot exhaust memory. */
    private static final int MAX_STATES = 50_000;
    /** Each cached state's masks are two bits per token; this bounds their memory per automaton. */
    private static final long MAX_MASK_BYTES = 64L << 20;

    private static final Object DEAD = new Object();

    private final Grammar grammar;
    private final TokenTrie trie;
    private final GrammarState start;
    private final Map<GrammarState, GrammarState> states = new ConcurrentHashMap<>();
    private final AtomicInteger masks = new AtomicInteger();
    private final int maxMasks;

    private TokenAutomaton(Grammar grammar, TokenTrie trie) {
        this.grammar = grammar;
        this.trie = trie;
        this.start = intern(GrammarState.start(grammar));
        this.maxMasks = (int) Math.max(16, MAX_MASK_BYTES / (16L * words(trie.vocabSize)));
    }

    public static TokenAutomaton of(Grammar grammar, TokenTrie trie) {
        return new TokenAutomaton(grammar, trie);
    }

    public Grammar grammar() {
        return grammar;
    }

    public int vocabSize() {
        return trie.vocabSize;
    }

    /** A matcher for one sequence, at the start of the grammar. */
    public TokenConstraint start() {
        return new TokenConstraint(this, start);
    }

    /** How many states have been interned (for tests and metrics). */
    public int internedStates() {
        return states.size();
    }

    static int words(int vocabSize) {
        return (vocabSize + 63) >>> 6;
    }

    private GrammarState intern(GrammarState s) {
        if (s == null) {
            return null;
        }
        GrammarState known = states.get(s);
        if (known != null) {
            return known;
        }
        if (states.size() >= MAX_STATES) {
            return s;
        }
        s.transitions = GrammarState.newTransitions();
        known = states.putIfAbsent(s, s);
        return known != null ? known : s;
    }

    /** The state after a code point, or null; remembered when the state is interned. */
    GrammarState step(GrammarState s, int cp) {
        Map<Integer, Object> t = s.transitions;
        if (t != null) {
            Object known = t.get(cp);
            if (known != null) {
                return known == DEAD ? null : (GrammarState) known;
            }
        }
        GrammarState next = intern(s.accept(cp));
        if (t != null) {
            t.put(cp, next == null ? DEAD : next);
        }
        return next;
    }

    /**
     * What the vocabulary offers after state {@code s} with {@code pending} bytes of a character in
     * progress ({@link Utf8Step}). Cached per interned state when nothing is pending; the caller
     * must not modify the result.
     */
    StateMasks masks(GrammarState s, long pending) {
        if (pending == Utf8Step.NONE) {
            StateMasks cached = s.masks;
            if (cached != null) {
                return cached;
            }
        }
        Walk walk = new Walk(words(trie.vocabSize), distance(s, pending));
        walk(0, s, pending, walk);
        StateMasks masks = walk.result();
        if (pending == Utf8Step.NONE && s.transitions != null && this.masks.get() < maxMasks) {
            this.masks.incrementAndGet();
            s.masks = masks;
        }
        return masks;
    }

    /** Characters still needed: a character in progress counts as one more. */
    private static int distance(GrammarState s, long pending) {
        return s.distance() + (pending == Utf8Step.NONE ? 0 : 1);
    }

    /** What a walk collects. */
    private static final class Walk {
        final long[] allowed;
        final long[] closing;
        final int distance;
        int[] raising = new int[16];
        int[] raisedTo = new int[16];
        int raised;

        Walk(int words, int distance) {
            this.allowed = new long[words];
            this.closing = new long[words];
            this.distance = distance;
        }

        void token(int t, int after) {
            allowed[t >>> 6] |= 1L << t;
            if (after < distance) {
                closing[t >>> 6] |= 1L << t;
            } else if (after > distance) {
                if (raised == raising.length) {
                    raising = java.util.Arrays.copyOf(raising, raised * 2);
                    raisedTo = java.util.Arrays.copyOf(raisedTo, raised * 2);
                }
                raising[raised] = t;
                raisedTo[raised++] = after;
            }
        }

        StateMasks result() {
            Integer[] order = new Integer[raised];
            for (int i = 0; i < raised; i++) {
                order[i] = i;
            }
            java.util.Arrays.sort(order, (x, y) -> Integer.compare(raisedTo[y], raisedTo[x]));
            int[] tokens = new int[raised];
            int[] to = new int[raised];
            for (int i = 0; i < raised; i++) {
                tokens[i] = raising[order[i]];
                to[i] = raisedTo[order[i]];
            }
            return new StateMasks(allowed, closing, distance, tokens, to);
        }
    }

    private void walk(int node, GrammarState s, long pending, Walk walk) {
        int after = distance(s, pending);
        for (int i = trie.tokenStart[node]; i < trie.tokenStart[node + 1]; i++) {
            walk.token(trie.tokens[i], after);
        }
        for (int c = trie.childStart[node]; c < trie.childStart[node + 1]; c++) {
            long p = Utf8Step.next(pending, trie.childByte[c] & 0xFF);
            if (p == Utf8Step.INVALID) {
                continue;
            }
            if (Utf8Step.complete(p)) {
                GrammarState next = step(s, Utf8Step.codePoint(p));
                if (next != null && !next.isFinal()) {
                    walk(trie.childNode[c], next, Utf8Step.NONE, walk);
                } else if (next != null) {
                    // nothing can follow: only the tokens ending here
                    int child = trie.childNode[c];
                    for (int i = trie.tokenStart[child]; i < trie.tokenStart[child + 1]; i++) {
                        walk.token(trie.tokens[i], 0);
                    }
                }
            } else if (s.acceptsSomeOf(Utf8Step.low(p), Math.min(Utf8Step.high(p), Character.MAX_CODE_POINT))) {
                walk(trie.childNode[c], s, p, walk);
            }
        }
    }

    /** Whether token {@code t} may follow, checked by its bytes alone (no mask); and where it leads, in {@code out}. */
    boolean allows(GrammarState s, long pending, int t, Object[] out) {
        byte[] b = trie.bytes(t);
        if (b.length == 0) {
            return false;
        }
        for (byte x : b) {
            long p = Utf8Step.next(pending, x & 0xFF);
            if (p == Utf8Step.INVALID) {
                return false;
            }
            if (Utf8Step.complete(p)) {
                s = step(s, Utf8Step.codePoint(p));
                if (s == null) {
                    return false;
                }
                pending = Utf8Step.NONE;
            } else {
                if (!s.acceptsSomeOf(Utf8Step.low(p), Math.min(Utf8Step.high(p), Character.MAX_CODE_POINT))) {
                    return false;
                }
                pending = p;
            }
        }
        if (out != null) {
            out[0] = s;
            out[1] = pending;
        }
        return true;
    }
}
