package com.llmserve.engine.chat.tools;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** {@link ToolCallParser} on finished outputs of each format. */
class ToolCallParserTests {

    private static ParsedOutput parse(ToolCallFormat format, String text) {
        return new ToolCallParser(format, new SequentialIds()).parse(text);
    }

    private static ParsedOutput parse(ToolCallFormat format, String text, Set<String> toolNames) {
        return new ToolCallParser(format, new SequentialIds()).parse(text, toolNames);
    }

    private static ToolCall call(int index, String name, String arguments) {
        return new ToolCall("call_" + index, name, arguments);
    }

    @Nested
    class Hermes {

        private static ParsedOutput parse(String text) {
            return ToolCallParserTests.parse(ToolCallFormat.HERMES, text);
        }

        @Test
        void aCall() {
            ParsedOutput parsed = parse("<tool_call>\n{\"name\": \"get_weather\", \"arguments\": "
                    + "{\"city\": \"Paris\", \"unit\": \"celsius\"}}\n</tool_call>");
            assertThat(parsed)
                    .isEqualTo(new ParsedOutput(
                            null, null, List.of(call(0, "get_weather", "{\"city\":\"Paris\",\"unit\":\"celsius\"}"))));
        }

        @Test
        void parallelCallsAfterContent() {
            ParsedOutput parsed = parse("Let me check both cities.\n"
                    + "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>\n"
                    + "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Tokyo\"}}\n</tool_call>");
            assertThat(parsed.content()).isEqualTo("Let me check both cities.");
            assertThat(parsed.calls())
                    .containsExactly(
                            call(0, "get_weather", "{\"city\":\"Paris\"}"),
                            call(1, "get_weather", "{\"city\":\"Tokyo\"}"));
        }

        @Test
        void textWithoutCallsIsContentAsWritten() {
            assertThat(parse("The answer is 42.\n\n"))
                    .isEqualTo(new ParsedOutput("The answer is 42.\n\n", null, List.of()));
            assertThat(parse("")).isEqualTo(new ParsedOutput("", null, List.of()));
        }

        @Test
        void malformedCallsStayContent() {
            for (String malformed : new String[] {
                "<tool_call>\n{\"name\": \"f\", \"arguments\": {\"a\": }\n</tool_call>",
                "<tool_call>\n{\"arguments\": {}}\n</tool_call>",
                "<tool_call>\n{\"name\": \"f\"}\n</tool_call>",
                "<tool_call>\n{\"name\": \"f\", \"arguments\": 5}\n</tool_call>",
                "<tool_call>\n{\"name\": \"f\", \"arguments\": {}} trailing\n</tool_call>",
                "<tool_call>\n{'name': 'f', 'arguments': {}}\n</tool_call>",
                "<tool_call>\n{\"name\": \"f\", \"arguments\": {}}",
            }) {
                assertThat(parse(malformed)).as(malformed).isEqualTo(new ParsedOutput(malformed, null, List.of()));
            }
        }

        @Test
        void aGoodCallAfterABadOneIsStillACall() {
            ParsedOutput parsed =
                    parse("<tool_call>{oops}</tool_call>\n<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>");
            assertThat(parsed.content()).isEqualTo("<tool_call>{oops}</tool_call>");
            assertThat(parsed.calls()).containsExactly(call(0, "f", "{}"));
        }

        @Test
        void argumentsWrittenAsAStringOfJsonAreThatString() {
            ParsedOutput parsed =
                    parse("<tool_call>{\"name\": \"f\", \"arguments\": \"{\\\"a\\\": [1, 2]}\"}</tool_call>");
            assertThat(parsed.calls()).containsExactly(call(0, "f", "{\"a\": [1, 2]}"));
            assertThat(parse("<tool_call>{\"name\": \"f\", \"arguments\": \"not json\"}</tool_call>")
                            .calls())
                    .isEmpty();
        }

        @Test
        void argumentsAreWrittenBackCompactlyWithTheirValuesAsWritten() {
            ParsedOutput parsed =
                    parse("<tool_call>{\"name\": \"f\", \"arguments\": {\"q\": \"caf\\u00e9 \\\"x\\\"\\n\", "
                            + "\"n\": 1.50e3, \"l\": [true, null, -0], \"o\": {}}}</tool_call>");
            assertThat(parsed.calls())
                    .containsExactly(
                            call(0, "f", "{\"q\":\"café \\\"x\\\"\\n\",\"n\":1.50e3,\"l\":[true,null,-0],\"o\":{}}"));
        }

