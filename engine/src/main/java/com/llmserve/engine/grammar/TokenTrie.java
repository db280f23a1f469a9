package com.llmserve.engine.grammar;

import com.llmserve.engine.tokenizer.Tokenizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The output bytes of every token of a vocabulary, as a trie: tokens that share a prefix share
 * its walk, so a mask costs one grammar step per distinct prefix, and a prefix the grammar
 * refuses cuts off every token under it. Control tokens (no output bytes) are not in it: a
 * grammar can neither require nor allow them; end-of-generation is decided apart.
 *
 * <p>Immutable; one per tokenizer, shared by every grammar used with it.
 */
public final class TokenTrie {

    private static final Map<Tokenizer, TokenTrie> CACHE = new WeakHashMap<>();

    final int vocabSize;
    /** Children of node {@code n}: {@code childByte/childNode[childStart[n] .. childStart[n+1])}. */
    final int[] childStart;

    final byte[] childByte;
    final int[] childNode;
    /** Tokens ending at node {@code n}: {@code tokens[tokenStart[n] .. tokenStart[n+1])}. */
    final int[] tokenStart;

    final int[] tokens;
    private final byte[][] bytes;

    private TokenTrie(int vocabSize, byte[][] bytes) {
        this.vocabSize = vocabSize;
        this.bytes = bytes;
        Map<Long, Integer> edges = new HashMap<>();
        List<List<Integer>> ending = new ArrayList<>();
        ending.add(new ArrayList<>());
        List<int[]> edgeList = new ArrayList<>(); // parent, byte, child
        for (int t = 0; t < vocabSize; t++) {
            byte[] b = bytes[t];
            if (b == null || b.length == 0) {
                continue;
            }
            int node = 0;
            for (byte x : b) {
                long key = ((long) node << 8) | (x & 0xFF);
                Integer child = edges.get(key);
                if (child == null) {
                    child = ending.size();
                    ending.add(new ArrayList<>());
                    edges.put(key, child);
                    edgeList.add(new int[] {node, x & 0xFF, child});
                }
                node = child;
            }
            ending.get(node).add(t);
        }
        int nodes = ending.size();
        edgeList.sort((a, c) -> a[0] != c[0] ? Integer.compare(a[0], c[0]) : Integer.compare(a[1], c[1]));
        childStart = new int[nodes + 1];
        childByte = new byte[edgeList.size()];
        childNode = new int[edgeList.size()];
        for (int i = 0; i < edgeList.size(); i++) {
            int[] e = edgeList.get(i);
            childStart[e[0] + 1]++;
            childByte[i] = (byte) e[1];
            childNode[i] = e[2];
        }
        for (int n = 0; n < nodes; n++) {
            childStart[n + 1] += childStart[n];
        }
        tokenStart = new int[nodes + 1];
        for (int n = 0; n < nodes; n++) {
            tokenStart[n + 1] = tokenStart[n] + ending.get(n).size();
        }
        tokens = new int[tokenStart[nodes]];
        for (int n = 0; n < nodes; n++) {
            List<Integer> at = ending.get(n);
            for (int i = 0; i < at.size(); i++) {
                tokens[tokenStart[n] + i] = at.get(i);
            }
        }
    }

    /** The trie of a tokenizer's vocabulary, built once per tokenizer. */
    public static TokenTrie of(Tokenizer tokenizer) {
        synchronized (CACHE) {
            return CACHE.computeIfAbsent(tokenizer, TokenTrie::build);
        }
    }

    private static TokenTrie build(Tokenizer tokenizer) {
        byte[][] bytes = new byte[tokenizer.vocabSize()][];
        for (int t = 0; t < bytes.length; t++) {
            bytes[t] = tokenizer.isControl(t) ? new byte[0] : tokenizer.tokenBytes(t);
        }
        return new TokenTrie(bytes.length, bytes);
    }

    /** A trie over explicit token bytes (index = token id), for tests. */
    static TokenTrie ofBytes(byte[][] bytes) {
        return new TokenTrie(bytes.length, Arrays.copyOf(bytes, bytes.length));
    }

    /** The output bytes of a token; empty for control tokens. Do not modify. */
    byte[] bytes(int token) {
        return bytes[token];
    }
}
