package com.llmserve.engine.grammar;

import static com.llmserve.engine.grammar.Expr.alt;
import static com.llmserve.engine.grammar.Expr.literal;
import static com.llmserve.engine.grammar.Expr.oneOf;
import static com.llmserve.engine.grammar.Expr.optional;
import static com.llmserve.engine.grammar.Expr.plus;
import static com.llmserve.engine.grammar.Expr.range;
import static com.llmserve.engine.grammar.Expr.ref;
import static com.llmserve.engine.grammar.Expr.repeat;
import static com.llmserve.engine.grammar.Expr.seq;
import static com.llmserve.engine.grammar.Expr.star;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GrammarTests {

    @Test
    void literalsAlternativesAndRepetition() {
        Grammar g = Grammar.of(seq(alt(literal("yes"), literal("no")), optional(literal("!")), star(oneOf(" \n"))));
        assertThat(g.matches("yes")).isTrue();
        assertThat(g.matches("no! \n ")).isTrue();
        assertThat(g.matches("maybe")).isFalse();
        assertThat(g.matches("ye")).isFalse();
        assertThat(g.matches("")).isFalse();
    }

    @Test
    void boundedRepetitionCountsExactly() {
        Grammar g = Grammar.of(repeat(range('0', '9'), 2, 4));
        assertThat(g.matches("1")).isFalse();
        assertThat(g.matches("12")).isTrue();
        assertThat(g.matches("1234")).isTrue();
        assertThat(g.matches("12345")).isFalse();
    }

    @Test
    void recursiveRulesNest() {
        Map<String, Expr> rules = new LinkedHashMap<>();
        rules.put("root", ref("list"));
        rules.put(
                "list",
                seq(literal("["), optional(seq(ref("item"), star(seq(literal(","), ref("item"))))), literal("]")));
        rules.put("item", alt(plus(range('a', 'z')), ref("list")));
        Grammar g = Grammar.of(rules, "root");
        assertThat(g.matches("[]")).isTrue();
        assertThat(g.matches("[a,[b,[]],cd]")).isTrue();
        assertThat(g.matches("[a,]")).isFalse();
        assertThat(g.matches("[[a]")).isFalse();
    }

    @Test
    void longRepetitionKeepsTheStackFlat() {
        Grammar g = Grammar.of(star(oneOf("ab")));
        GrammarState s = GrammarState.start(g);
        for (int i = 0; i < 100_000; i++) {
            s = s.accept(i % 2 == 0 ? 'a' : 'b');
        }
        assertThat(s.canEnd()).isTrue();
        assertThat(s).isEqualTo(GrammarState.start(g).accept('a'));
    }

    @Test
    void negatedClassesAndRanges() {
        Grammar g = Grammar.of(plus(Expr.notRange('"', '"', '\\', '\\', 0, 0x1f)));
        assertThat(g.matches("héllo ✓")).isTrue();
        assertThat(g.matches("a\"b")).isFalse();
        GrammarState s = GrammarState.start(g);
        assertThat(s.acceptsSomeOf(0x80, 0x7ff)).isTrue();
        assertThat(Grammar.of(range('a', 'z')).matches("é")).isFalse();
    }

    @Test
    void refusesLeftRecursionAndUndefinedRules() {
        Map<String, Expr> left = Map.of("root", alt(seq(ref("root"), literal("a")), literal("b")));
        assertThatThrownBy(() -> Grammar.of(left, "root"))
                .isInstanceOf(GrammarException.class)
                .hasMessageContaining("left-recursive");
        assertThatThrownBy(() -> Grammar.of(Map.of("root", ref("missing")), "root"))
                .isInstanceOf(GrammarException.class)
                .hasMessageContaining("'missing'");
    }

    @Test
    void finalStateCannotGrow() {
        GrammarState s = GrammarState.start(Grammar.of(literal("ok")));
        s = s.accept('o').accept('k');
        assertThat(s.canEnd()).isTrue();
        assertThat(s.isFinal()).isTrue();
        assertThat(s.accept('k')).isNull();
    }

    @Test
    void longBoundedRepetitionLowersWithoutDeepRecursion() {
        Grammar g = Grammar.of(repeat(range('a', 'z'), 0, 20_000));
        assertThat(g.matches("a".repeat(20_000))).isTrue();
        assertThat(g.matches("a".repeat(20_001))).isFalse();
    }
}