        @Test
        void callsToFunctionsTheRequestDoesNotOfferStayContent() {
            String search = "<tool_call>\n{\"name\": \"search\", \"arguments\": {}}\n</tool_call>";
            String weather = "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {}}\n</tool_call>";
            ParsedOutput parsed =
                    ToolCallParserTests.parse(ToolCallFormat.HERMES, search + weather, Set.of("get_weather"));
            assertThat(parsed.content()).isEqualTo(search);
            assertThat(parsed.calls()).containsExactly(call(0, "get_weather", "{}"));
            assertThat(ToolCallParserTests.parse(ToolCallFormat.HERMES, weather, Set.of())
                            .calls())
                    .isEmpty();
        }
    }

    @Nested
    class Llama3 {

        private static ParsedOutput parse(String text) {
            return ToolCallParserTests.parse(ToolCallFormat.LLAMA3, text);
        }

        @Test
        void aCallIsTheWholeOutput() {
            assertThat(parse("{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Paris\"}}"))
                    .isEqualTo(new ParsedOutput(null, null, List.of(call(0, "get_weather", "{\"city\":\"Paris\"}"))));
            assertThat(parse("\n  {\"name\": \"f\", \"arguments\": {}}\n").calls())
                    .containsExactly(call(0, "f", "{}"));
        }

        @Test
        void afterThePythonTagAndSeparatedBySemicolons() {
            assertThat(parse("<|python_tag|>{\"name\": \"a\", \"parameters\": {}}; "
                                    + "{\"name\": \"b\", \"parameters\": {\"x\": 1}};")
                            .calls())
                    .containsExactly(call(0, "a", "{}"), call(1, "b", "{\"x\":1}"));
        }

        @Test
        void jsonWithTextAroundItIsContent() {
            for (String text : new String[] {
                "Here you go: {\"name\": \"f\", \"parameters\": {}}",
                "{\"name\": \"f\", \"parameters\": {}} and then some",
                "{\"name\": \"f\", \"parameters\": {}}; oops",
                "{\"city\": \"Paris\", \"temperature\": 21}",
                "<|python_tag|>brave_search.call(query=\"weather in Paris\")",
                "<|python_tag|>",
                "   ",
            }) {
                assertThat(parse(text)).as(text).isEqualTo(new ParsedOutput(text, null, List.of()));
            }
        }

        @Test
        void callsToFunctionsTheRequestDoesNotOfferStayContent() {
            String text = "{\"name\": \"a\", \"parameters\": {}}; {\"name\": \"b\", \"parameters\": {}}";
            assertThat(ToolCallParserTests.parse(ToolCallFormat.LLAMA3, text, Set.of("a")))
                    .isEqualTo(new ParsedOutput(text, null, List.of()));
        }
    }

    @Nested
    class Mistral {

        private static ParsedOutput parse(String text) {
            return ToolCallParserTests.parse(ToolCallFormat.MISTRAL, text);
        }

        @Test
        void anArrayOfCalls() {
            ParsedOutput parsed =
                    parse("[TOOL_CALLS][{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}, "
                            + "{\"name\": \"get_time\", \"arguments\": {\"zone\": \"CET\"}, \"id\": \"a1b2c3d4e\"}]");
            assertThat(parsed.content()).isNull();
            assertThat(parsed.calls())
                    .containsExactly(
                            call(0, "get_weather", "{\"city\":\"Paris\"}"), call(1, "get_time", "{\"zone\":\"CET\"}"));
        }

        @Test
        void namesAndArgumentsOfTheTekkenV11Tokenizers() {
            ParsedOutput parsed =
                    parse("Sure.[TOOL_CALLS]get_weather[ARGS]{\"city\": \"Paris\"}[TOOL_CALLS]get_time[ARGS]{}");
            assertThat(parsed.content()).isEqualTo("Sure.");
            assertThat(parsed.calls())
                    .containsExactly(call(0, "get_weather", "{\"city\":\"Paris\"}"), call(1, "get_time", "{}"));
        }

        @Test
        void malformedCallsStayContent() {
            for (String malformed : new String[] {
                "[TOOL_CALLS][{\"name\": \"f\", \"arguments\": {}},]",
                "[TOOL_CALLS][{\"name\": \"f\", \"arguments\": {}}",
                "[TOOL_CALLS][]",
                "[TOOL_CALLS][{\"arguments\": {}}]",
                "[TOOL_CALLS]{\"name\": \"f\", \"arguments\": {}}",
                "[TOOL_CALLS]f[ARGS]",
                "[TOOL_CALLS]f[ARGS]{\"a\": 1",
                "[TOOL_CALLS]f g[ARGS]{}",
                "[TOOL_CALLS][ARGS]{}",
                "[TOOL_CALLS]",
            }) {
                assertThat(parse(malformed)).as(malformed).isEqualTo(new ParsedOutput(malformed, null, List.of()));
            }
        }

