package com.llmserve.engine.tokenizer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The merge table of a byte-level BPE vocabulary, prepared once. Every string that occurs in a
 * merge (and every single byte character) gets a small "piece" number; a merge is then a lookup
 * of the pair (left piece, right piece) in an open-addressing table that gives its rank and the
 * piece it produces, so the merge loop never builds or hashes strings.
 */
final class BpeMerges {

    private static final int EMPTY = -1;

    private final Map<String, Integer> pieceIds = new HashMap<>();
    private final List<String> pieceTexts = new ArrayList<>();
    private final int[] bytePieces = new int[256];
    /** For each piece, the token with the same text, or {@link Vocabulary#NONE}. */
    private final int[] pieceTokens;

    private final long[] keys;
    private final int[] ranks;
    private final int[] results;
    private final int mask;

    BpeMerges(Vocabulary vocab, String[] merges) {
        for (int b = 0; b < 256; b++) {
            bytePieces[b] = intern(String.valueOf(ByteLevel.charOf(b)));
        }
        int capacity = Integer.highestOneBit(Math.max(4, merges.length) * 2) * 2;
        keys = new long[capacity];
        ranks = new int[capacity];
        results = new int[capacity];
        Arrays.fill(ranks, EMPTY);
        mask = capacity - 1;
        for (int rank = 0; rank < merges.length; rank++) {
            String merge = merges[rank];
            // Split at the first space after the first character, as llama.cpp does, so that a
            // left part may itself start with a space.
            int space = merge.indexOf(' ', 1);
            if (space < 0) {
                continue;
            }
            String left = merge.substring(0, space);
            String right = merge.substring(space + 1);
            int l = intern(left);
            int r = intern(right);
            put(l, r, rank, intern(left + right));
        }
        pieceTokens = new int[pieceTexts.size()];
        for (int p = 0; p < pieceTokens.length; p++) {
            pieceTokens[p] = vocab.id(pieceTexts.get(p));
        }
    }

    private int intern(String s) {
        Integer id = pieceIds.get(s);
        if (id != null) {
            return id;
        }
        int next = pieceTexts.size();
        pieceIds.put(s, next);
        pieceTexts.add(s);
        return next;
    }

    /** Keeps the first (highest-priority) rank when a pair occurs twice, as llama.cpp's emplace does. */
    private void put(int left, int right, int rank, int result) {
        long key = pairKey(left, right);
        int slot = slot(key);
        while (ranks[slot] != EMPTY) {
            if (keys[slot] == key) {
                return;
            }
            slot = (slot + 1) & mask;
        }
        keys[slot] = key;
        ranks[slot] = rank;
        results[slot] = result;
    }

    /** The table slot of a pair, or -1 when the pair does not merge. */
    int find(int left, int right) {
        long key = pairKey(left, right);
        int slot = slot(key);
        while (ranks[slot] != EMPTY) {
            if (keys[slot] == key) {
                return slot;
            }
            slot = (slot + 1) & mask;
        }
        return -1;
    }

    int rankAt(int slot) {
        return ranks[slot];
    }

    int resultAt(int slot) {
        return results[slot];
    }

    int bytePiece(int b) {
        return bytePieces[b & 0xFF];
    }

    int tokenOf(int piece) {
        return pieceTokens[piece];
    }

    String textOf(int piece) {
        return pieceTexts.get(piece);
    }

    private static long pairKey(int left, int right) {
        return ((long) left << 32) | (right & 0xFFFFFFFFL);
    }

    private int slot(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }
}
