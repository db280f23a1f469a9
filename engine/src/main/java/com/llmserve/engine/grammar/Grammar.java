package com.llmserve.engine.grammar;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * A context-free grammar over code points, lowered to llama.cpp's shape: rules of alternatives,
 * each a sequence of elements that are either a character class or a reference to a rule. The
 * elements of every alternative sit in one array, each alternative ended by {@link #END}, so a
 * parse position is a single int. Repetition becomes right recursion, which the matcher's stacks
 * keep flat. Left recursion is refused: the matcher expands rules eagerly and would not stop.
 *
 * <p>Immutable and thread-safe.
 */
public final class Grammar {

    static final int END = Integer.MIN_VALUE;

    /** Element codes: a rule id (>= 0), a character class {@code -(index + 1)}, or {@link #END}. */
    final int[] elements;
    /** Per rule, the positions where its alternatives start. */
    final int[][] alternatives;

    final Expr.CharClass[] classes;
    final String[] ruleNames;
    final int root;
    /** Per position, the fewest characters that finish its alternative from there: how far a frame is from done. */
    final int[] minRest;

    private Grammar(int[] elements, int[][] alternatives, Expr.CharClass[] classes, String[] ruleNames, int root) {
        this.elements = elements;
        this.alternatives = alternatives;
        this.classes = classes;
        this.ruleNames = ruleNames;
        this.root = root;
        this.minRest = minRest(elements, alternatives);
    }

    private static final int FAR = Integer.MAX_VALUE / 4;

    /** Shortest lengths by fixpoint: a rule's is its shortest alternative's; an alternative's is the sum of its elements'. */
    private static int[] minRest(int[] elements, int[][] alternatives) {
        int[] ruleMin = new int[alternatives.length];
        java.util.Arrays.fill(ruleMin, FAR);
        int[] rest = new int[elements.length];
        for (boolean changed = true; changed; ) {
            changed = false;
            for (int r = 0; r < alternatives.length; r++) {
                for (int start : alternatives[r]) {
                    int end = start;
                    while (elements[end] != END) {
                        end++;
                    }
                    int sum = 0;
                    for (int p = end; p >= start; p--) {
                        int e = elements[p];
                        sum = e == END ? 0 : Math.min(FAR, sum + (e < 0 ? 1 : ruleMin[e]));
                        rest[p] = sum;
                    }
                    if (sum < ruleMin[r]) {
                        ruleMin[r] = sum;
                        changed = true;
                    }
                }
            }
        }
        return rest;
    }

    /**
     * Lowers named rules; {@code root} names the start rule.
     *
     * @throws GrammarException for a reference to an undefined rule, or left recursion
     */
    public static Grammar of(Map<String, Expr> rules, String root) {
        return new Lowering(rules).lower(root);
    }

    /** A grammar of one rule, {@code root ::= expr}. */
    public static Grammar of(Expr expr) {
        return of(Map.of("root", expr), "root");
    }

    /** Whether the whole text is in the language (for tests and for checking outputs). */
    public boolean matches(String text) {
        GrammarState s = GrammarState.start(this);
        for (int i = 0; i < text.length() && s != null; ) {
            int cp = text.codePointAt(i);
            s = s.accept(cp);
            i += Character.charCount(cp);
        }
        return s != null && s.canEnd();
    }

    int ruleCount() {
        return alternatives.length;
    }

    @Override
    public String toString() {
        return "Grammar[" + alternatives.length + " rules, root " + ruleNames[root] + "]";
    }

    /** Turns expressions into flat rules, adding helper rules for nested alternatives and repetition. */
    private static final class Lowering {
        private final Map<String, Expr> source;
        private final Map<String, Integer> ids = new LinkedHashMap<>();
        private final List<List<List<Integer>>> rules = new ArrayList<>();
        private final List<String> names = new ArrayList<>();
        private final Map<Expr.CharClass, Integer> classIds = new HashMap<>();
        private final List<Expr.CharClass> classes = new ArrayList<>();
        private final Map<Expr, Integer> helpers = new HashMap<>();

        Lowering(Map<String, Expr> source) {
            this.source = source;
        }

        Grammar lower(String root) {
            if (!source.containsKey(root)) {
                throw new GrammarException("the grammar has no rule '" + root + "'");
            }
            int rootId = id(root);
            for (Map.Entry<String, Expr> e : source.entrySet()) {
                int id = id(e.getKey());
                rules.set(id, alternatives(e.getValue()));
            }
            for (int i = 0; i < rules.size(); i++) {
                if (rules.get(i) == null) {
                    throw new GrammarException("rule '" + names.get(i) + "' is used but not defined");
                }
            }
            List<Integer> flat = new ArrayList<>();
            int[][] starts = new int[rules.size()][];
            for (int r = 0; r < rules.size(); r++) {
                List<List<Integer>> alts = rules.get(r);
                starts[r] = new int[alts.size()];
                for (int a = 0; a < alts.size(); a++) {
                    starts[r][a] = flat.size();
                    flat.addAll(alts.get(a));
                    flat.add(END);
                }
            }
            Grammar g = new Grammar(
                    flat.stream().mapToInt(Integer::intValue).toArray(),
                    starts,
                    classes.toArray(Expr.CharClass[]::new),
                    names.toArray(String[]::new),
                    rootId);
            refuseLeftRecursion(g);
            return g;
        }

        private int id(String name) {
            Integer id = ids.get(name);
            if (id == null) {
                id = rules.size();
                ids.put(name, id);
                names.add(name);
                rules.add(null);
            }
            return id;
        }

        private List<List<Integer>> alternatives(Expr e) {
            List<List<Integer>> out = new ArrayList<>();
            if (e instanceof Expr.Alt alt) {
                for (Expr o : alt.options()) {
                    out.addAll(alternatives(o));
                }
            } else {
                List<Integer> seq = new ArrayList<>();
                sequence(e, seq);
                out.add(seq);
            }
            return out;
        }

        private void sequence(Expr e, List<Integer> out) {
            switch (e) {
                case Expr.Literal l ->
                    l.text()
                            .codePoints()
                            .forEach(cp -> out.add(charClass(new Expr.CharClass(new int[] {cp, cp}, false))));
                case Expr.CharClass c -> out.add(charClass(c));
                case Expr.Ref r -> out.add(id(r.name()));
                case Expr.Seq s -> s.parts().forEach(p -> sequence(p, out));
                case Expr.Alt a -> out.add(helper(a));
                case Expr.Repeat r -> repeat(r, out);
            }
        }

        private void repeat(Expr.Repeat r, List<Integer> out) {
            for (int i = 0; i < r.min(); i++) {
                sequence(r.body(), out);
            }
            if (r.max() < 0) {
                out.add(helper(new Expr.Repeat(r.body(), 0, -1), self -> {
                    // star ::= body star | ""
                    List<Integer> loop = new ArrayList<>();
                    sequence(r.body(), loop);
                    loop.add(self);
                    return List.of(loop, List.of());
                }));
            } else if (r.max() > r.min()) {
                // at most k more: opt_k ::= body opt_{k-1} | ""
                int k = r.max() - r.min();
                out.add(optionalChain(r.body(), k));
            }
        }

        /** {@code opt_k ::= body opt_(k-1) | ""}, built from the inside out so long chains need no deep recursion. */
        private int optionalChain(Expr body, int k) {
            int inner = -1;
            for (int i = 1; i <= k; i++) {
                int previous = inner;
                inner = helper(new Expr.Repeat(body, 0, i), self -> {
                    List<Integer> more = new ArrayList<>();
                    sequence(body, more);
                    if (previous >= 0) {
                        more.add(previous);
                    }
                    return List.of(more, List.of());
                });
            }
            return inner;
        }

        private int helper(Expr.Alt alt) {
            return helper(alt, self -> alternatives(alt));
        }

        /** A helper rule per distinct expression, so repeated use shares one rule. */
        private int helper(Expr key, IntFunction<List<List<Integer>>> body) {
            Integer existing = helpers.get(key);
            if (existing != null) {
                return existing;
            }
            String name = "_h" + helpers.size();
            while (ids.containsKey(name) || source.containsKey(name)) {
                name = name + "_";
            }
            int id = id(name);
            helpers.put(key, id);
            rules.set(id, body.apply(id));
            return id;
        }

        private int charClass(Expr.CharClass c) {
            Integer id = classIds.get(c);
            if (id == null) {
                id = classes.size();
                classes.add(c);
                classIds.put(c, id);
            }
            return -(id + 1);
        }
    }

    /** A rule that can reach itself without consuming a character would make the matcher loop. */
    private static void refuseLeftRecursion(Grammar g) {
        int n = g.ruleCount();
        boolean[] nullable = new boolean[n];
        for (boolean changed = true; changed; ) {
            changed = false;
            for (int r = 0; r < n; r++) {
                if (!nullable[r] && anyAlternative(g, r, nullable)) {
                    nullable[r] = true;
                    changed = true;
                }
            }
        }
        // leftmost[r]: rules reachable from r's start without consuming input
        BitSet[] leftmost = new BitSet[n];
        for (int r = 0; r < n; r++) {
            leftmost[r] = new BitSet(n);
            for (int start : g.alternatives[r]) {
                for (int p = start; g.elements[p] != END; p++) {
                    int e = g.elements[p];
                    if (e < 0) {
                        break;
                    }
                    leftmost[r].set(e);
                    if (!nullable[e]) {
                        break;
                    }
                }
            }
        }
        for (int r = 0; r < n; r++) {
            BitSet seen = new BitSet(n);
            List<Integer> todo = new ArrayList<>();
            leftmost[r].stream().forEach(todo::add);
            while (!todo.isEmpty()) {
                int x = todo.removeLast();
                if (x == r) {
                    throw new GrammarException("rule '" + g.ruleNames[r] + "' is left-recursive");
                }
                if (!seen.get(x)) {
                    seen.set(x);
                    leftmost[x].stream().forEach(todo::add);
                }
            }
        }
    }

    private static boolean anyAlternative(Grammar g, int rule, boolean[] nullable) {
        for (int start : g.alternatives[rule]) {
            boolean all = true;
            for (int p = start; g.elements[p] != END && all; p++) {
                int e = g.elements[p];
                all = e >= 0 && nullable[e];
            }
            if (all) {
                return true;
            }
        }
        return false;
    }
}