        @Test
        void aGoodCallAfterABadOneIsStillACall() {
            ParsedOutput parsed = parse("[TOOL_CALLS]f[ARGS]{oops}[TOOL_CALLS]g[ARGS]{}");
            assertThat(parsed.content()).isEqualTo("[TOOL_CALLS]f[ARGS]{oops}");
            assertThat(parsed.calls()).containsExactly(call(0, "g", "{}"));
        }

        @Test
        void callsToFunctionsTheRequestDoesNotOfferStayContent() {
            String text = "[TOOL_CALLS][{\"name\": \"a\", \"arguments\": {}}, {\"name\": \"b\", \"arguments\": {}}]";
            assertThat(ToolCallParserTests.parse(ToolCallFormat.MISTRAL, text, Set.of("a")))
                    .isEqualTo(new ParsedOutput(text, null, List.of()));
        }
    }

    @Nested
    class GptOss {

        private static ParsedOutput parse(String text) {
            return ToolCallParserTests.parse(ToolCallFormat.GPT_OSS, text);
        }

        @Test
        void aCallAfterReasoning() {
            ParsedOutput parsed = parse("<|channel|>analysis<|message|>The user wants the weather in Paris.<|end|>"
                    + "<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json"
                    + "<|message|>{\"city\":\"Paris\"}<|call|>");
            assertThat(parsed)
                    .isEqualTo(new ParsedOutput(
                            null,
                            "The user wants the weather in Paris.",
                            List.of(call(0, "get_weather", "{\"city\":\"Paris\"}"))));
        }

        @Test
        void theFinalChannelIsTheAnswer() {
            ParsedOutput parsed = parse("<|channel|>analysis<|message|>Easy.<|end|>"
                    + "<|start|>assistant<|channel|>final<|message|>It is sunny in Paris.<|return|>");
            assertThat(parsed).isEqualTo(new ParsedOutput("It is sunny in Paris.", "Easy.", List.of()));
        }

        @Test
        void aRecipientAfterTheRoleACallWhoseEndTheServerDroppedAndAPreamble() {
            ParsedOutput parsed =
                    parse(" to=functions.get_time<|channel|>commentary json<|message|>{\"zone\": \"CET\"}<|call|>");
            assertThat(parsed.calls()).containsExactly(call(0, "get_time", "{\"zone\":\"CET\"}"));

            parsed = parse("<|channel|>commentary<|message|>Checking both.<|end|>"
                    + "<|start|>assistant<|channel|>commentary to=functions.a <|constrain|>json<|message|>{}<|call|>"
                    + "<|start|>assistant<|channel|>commentary to=functions.b <|constrain|>json<|message|>{\"x\": 1}");
            assertThat(parsed.content()).isEqualTo("Checking both.");
            assertThat(parsed.reasoning()).isNull();
            assertThat(parsed.calls()).containsExactly(call(0, "a", "{}"), call(1, "b", "{\"x\":1}"));
        }

        @Test
        void textWithoutMarkersIsContent() {
            assertThat(parse("Just an answer.")).isEqualTo(new ParsedOutput("Just an answer.", null, List.of()));
        }

        @Test
        void malformedCallsAndOtherRecipientsStayContentMarkersAndAll() {
            String bad =
                    "<|start|>assistant<|channel|>commentary to=functions.f <|constrain|>json<|message|>{\"city\": <|call|>";
            String browser =
                    "<|start|>assistant<|channel|>analysis to=browser.search<|message|>{\"query\": \"x\"}<|call|>";
            ParsedOutput parsed = parse("<|channel|>analysis<|message|>Hmm.<|end|>" + bad + browser);
            assertThat(parsed).isEqualTo(new ParsedOutput(bad + browser, "Hmm.", List.of()));
        }

        @Test
        void callsToFunctionsTheRequestDoesNotOfferStayContent() {
            String text = "<|channel|>commentary to=functions.search <|constrain|>json<|message|>{}<|call|>";
            assertThat(ToolCallParserTests.parse(ToolCallFormat.GPT_OSS, text, Set.of("get_weather")))
                    .isEqualTo(new ParsedOutput(text, null, List.of()));
        }
    }
}
