package com.llmserve.engine.chat.tools;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.engine.chat.tools.StrictJson.Failure;
import com.llmserve.engine.chat.tools.StrictJson.JsonNumber;
import com.llmserve.engine.chat.tools.StrictJson.Value;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link StrictJson}: RFC 8259 exactly, and the difference between too short and wrong. */
class StrictJsonTests {

    private static final List<String> VALID = List.of(
            "{}",
            "[]",
            " {\"a\" : [1, -0.5, 2e10, 3E-2, 0, -0], \"b\": {\"c\": null}, \"d\": true, \"e\": false}",
            "[\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\", \"caf\u00e9\"]",
            "[[[[[]]]]]");

    private static final List<String> INVALID = List.of(
            "{\"a\": 1,}",
            "[1, 2,]",
            "{'a': 1}",
            "{a: 1}",
            "[NaN]",
            "[Infinity]",
            "[01]",
            "[1.]",
            "[.5]",
            "[+1]",
            "[1e]",
            "[\"\\x\"]",
            "[\"\\u12g4\"]",
            "[\"a\nb\"]",
            "[tru3]",
            "{\"a\" 1}",
            "{\"a\": 1 \"b\": 2}",
            "[1 2]",
            "// comment\n{}",
            "]");

    @Test
    void readsWhatRfc8259Allows() {
        assertThat(StrictJson.read(VALID.get(2), 0))
                .isEqualTo(new Value(
                        Map.of(
                                "a",
                                List.of(
                                        new JsonNumber("1"),
                                        new JsonNumber("-0.5"),
                                        new JsonNumber("2e10"),
                                        new JsonNumber("3E-2"),
                                        new JsonNumber("0"),
                                        new JsonNumber("-0")),
                                "b",
                                Collections.singletonMap("c", null),
                                "d",
                                true,
                                "e",
                                false),
                        VALID.get(2).length()));
        assertThat(StrictJson.read(VALID.get(3), 0))
                .extracting(result -> ((Value) result).value())
                .isEqualTo(List.of("\"\\/\b\f\n\r\té😀", "café"));
        assertThat(StrictJson.read("{} tail", 0)).isEqualTo(new Value(Map.of(), 2));
    }

    @Test
    void refusesEverythingElse() {
        for (String text : INVALID) {
            assertThat(StrictJson.read(text, 0)).as(text).isEqualTo(Failure.INVALID);
        }
    }

    @Test
    void aTextCutShortIsIncompleteAndAWrongOneStaysWrongHoweverItGoesOn() {
        for (String text : VALID) {
            for (int length = 0; length < text.length(); length++) {
                assertThat(StrictJson.read(text.substring(0, length), 0))
                        .as(text.substring(0, length))
                        .isEqualTo(Failure.INCOMPLETE);
            }
        }
        for (String text : INVALID) {
            boolean invalid = false;
            for (int length = 0; length <= text.length(); length++) {
                StrictJson.Result result = StrictJson.read(text.substring(0, length), 0);
                invalid |= result == Failure.INVALID;
                assertThat(result)
                        .as(text.substring(0, length))
                        .isEqualTo(invalid ? Failure.INVALID : Failure.INCOMPLETE);
            }
        }
    }

    @Test
    void nestingDeeperThanTheLimitIsRefusedWithoutExhaustingTheStack() {
        assertThat(StrictJson.read("[".repeat(100_000), 0)).isEqualTo(Failure.INVALID);
        assertThat(StrictJson.read("[".repeat(200) + "]".repeat(200), 0)).isInstanceOf(Value.class);
    }

    @Test
    void readObjectTakesOnlyAWholeObject() {
        assertThat(StrictJson.readObject(" {\"a\": 1}\n")).isEqualTo(Map.of("a", new JsonNumber("1")));
        assertThat(StrictJson.readObject("{\"a\": 1} {}")).isNull();
        assertThat(StrictJson.readObject("[1]")).isNull();
        assertThat(StrictJson.readObject("{\"a\": ")).isNull();
    }

    @Test
    void writesCompactlyWhatItRead() {
        for (String text : VALID) {
            Object value = ((Value) StrictJson.read(text, 0)).value();
            String written = StrictJson.write(value);
            assertThat(StrictJson.read(written, 0)).isEqualTo(new Value(value, written.length()));
        }
        assertThat(StrictJson.write(((Value) StrictJson.read(VALID.get(2), 0)).value()))
                .isEqualTo("{\"a\":[1,-0.5,2e10,3E-2,0,-0],\"b\":{\"c\":null},\"d\":true,\"e\":false}");
        assertThat(StrictJson.write(List.of("\u0001\"\\\n", "\ud800 alone", "😀")))
                .isEqualTo("[\"\\u0001\\\"\\\\\\n\",\"\\ud800 alone\",\"😀\"]");
    }
}
