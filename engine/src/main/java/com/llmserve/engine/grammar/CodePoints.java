package com.llmserve.engine.grammar;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Sets of code points as sorted, disjoint, inclusive ranges {@code [lo0, hi0, lo1, hi1, ...]}: the
 * set algebra that regex classes ({@code [^\d\s]}) and JSON string encoding need before a set
 * becomes an {@link Expr.CharClass}.
 */
final class CodePoints {

    static final int[] ALL = {0, Character.MAX_CODE_POINT};
    static final int[] SURROGATES = {Character.MIN_SURROGATE, Character.MAX_SURROGATE};

    private CodePoints() {}

    /** Sorts and merges ranges given in any order. */
    static int[] of(int... ranges) {
        List<int[]> pairs = new ArrayList<>();
        for (int i = 0; i < ranges.length; i += 2) {
            pairs.add(new int[] {ranges[i], ranges[i + 1]});
        }
        pairs.sort((a, b) -> Integer.compare(a[0], b[0]));
        List<Integer> out = new ArrayList<>();
        for (int[] p : pairs) {
            int n = out.size();
            if (n > 0 && p[0] <= out.get(n - 1) + 1) {
                out.set(n - 1, Math.max(out.get(n - 1), p[1]));
            } else {
                out.add(p[0]);
                out.add(p[1]);
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    static int[] union(int[] a, int[] b) {
        int[] both = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return of(both);
    }

    static int[] complement(int[] set) {
        List<Integer> out = new ArrayList<>();
        int next = 0;
        for (int i = 0; i < set.length; i += 2) {
            if (set[i] > next) {
                out.add(next);
                out.add(set[i] - 1);
            }
            next = set[i + 1] + 1;
        }
        if (next <= Character.MAX_CODE_POINT) {
            out.add(next);
            out.add(Character.MAX_CODE_POINT);
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    static int[] minus(int[] a, int[] b) {
        return complement(union(complement(a), b));
    }

    static int[] intersect(int[] a, int[] b) {
        return complement(union(complement(a), complement(b)));
    }

    static boolean isEmpty(int[] set) {
        return set.length == 0;
    }
}
