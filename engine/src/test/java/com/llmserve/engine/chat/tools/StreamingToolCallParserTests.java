package com.llmserve.engine.chat.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import com.llmserve.engine.chat.tools.StreamEvent.ContentDelta;
import com.llmserve.engine.chat.tools.StreamEvent.ReasoningDelta;
import com.llmserve.engine.chat.tools.StreamEvent.ToolCallArguments;
import com.llmserve.engine.chat.tools.StreamEvent.ToolCallStart;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** {@link StreamingToolCallParser}: what it holds back, and that its events add up to {@link ToolCallParser#parse}. */
class StreamingToolCallParserTests {

    /** Outputs of every format, well and badly formed, each also read in the other formats. */
    private static final List<String> OUTPUTS = List.of(
            "",
            "The answer is 42.\n\n",
            "Use <tools> or <tool_cal> here; [TOOL_CALL] <|chan <|start|",
            "   ",
            "Let me check both cities.\n"
                    + "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>\n"
                    + "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Tokyo\"}}\n</tool_call>",
            "<tool_call>\n{\"name\": \"search\", \"arguments\": {\"q\": \"caf\\u00e9 \\\"x\\\"\", \"n\": [1.5e3, true, null]}}\n"
                    + "</tool_call>\nDone.",
            "<tool_call>{oops}</tool_call>\n<tool_call>{\"name\": \"f\", \"arguments\": \"{\\\"a\\\": 1}\"}</tool_call>",
            "Ok <tool_call>\n{\"name\": \"f\", \"arguments\": {}}",
            "text <tool_call",
            "{\"name\": \"get_weather\", \"parameters\": {\"city\": \"Paris\"}}",
            "\n<|python_tag|>{\"name\": \"a\", \"parameters\": {}}; {\"name\": \"get_weather\", \"arguments\": {\"x\": 1}};",
            "{\"name\": \"f\", \"parameters\": {}} and then some",
            "<|python_tag|>brave_search.call(query=\"weather\")",
            "<|pyth",
            "[TOOL_CALLS][{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}, "
                    + "{\"name\": \"get_time\", \"arguments\": {\"zone\": \"CET\"}, \"id\": \"a1b2c3d4e\"}]",
            "Sure.[TOOL_CALLS]get_weather[ARGS]{\"city\": \"Paris\"}[TOOL_CALLS]get_time[ARGS]{}",
            "[TOOL_CALLS]f[ARGS]{oops}[TOOL_CALLS]get_weather[ARGS]{\"a\": [1, {\"b\": \"]\"}]}",
            "[TOOL_CALLS][{\"name\": \"f\", \"arguments\": {}},] and [TOOL_CALLS]g[ARGS]{\"a\": 1",
            "<|channel|>analysis<|message|>The user wants the weather in Paris.<|end|>"
                    + "<|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json"
                    + "<|message|>{\"city\":\"Paris\"}<|call|>",
            "<|channel|>analysis<|message|>Easy.<|end|>"
                    + "<|start|>assistant<|channel|>final<|message|>It is sunny in Paris.<|return|>",
            " to=functions.get_time<|channel|>commentary json<|message|>{\"zone\": \"CET\"}",
            "<|channel|>commentary<|message|>Checking.<|end|>"
                    + "<|start|>assistant<|channel|>commentary to=functions.f <|constrain|>json<|message|>{\"city\": <|call|>"
                    + "<|start|>assistant<|channel|>analysis to=browser.search<|message|>{\"q\": \"x\"}<|call|>"
                    + "<|start|>assistant<|channel|>final<|message|>Sorry, I can't.",
            "<|channel|>analysis<|message|>unfinished <|chan");

    private static final Set<String> KNOWN_TOOLS = Set.of("get_weather");

    @Test
    void eventsAddUpToTheParseWhereverTheOutputIsCut() {
        for (ToolCallFormat format : ToolCallFormat.values()) {
            for (String output : OUTPUTS) {
                ParsedOutput expected = new ToolCallParser(format, new SequentialIds()).parse(output);
                ParsedOutput known = new ToolCallParser(format, new SequentialIds()).parse(output, KNOWN_TOOLS);
                for (List<String> deltas : cuts(output).toList()) {
                    String where = format + " " + deltas;
                    assertThat(streamed(format, deltas, null)).as(where).isEqualTo(expected);
                    assertThat(streamed(format, deltas, KNOWN_TOOLS)).as(where).isEqualTo(known);
                }
            }
        }
    }

    @Test
    void theStreamsOfTheCorpusFindCallsInEachFormat() {
        // Guards the property above against a corpus whose outputs are all content.
        for (ToolCallFormat format : ToolCallFormat.values()) {
            assertThat(OUTPUTS.stream()
                            .mapToInt(output -> streamed(format, List.of(output), null)
                                    .calls()
                                    .size())
                            .sum())
                    .as(format.name())
                    .isGreaterThanOrEqualTo(2);
        }
    }

    @Test
    void theStartOfAMarkerWaitsAndIsContentWhenItIsNotOne() {
        StreamingToolCallParser stream = hermes();
        assertThat(stream.feed("Hi <tool")).containsExactly(new ContentDelta("Hi"));
        assertThat(stream.feed("box> is a tag")).containsExactly(new ContentDelta(" <toolbox> is a tag"));
        assertThat(stream.finish()).isEmpty();
    }

    @Test
    void aMarkerCutAcrossDeltasIsACall() {
        StreamingToolCallParser stream = hermes();
        assertThat(stream.feed("<tool")).isEmpty();
        assertThat(stream.feed("_call>\n{\"name\": \"f\", ")).isEmpty();
        assertThat(stream.feed("\"arguments\": {\"a\": 1}}\n</tool")).isEmpty();
        assertThat(stream.feed("_call>"))
                .containsExactly(new ToolCallStart(0, "call_0", "f"), new ToolCallArguments(0, "{\"a\":1}"));
        assertThat(stream.finish()).isEmpty();
    }

    @Test
    void aCallLeftOpenIsContentAtTheEnd() {
        StreamingToolCallParser stream = hermes();
        assertThat(stream.feed("Ok <tool_call>\n{\"name\": \"f\"")).containsExactly(new ContentDelta("Ok"));
        assertThat(content(stream.finish())).isEqualTo(" <tool_call>\n{\"name\": \"f\"");
    }

    @Test
    void whitespaceWaitsForTheContentAfterIt() {
        StreamingToolCallParser stream = hermes();
        assertThat(stream.feed("a\n")).containsExactly(new ContentDelta("a"));
        assertThat(stream.feed("b ")).containsExactly(new ContentDelta("\nb"));
        assertThat(stream.finish()).containsExactly(new ContentDelta(" "));

        stream = hermes();
        stream.feed("a\n");
        stream.feed("<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>\n");
        assertThat(stream.finish()).isEmpty();
    }

    @Test
    void gptOssReasoningAndAnswerComeAsGenerated() {
        StreamingToolCallParser stream = new ToolCallParser(ToolCallFormat.GPT_OSS, new SequentialIds()).stream();
        assertThat(stream.feed("<|channel|>analysis<|message|>Thinking"))
                .containsExactly(new ReasoningDelta("Thinking"));
        assertThat(stream.feed(" more<|e")).containsExactly(new ReasoningDelta(" more"));
        assertThat(stream.feed("nd|><|start|>assistant<|channel|>final<|message|>Sun"))
                .containsExactly(new ContentDelta("Sun"));
        assertThat(stream.feed("ny.<|return|>")).containsExactly(new ContentDelta("ny."));
        assertThat(stream.finish()).isEmpty();
    }

    @Test
    void llama3ProseComesAtOnceAndAnOutputThatStartsLikeACallWaitsForTheEnd() {
        ToolCallParser parser = new ToolCallParser(ToolCallFormat.LLAMA3, new SequentialIds());
        StreamingToolCallParser prose = parser.stream();
        assertThat(prose.feed(" Sure")).containsExactly(new ContentDelta(" Sure"));

        StreamingToolCallParser call = parser.stream();
        assertThat(call.feed("{\"name\": \"f\", \"parameters\": {}}")).isEmpty();
        assertThat(call.finish()).containsExactly(new ToolCallStart(0, "call_0", "f"), new ToolCallArguments(0, "{}"));
    }

    @Test
    void anEndedOutputTakesNoMoreText() {
        StreamingToolCallParser stream = hermes();
        stream.finish();
        assertThatIllegalStateException().isThrownBy(() -> stream.feed("more"));
        assertThatIllegalStateException().isThrownBy(stream::finish);
    }

    private static StreamingToolCallParser hermes() {
        return new ToolCallParser(ToolCallFormat.HERMES, new SequentialIds()).stream();
    }

    /** The output whole, a character at a time, cut in two everywhere, and in random pieces. */
    private static Stream<List<String>> cuts(String output) {
        List<List<String>> cuts = new ArrayList<>();
        cuts.add(List.of(output));
        cuts.add(output.chars().mapToObj(c -> String.valueOf((char) c)).toList());
        for (int i = 1; i < output.length(); i++) {
            cuts.add(List.of(output.substring(0, i), output.substring(i)));
        }
        for (int seed = 0; seed < 10; seed++) {
            Random random = new Random(seed);
            List<String> pieces = new ArrayList<>();
            for (int at = 0; at < output.length(); ) {
                int end = Math.min(output.length(), at + random.nextInt(8));
                pieces.add(output.substring(at, end));
                at = end;
            }
            cuts.add(pieces);
        }
        return cuts.stream();
    }

    /** Streams the deltas and adds the events up as an OpenAI client does, checking their order. */
    private static ParsedOutput streamed(ToolCallFormat format, List<String> deltas, Set<String> toolNames) {
        ToolCallParser parser = new ToolCallParser(format, new SequentialIds());
        StreamingToolCallParser stream = toolNames == null ? parser.stream() : parser.stream(toolNames);
        List<StreamEvent> events = new ArrayList<>();
        for (String delta : deltas) {
            events.addAll(stream.feed(delta));
        }
        events.addAll(stream.finish());

        StringBuilder reasoning = new StringBuilder();
        List<ToolCallStart> starts = new ArrayList<>();
        List<StringBuilder> arguments = new ArrayList<>();
        for (StreamEvent event : events) {
            switch (event) {
                case ContentDelta delta -> assertThat(delta.text()).isNotEmpty();
                case ReasoningDelta delta -> {
                    assertThat(delta.text()).isNotEmpty();
                    reasoning.append(delta.text());
                }
                case ToolCallStart start -> {
                    assertThat(start.index()).isEqualTo(starts.size());
                    starts.add(start);
                    arguments.add(new StringBuilder());
                }
                case ToolCallArguments fragment -> {
                    assertThat(fragment.index()).isLessThan(starts.size());
                    arguments.get(fragment.index()).append(fragment.fragment());
                }
            }
        }
        List<ToolCall> calls = new ArrayList<>();
        for (int i = 0; i < starts.size(); i++) {
            calls.add(new ToolCall(
                    starts.get(i).id(), starts.get(i).name(), arguments.get(i).toString()));
        }
        String content = content(events);
        return new ParsedOutput(
                calls.isEmpty() || !content.isEmpty() ? content : null,
                reasoning.isEmpty() ? null : reasoning.toString(),
                calls);
    }

    private static String content(List<StreamEvent> events) {
        StringBuilder content = new StringBuilder();
        for (StreamEvent event : events) {
            if (event instanceof ContentDelta(String text)) {
                content.append(text);
            }
        }
        return content.toString();
    }
}
