package com.llmserve.engine.grammar;

import static com.llmserve.engine.grammar.Expr.alt;
import static com.llmserve.engine.grammar.Expr.empty;
import static com.llmserve.engine.grammar.Expr.literal;
import static com.llmserve.engine.grammar.Expr.seq;
import static com.llmserve.engine.grammar.Expr.star;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeMap;

/**
 * The keys of additional properties: any string but the declared property names, so an object never
 * holds a declared name twice, or once with the schema of the additional ones. The names are
 * excluded through a trie: at each node the key may end (unless a name ends there), go on with a
 * child's character, or leave the trie with any other character and then be free.
 *
 * <p>Excluding spellings only works if every character has one, so these keys spell each character
 * one way ({@link JsonText#escape}), and leave out the control characters that only a {@code \}{@code
 * u} escape can write.
 */
final class OtherKeys {

    /** Characters a key may hold: all but lone surrogates and the controls without a short escape. */
    private static final int[] KEY_CHARS = CodePoints.minus(
            CodePoints.ALL,
            CodePoints.union(
                    CodePoints.SURROGATES,
                    CodePoints.minus(CodePoints.of(0, 0x1f), CodePoints.of('\b', '\b', '\t', '\n', '\f', '\r'))));

    private OtherKeys() {}

    /** A JSON string, quotes included, whose value is none of {@code names}. */
    static Expr except(Collection<String> names) {
        Node root = new Node();
        for (String name : names) {
            Node n = root;
            for (int cp : name.codePoints().toArray()) {
                n = n.children.computeIfAbsent(cp, c -> new Node());
            }
            n.terminal = true;
        }
        return seq(literal("\""), root.rest(), literal("\""));
    }

    private static final class Node {
        final TreeMap<Integer, Node> children = new TreeMap<>();
        boolean terminal;

        /** What may follow once the key so far has reached this node. */
        Expr rest() {
            List<Expr> options = new ArrayList<>();
            if (!terminal) {
                options.add(empty());
            }
            int[] childChars = {};
            for (var e : children.entrySet()) {
                int cp = e.getKey();
                childChars = CodePoints.union(childChars, new int[] {cp, cp});
                options.add(seq(literal(JsonText.escape(cp)), e.getValue().rest()));
            }
            Expr leave = JsonRules.encodedCharIn(CodePoints.minus(KEY_CHARS, childChars));
            options.add(seq(leave, star(JsonRules.encodedCharIn(KEY_CHARS))));
            return alt(options);
        }
    }
}
