package com.llmserve.engine.grammar;

import static com.llmserve.engine.grammar.Expr.alt;
import static com.llmserve.engine.grammar.Expr.literal;
import static com.llmserve.engine.grammar.Expr.notRange;
import static com.llmserve.engine.grammar.Expr.range;
import static com.llmserve.engine.grammar.Expr.seq;
import static com.llmserve.engine.grammar.Expr.star;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TokenAutomatonTests {

    /** A small vocabulary with shared prefixes, a control token (id 0) and the UTF-8 bytes of "é" split over two tokens. */
    private static final String[] TEXTS = {
        "", "{", "}", "{\"", "\"", "\":", "a", "ab", "abc", "b", " ", "  ", "1", "12", "\"}", ",", ",\"", "é", "x", ":"
    };

    private static byte[][] vocabulary() {
        List<byte[]> bytes = new ArrayList<>();
        for (String t : TEXTS) {
            bytes.add(t.getBytes(StandardCharsets.UTF_8));
        }
        byte[] e = "é".getBytes(StandardCharsets.UTF_8);
        bytes.add(new byte[] {e[0]}); // 20: first byte of é
        bytes.add(new byte[] {e[1]}); // 21: its continuation byte
        return bytes.toArray(byte[][]::new);
    }

    /** {"a": "<letters a, b, é>"} with optional spaces. */
    private static Grammar objectGrammar() {
        Expr ws = star(literal(" "));
        Expr chars = star(alt(range('a', 'b'), literal("é")));
        return Grammar.of(
                seq(literal("{"), ws, literal("\"a\":"), ws, literal("\""), chars, literal("\""), ws, literal("}")));
    }

    @Test
    void masksAgreeWithCheckingEachTokenAlone() {
        TokenAutomaton automaton = TokenAutomaton.of(objectGrammar(), TokenTrie.ofBytes(vocabulary()));
        Random random = new Random(1);
        for (int run = 0; run < 200; run++) {
            TokenConstraint c = automaton.start();
            List<Integer> taken = new ArrayList<>();
            for (int step = 0; step < 30 && !c.mustEnd(); step++) {
                long[] mask = c.allowed().clone();
                List<Integer> allowed = new ArrayList<>();
                for (int t = 0; t < TEXTS.length + 2; t++) {
                    boolean inMask = (mask[t >>> 6] >>> t & 1) != 0;
                    assertThat(c.allows(t)).as("token %d at step %d", t, step).isEqualTo(inMask);
                    if (inMask) {
                        allowed.add(t);
                    }
                }
                if (allowed.isEmpty()) {
                    assertThat(c.canEnd()).as("nothing allowed after %s", taken).isTrue();
                    break;
                }
                int t = allowed.get(random.nextInt(allowed.size()));
                taken.add(t);
                c.accept(t);
            }
        }
        assertThat(automaton.internedStates()).isPositive();
    }

    @Test
    void followsTheGrammarTokenByToken() {
        TokenAutomaton automaton = TokenAutomaton.of(objectGrammar(), TokenTrie.ofBytes(vocabulary()));
        TokenConstraint c = automaton.start();
        assertThat(c.allows(1)).isTrue(); // {
        assertThat(c.allows(3)).isTrue(); // {"
        assertThat(c.allows(6)).isFalse(); // a
        assertThat(c.allows(0)).isFalse(); // a control token has no text
        c.accept(3); // {"
        c.accept(6); // a
        c.accept(5); // ":
        c.accept(10); // space
        c.accept(4); // "
        assertThat(c.allows(8)).as("abc: c is not allowed").isFalse();
        c.accept(7); // ab
        c.accept(14); // "}
        assertThat(c.mustEnd()).isTrue();
    }

    @Test
    void refusesATokenOutsideTheGrammar() {
        TokenAutomaton automaton = TokenAutomaton.of(objectGrammar(), TokenTrie.ofBytes(vocabulary()));
        TokenConstraint c = automaton.start();
        assertThatThrownBy(() -> c.accept(2)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aCharacterMaySpanTwoTokens() {
        Grammar onlyE = Grammar.of(seq(literal("\""), star(literal("é")), literal("\"")));
        TokenAutomaton automaton = TokenAutomaton.of(onlyE, TokenTrie.ofBytes(vocabulary()));
        TokenConstraint c = automaton.start();
        c.accept(4); // "
        assertThat(c.allows(20)).isTrue(); // first byte of é
        assertThat(c.allows(21)).isFalse(); // a continuation byte cannot start a character
        c.accept(20);
        assertThat(c.canEnd()).isFalse();
        assertThat(c.allows(4)).isFalse(); // the character must be finished first
        assertThat(c.allows(21)).isTrue();
        c.accept(21);
        c.accept(17); // é whole
        c.accept(4);
        assertThat(c.mustEnd()).isTrue();
        assertThat(c.allowed()).containsOnly(0L);
    }

    @Test
    void aLeadByteIsRefusedWhereOnlyAsciiMayCome() {
        Grammar ascii = Grammar.of(seq(literal("\""), star(notRange(0x80, 0x10FFFF, '"', '"')), literal("\"")));
        TokenAutomaton automaton = TokenAutomaton.of(ascii, TokenTrie.ofBytes(vocabulary()));
        TokenConstraint c = automaton.start();
        c.accept(4);
        assertThat(c.allows(20)).isFalse();
        assertThat(c.allows(17)).isFalse();
        assertThat(c.allows(8)).isTrue();
    }
}
