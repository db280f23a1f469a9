package com.llmserve.engine.grammar;

import static com.llmserve.engine.grammar.Expr.alt;
import static com.llmserve.engine.grammar.Expr.literal;
import static com.llmserve.engine.grammar.Expr.oneOf;
import static com.llmserve.engine.grammar.Expr.optional;
import static com.llmserve.engine.grammar.Expr.range;
import static com.llmserve.engine.grammar.Expr.repeat;
import static com.llmserve.engine.grammar.Expr.seq;

import java.util.Set;

/**
 * Grammars for the string formats the schema compiler knows (the inside of the quotes only). They
 * are exact where it is cheap to be: a date is a real calendar date, February 29th only in leap
 * years. They keep to one spelling where RFC 3339 allows several: {@code T} and {@code Z} in upper
 * case, offsets within ±14:00, seconds up to 59, at most 9 fraction digits.
 */
final class StringFormats {

    static final Set<String> NAMES = Set.of("date", "time", "date-time", "uuid");

    private StringFormats() {}

    /** The format's grammar, or null for a format not in {@link #NAMES}. */
    static Expr of(String format) {
        return switch (format) {
            case "date" -> date();
            case "time" -> time();
            case "date-time" -> seq(date(), literal("T"), time());
            case "uuid" -> uuid();
            default -> null;
        };
    }

    private static Expr digit() {
        return range('0', '9');
    }

    /** RFC 3339 full-date. */
    private static Expr date() {
        Expr year = repeat(digit(), 4, 4);
        Expr day28 =
                alt(seq(literal("0"), range('1', '9')), seq(literal("1"), digit()), seq(literal("2"), range('0', '8')));
        Expr day30 = alt(day28, literal("29"), literal("30"));
        Expr day31 = alt(day30, literal("31"));
        Expr month31 = alt(
                literal("01"),
                literal("03"),
                literal("05"),
                literal("07"),
                literal("08"),
                literal("10"),
                literal("12"));
        Expr month30 = alt(literal("04"), literal("06"), literal("09"), literal("11"));
        // a multiple of 4 in 01..99, or 00 after a century that is a multiple of 4
        Expr byFour = alt(seq(oneOf("02468"), oneOf("048")), seq(oneOf("13579"), oneOf("26")));
        Expr leapYear = alt(
                seq(
                        digit(),
                        digit(),
                        alt(
                                seq(oneOf("02468"), oneOf("48")),
                                seq(oneOf("2468"), literal("0")),
                                seq(oneOf("13579"), oneOf("26")))),
                seq(byFour, literal("00")));
        return alt(
                seq(
                        year,
                        literal("-"),
                        alt(
                                seq(month31, literal("-"), day31),
                                seq(month30, literal("-"), day30),
                                seq(literal("02-"), day28))),
                seq(leapYear, literal("-02-29")));
    }

    /** RFC 3339 full-time, which JSON Schema's {@code time} is: the offset is required. */
    private static Expr time() {
        Expr hour = alt(seq(oneOf("01"), digit()), seq(literal("2"), range('0', '3')));
        Expr sixty = seq(range('0', '5'), digit());
        Expr offset = alt(
                literal("Z"),
                seq(
                        oneOf("+-"),
                        alt(
                                seq(
                                        alt(seq(literal("0"), digit()), seq(literal("1"), range('0', '3'))),
                                        literal(":"),
                                        sixty),
                                literal("14:00"))));
        return seq(
                hour,
                literal(":"),
                sixty,
                literal(":"),
                sixty,
                optional(seq(literal("."), repeat(digit(), 1, 9))),
                offset);
    }

    private static Expr uuid() {
        Expr hex = range('0', '9', 'a', 'f', 'A', 'F');
        return seq(
                repeat(hex, 8, 8),
                literal("-"),
                repeat(hex, 4, 4),
                literal("-"),
                repeat(hex, 4, 4),
                literal("-"),
                repeat(hex, 4, 4),
                literal("-"),
                repeat(hex, 12, 12));
    }
}
