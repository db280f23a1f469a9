package com.llmserve.engine.grammar;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.json.JsonMapper;

class JsonSchemaFormatTests {

    @Test
    void datesAreCalendarDates() {
        Grammar g = stringWith("\"format\": \"date\"");
        for (String year : List.of("2023", "2024", "1900", "2000", "2100", "2400", "0000", "1996")) {
            for (int month = 0; month <= 13; month++) {
                for (int day = 0; day <= 32; day++) {
                    String date = "%s-%02d-%02d".formatted(year, month, day);
                    assertThat(g.matches(quote(date))).as(date).isEqualTo(isDate(date));
                }
            }
        }
        assertThat(g.matches(quote("2024-1-01"))).isFalse();
        assertThat(g.matches(quote("20240101"))).isFalse();
    }

    @Test
    void timesHaveAnOffset() {
        Grammar g = stringWith("\"format\": \"time\"");
        for (String ok : List.of("23:59:59Z", "00:00:00.123456789+14:00", "12:30:00-05:30", "07:08:09.5Z")) {
            assertThat(g.matches(quote(ok))).as(ok).isTrue();
        }
        for (String bad : List.of(
                "24:00:00Z",
                "12:00:00",
                "12:60:00Z",
                "12:00:60Z",
                "12:00:00.Z",
                "12:00:00.1234567890Z",
                "12:00:00+15:00",
                "1:00:00Z")) {
            assertThat(g.matches(quote(bad))).as(bad).isFalse();
        }
    }

    @Test
    void dateTimesAndUuids() {
        Grammar dateTime = stringWith("\"format\": \"date-time\"");
        assertThat(dateTime.matches(quote("2024-02-29T23:59:59.5Z"))).isTrue();
        assertThat(dateTime.matches(quote("2023-02-29T00:00:00Z"))).isFalse();
        assertThat(dateTime.matches(quote("2024-02-29 00:00:00Z"))).isFalse();
        assertThat(dateTime.matches(quote("2024-02-29T00:00Z"))).isFalse();
        Grammar uuid = stringWith("\"format\": \"uuid\"");
        assertThat(uuid.matches(quote("123e4567-e89b-12d3-A456-426614174000"))).isTrue();
        assertThat(uuid.matches(quote("123e4567e89b-12d3-a456-426614174000"))).isFalse();
        assertThat(uuid.matches(quote("123e4567-e89b-12d3-a456-42661417400g"))).isFalse();
    }

    /** Patterns whose meaning ECMA-262 and java.util.regex agree on. */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "^[a-z]+$",
                "^\\d{3}-\\d{4}$",
                "^(foo|bar)baz?$",
                "colou?r",
                "^[^\\s@]+@[^\\s@]+\\.[a-z]{2,}$",
                "^\\w+(\\.\\w+)*$",
                "^[A-Z]{2}[0-9]{2,}$",
                "^a.c$",
                "^(?:ab){2}$",
                "^[\\-+]?\\d+(\\.\\d+)?$",
                "^\"quoted\"\\\\$",
                "^(a|b)*c$",
                "x$",
                "^$",
                "^\\u00e9+$",
                "^[^a-c]{1,3}?$",
                "^(?<word>[a-z]+)!$",
                "^a$|^b+$",
                "[\\n\\t]",
                "^\\x41{1,100}$"
            })
    void patternsMatchWhatJavaRegexMatches(String pattern) {
        Grammar g = stringWith("\"pattern\": " + JsonMapper.shared().writeValueAsString(pattern));
        Pattern java = Pattern.compile(pattern);
        List<String> samples = List.of(
                "",
                "abc",
                "ABC",
                "123-4567",
                "12-34567",
                "foobaz",
                "fooba",
                "barbaz",
                "color",
                "my colour is",
                "a@b.co",
                "a@b.c",
                "a b@c.de",
                "x.y.z",
                "x..y",
                "AB12",
                "AB1",
                "a\nc",
                "abab",
                "ababab",
                "-1.5",
                "+2",
                "1.",
                "\"quoted\"\\",
                "aabac",
                "c",
                "box",
                "éé",
                "e",
                "xyz",
                "d",
                "word!",
                "b",
                "bb",
                "a",
                "ab",
                "tab\there",
                "A".repeat(100),
                "A".repeat(101),
                "x😀",
                "hello!");
        for (String s : samples) {
            assertThat(g.matches(quote(s)))
                    .as("/%s/ on %s", pattern, s)
                    .isEqualTo(java.matcher(s).find());
        }
    }

    private static Grammar stringWith(String keywords) {
        return JsonSchemaGrammar.compile(Schemas.json("{\"type\": \"string\", " + keywords + "}"));
    }

    private static String quote(String s) {
        return JsonMapper.shared().writeValueAsString(s);
    }

    private static boolean isDate(String s) {
        try {
            LocalDate.parse(s);
            return true;
        } catch (DateTimeParseException e) {
            return false;
        }
    }
}
