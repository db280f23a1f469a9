package com.llmserve.engine.grammar;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class JsonSchemaNumberTests {

    static Stream<Arguments> integerRanges() {
        return Stream.of(
                Arguments.of(-123, 456),
                Arguments.of(0, 0),
                Arguments.of(7, 7),
                Arguments.of(-5, -1),
                Arguments.of(10, 99),
                Arguments.of(1, 1000),
                Arguments.of(95, 1005),
                Arguments.of(-1000, -95),
                Arguments.of(-1, 1),
                Arguments.of(190, 210),
                Arguments.of(-2999, 3001));
    }

    @ParameterizedTest
    @MethodSource("integerRanges")
    void integerBoundsHoldExactly(int lo, int hi) {
        Grammar g = compile("{\"type\": \"integer\", \"minimum\": " + lo + ", \"maximum\": " + hi + "}");
        for (int n = lo - 300; n <= hi + 300; n++) {
            assertThat(g.matches(Integer.toString(n))).as("%d", n).isEqualTo(n >= lo && n <= hi);
        }
        assertThat(g.matches("-0")).isFalse();
        assertThat(g.matches("0" + hi)).isFalse();
    }

    @Test
    void exclusiveAndFractionalBoundsRoundInward() {
        Grammar g = compile("{\"type\": \"integer\", \"exclusiveMinimum\": 2.5, \"exclusiveMaximum\": 10}");
        for (int n = -5; n < 20; n++) {
            assertThat(g.matches(Integer.toString(n))).as("%d", n).isEqualTo(n >= 3 && n <= 9);
        }
        Grammar draft4 = compile("{\"type\": \"integer\", \"minimum\": 2, \"exclusiveMinimum\": true, \"maximum\": 5}");
        assertThat(draft4.matches("2")).isFalse();
        assertThat(draft4.matches("3")).isTrue();
        assertThat(draft4.matches("5")).isTrue();
    }

    @Test
    void oneSidedBoundsReachSixteenDigits() {
        Grammar atLeast = compile("{\"type\": \"integer\", \"minimum\": 5}");
        assertThat(atLeast.matches("5")).isTrue();
        assertThat(atLeast.matches("9".repeat(16))).isTrue();
        assertThat(atLeast.matches("1" + "0".repeat(16))).isFalse();
        assertThat(atLeast.matches("4")).isFalse();
        assertThat(atLeast.matches("-5")).isFalse();
        Grammar atMost = compile("{\"type\": \"integer\", \"maximum\": -5}");
        assertThat(atMost.matches("-5")).isTrue();
        assertThat(atMost.matches("-" + "9".repeat(16))).isTrue();
        assertThat(atMost.matches("-4")).isFalse();
        assertThat(atMost.matches("0")).isFalse();
    }

    @Test
    void plainIntegersAndNumbersFollowJson() {
        Grammar integer = compile("{\"type\": \"integer\"}");
        assertThat(integer.matches("0")).isTrue();
        assertThat(integer.matches("-12")).isTrue();
        assertThat(integer.matches("9".repeat(16))).isTrue();
        assertThat(integer.matches("9".repeat(17))).isFalse();
        assertThat(integer.matches("01")).isFalse();
        assertThat(integer.matches("1.0")).isFalse();
        assertThat(integer.matches("+1")).isFalse();
        Grammar number = compile("{\"type\": \"number\"}");
        for (String ok : new String[] {"0", "-0.5", "1e5", "1E+05", "3.25e-7", "12.0"}) {
            assertThat(number.matches(ok)).as(ok).isTrue();
        }
        for (String bad : new String[] {".5", "1.", "-", "1e", "0x10", "NaN", "1.5.2", "00.5"}) {
            assertThat(number.matches(bad)).as(bad).isFalse();
        }
    }

    static Stream<Arguments> numberBounds() {
        return Stream.of(
                Arguments.of("\"minimum\": 0, \"maximum\": 1", "0", "1"),
                Arguments.of("\"minimum\": -3, \"maximum\": 7", "-3", "7"),
                Arguments.of("\"minimum\": -10, \"maximum\": -2", "-10", "-2"),
                Arguments.of("\"minimum\": 0.5, \"maximum\": 2.5", "0.5", "2.5"),
                Arguments.of("\"exclusiveMinimum\": 0, \"maximum\": 5", "0.0001", "5"),
                Arguments.of("\"minimum\": -1", "-1", "1e17"));
    }

    /** Every number the grammar takes is within the bounds; some in the middle are taken. */
    @ParameterizedTest
    @MethodSource("numberBounds")
    void numberBoundsHold(String bounds, String lo, String hi) {
        Grammar g = compile("{\"type\": \"number\", " + bounds + "}");
        BigDecimal min = new BigDecimal(lo);
        BigDecimal max = new BigDecimal(hi);
        int accepted = 0;
        for (int hundredths = -1500; hundredths <= 1500; hundredths += 7) {
            BigDecimal x = BigDecimal.valueOf(hundredths, 2);
            for (String text :
                    new String[] {x.toPlainString(), x.stripTrailingZeros().toPlainString()}) {
                if (g.matches(text)) {
                    accepted++;
                    assertThat(x).as(text).isBetween(min, max);
                }
            }
        }
        assertThat(accepted).isPositive();
        assertThat(g.matches("1e0")).isFalse();
    }

    private static Grammar compile(String schema) {
        return JsonSchemaGrammar.compile(Schemas.json(schema));
    }
}
