package com.llmserve.engine.grammar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GbnfParserTests {

    /** llama.cpp's grammars/json.gbnf. */
    private static final String JSON = """
            root   ::= object
            value  ::= object | array | string | number | ("true" | "false" | "null") ws

            object ::=
              "{" ws (
                        string ":" ws value
                ("," ws string ":" ws value)*
              )? "}" ws

            array  ::=
              "[" ws (
                        value
                ("," ws value)*
              )? "]" ws

            string ::=
              "\\"" (
                [^"\\\\\\x7F\\x00-\\x1F] |
                "\\\\" (["\\\\bfnrt] | "u" [0-9a-fA-F]{4}) # escapes
              )* "\\"" ws

            number ::= ("-"? ([0-9] | [1-9] [0-9]{0,15})) ("." [0-9]+)? ([eE] [-+]? [0-9] [1-9]{0,15})? ws

            # Optional space: by convention, applied in this grammar after literal chars when allowed
            ws ::= | " " | "\\n" [ \\t]{0,20}
            """;

    /** llama.cpp's grammars/arithmetic.gbnf. */
    private static final String ARITHMETIC = """
            root  ::= (expr "=" ws term "\\n")+
            expr  ::= term ([-+*/] term)*
            term  ::= ident | num | "(" ws expr ")" ws
            ident ::= [a-z] [a-z0-9_]* ws
            num   ::= [0-9]+ ws
            ws    ::= [ \\t\\n]*
            """;

    /** llama.cpp's grammars/list.gbnf. */
    private static final String LIST = """
            root ::= item+

            # Excludes various line break characters
            item ::= "- " [^\\r\\n\\x0b\\x0c\\x85\\u2028\\u2029]+ "\\n"
            """;

    @Test
    void jsonGrammar() {
        Grammar g = GbnfParser.parse(JSON);
        assertThat(g.matches("{}")).isTrue();
        assertThat(g.matches("{\"a\": [1, -2.5e3, \"x\\n\\u00e9\", true, null, {\"b\": {}}]}"))
                .isTrue();
        assertThat(g.matches("{\n  \"key\": \"value\"\n}")).isTrue();
        assertThat(g.matches("[]")).isFalse();
        assertThat(g.matches("{\"a\" 1}")).isFalse();
        assertThat(g.matches("{\"a\": [1,]}")).isFalse();
        assertThat(g.matches("{\"a\": \"\u0001\"}")).isFalse();
    }

    @Test
    void arithmeticGrammar() {
        Grammar g = GbnfParser.parse(ARITHMETIC);
        assertThat(g.matches("x+1=2\n")).isTrue();
        assertThat(g.matches("(a *b_2) /c = 3\nfoo=bar\n")).isTrue();
        assertThat(g.matches("1+=2\n")).isFalse();
        assertThat(g.matches("x=1")).isFalse();
        assertThat(g.matches("X=1\n")).isFalse();
    }

    @Test
    void listGrammar() {
        Grammar g = GbnfParser.parse(LIST);
        assertThat(g.matches("- milk\n- eggs ✓\n")).isTrue();
        assertThat(g.matches("- \n")).isFalse();
        assertThat(g.matches("- milk")).isFalse();
        assertThat(g.matches("- a\u2028b\n")).isFalse();
    }

    @Test
    void escapesInLiteralsAndClasses() {
        Grammar g = GbnfParser.parse("""
                root ::= "\\x41\\u00e9\\U0001F600\\t\\"\\\\" [\\]\\[\\-a]
                """);
        assertThat(g.matches("Aé😀\t\"\\]")).isTrue();
        assertThat(g.matches("Aé😀\t\"\\[")).isTrue();
        assertThat(g.matches("Aé😀\t\"\\-")).isTrue();
        assertThat(g.matches("Aé😀\t\"\\a")).isTrue();
        assertThat(g.matches("Aé😀\t\"\\b")).isFalse();
    }

    @Test
    void anyCharacterAndUnicodeRanges() {
        Grammar g = GbnfParser.parse("root ::= \"<\" . . \">\" [ぁ-ゟ]+");
        assertThat(g.matches("<a😀>ひらがな")).isTrue();
        assertThat(g.matches("<\n\">ぁ")).isTrue();
        assertThat(g.matches("<a>ひ")).isFalse();
        assertThat(g.matches("<ab>カ")).isFalse();
    }

    @Test
    void repetitionForms() {
        Grammar g = GbnfParser.parse("""
                root ::= "a"{2} "b"{1,} "c"{0,2} "d"{ 1 , 3 } ("e" "e"?)* "f"*?
                """);
        assertThat(g.matches("aabd")).isTrue();
        assertThat(g.matches("aabbbccddd" + "eee" + "ff")).isTrue();
        assertThat(g.matches("abd")).isFalse();
        assertThat(g.matches("aad")).isFalse();
        assertThat(g.matches("aabcccd")).isFalse();
        assertThat(g.matches("aabdddd")).isFalse();
    }

    @Test
    void rulesContinueOnLaterLinesUntilTheNextDefinition() {
        Grammar g = GbnfParser.parse("""
                # a comment before the first rule
                root ::= "a"   # a comment after an element
                   "b"
                   | other-rule2

                other-rule2 ::=
                  "c"
                  "d"
                """);
        assertThat(g.matches("ab")).isTrue();
        assertThat(g.matches("cd")).isTrue();
        assertThat(g.matches("a")).isFalse();
        assertThat(g.matches("c")).isFalse();
    }

    @Test
    void emptyAlternativesAndLiterals() {
        Grammar g = GbnfParser.parse("root ::= \"x\" ws\nws ::= | \" \" | \"\"");
        assertThat(g.matches("x")).isTrue();
        assertThat(g.matches("x ")).isTrue();
        assertThat(g.matches("x  ")).isFalse();
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "root ::= item\\nitem ::= \"a\" missing | GBNF line 2, column 14: rule 'missing' is not defined",
                "root = \"a\" | GBNF line 1, column 6: expected '::=' after the rule name 'root'",
                "root ::= \"abc | GBNF line 1, column 10: unterminated string literal",
                "root ::= (\"a\" \"b\" | GBNF line 1, column 10: unclosed '('",
                "root ::= [a-z | GBNF line 1, column 10: unclosed '['",
                "root ::= \"\\q\" | GBNF line 1, column 11: unknown escape '\\q'",
                "root ::= \"\\x4\" | GBNF line 1, column 11: expected 2 hexadecimal digits in the escape",
                "item ::= \"a\" | the grammar has no 'root' rule",
                "root ::= \"a\"\\nroot ::= \"b\" | GBNF line 2, column 1: rule 'root' is defined twice",
                "root ::= \"a\" <think> | GBNF line 1, column 14: unexpected '<'",
                "root ::= \"a\"{3,1} | GBNF line 1, column 13: repetition {3,1} has its maximum below its minimum",
                "root ::= \"a\"{x} | GBNF line 1, column 14: expected a number",
                "root ::= [z-a] | GBNF line 1, column 11: range 'z'-'a' is out of order",
                "::= \"a\" | GBNF line 1, column 1: expected a rule name, found ':'"
            })
    void errorsSayWhereTheyAre(String gbnf, String message) {
        assertThatThrownBy(() -> GbnfParser.parse(gbnf.replace("\\n", "\n")))
                .isInstanceOf(GrammarException.class)
                .hasMessage(message);
    }

    @Test
    void deepGroupsAreRefusedNotOverflowed() {
        assertThatThrownBy(() -> GbnfParser.parse("root ::= " + "(".repeat(5000) + "\"a\"" + ")".repeat(5000)))
                .isInstanceOf(GrammarException.class)
                .hasMessageContaining("groups nest more than 200 deep");
    }

    @Test
    void leftRecursionIsRefused() {
        assertThatThrownBy(() -> GbnfParser.parse("root ::= root \"a\" | \"b\""))
                .isInstanceOf(GrammarException.class)
                .hasMessage("rule 'root' is left-recursive");
    }
}
