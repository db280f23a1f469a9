package com.llmserve.app.openai.responses;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.app.generation.Delta;
import com.llmserve.app.openai.chat.AnswerReader;
import com.llmserve.app.openai.responses.ResponseObjects.Event;
import com.llmserve.app.openai.responses.ResponseObjects.FunctionCall;
import com.llmserve.app.openai.responses.ResponseObjects.Message;
import com.llmserve.app.openai.responses.ResponseObjects.OutputItem;
import com.llmserve.app.openai.responses.ResponseObjects.ReasoningItem;
import com.llmserve.engine.chat.tools.ToolCallFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ResponseOutputTests {

    private static final AnswerReader.Options THINKING_WITH_TOOLS =
            new AnswerReader.Options(true, false, ToolCallFormat.HERMES, Set.of("get_weather", "get_time"));

    private static final String OUTPUT = "<think>\nThe user wants weather.\n</think>\n\nLet me check."
            + "\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>"
            + "\n<tool_call>\n{\"name\": \"get_time\", \"arguments\": {}}\n</tool_call>";

    private static final AnswerReader.Options PLAIN = new AnswerReader.Options(false, false, null, Set.of());

    private static List<OutputItem> whole(String text, String finishReason, AnswerReader.Options options) {
        ResponseOutput output = new ResponseOutput(options, false);
        output.feed(new Delta(0, text, List.of(), finishReason));
        return output.items();
    }

    @Test
    void thinkingAnswerAndCallsBecomeItemsInTheOrderTheModelWroteThem() {
        List<OutputItem> items = whole(OUTPUT, "stop", THINKING_WITH_TOOLS);

        assertThat(items).hasSize(4);
        ReasoningItem thinking = (ReasoningItem) items.get(0);
        assertThat(thinking.id()).startsWith("rs_");
        assertThat(thinking.content().getFirst().text()).isEqualTo("The user wants weather.\n");
        assertThat(thinking.status()).isEqualTo("completed");
        Message message = (Message) items.get(1);
        assertThat(message.id()).startsWith("msg_");
        assertThat(message.role()).isEqualTo("assistant");
        assertThat(message.content().getFirst().text()).isEqualTo("Let me check.");
        assertThat(message.status()).isEqualTo("completed");
        FunctionCall weather = (FunctionCall) items.get(2);
        assertThat(weather.id()).startsWith("fc_");
        assertThat(weather.callId()).startsWith("call_");
        assertThat(weather.name()).isEqualTo("get_weather");
        assertThat(weather.arguments()).isEqualTo("{\"city\":\"Paris\"}");
        FunctionCall time = (FunctionCall) items.get(3);
        assertThat(time.name()).isEqualTo("get_time");
        assertThat(time.callId()).isNotEqualTo(weather.callId());
    }

    @Test
    void streamedOneCharacterAtATimeTheItemsAreTheSameAndEachIsAddedThenFilledThenDone() {
        ResponseOutput output = new ResponseOutput(THINKING_WITH_TOOLS, false);
        List<Event> events = new ArrayList<>();
        for (int i = 0; i < OUTPUT.length(); i++) {
            boolean last = i == OUTPUT.length() - 1;
            events.addAll(output.feed(new Delta(0, OUTPUT.substring(i, i + 1), List.of(), last ? "stop" : null)));
        }

        assertThat(withoutIds(output.items())).isEqualTo(withoutIds(whole(OUTPUT, "stop", THINKING_WITH_TOOLS)));
        List<String> types = events.stream().map(Event::type).distinct().toList();
        assertThat(types)
                .containsExactly(
                        "response.output_item.added",
                        "response.content_part.added",
                        "response.reasoning_text.delta",
                        "response.reasoning_text.done",
                        "response.content_part.done",
                        "response.output_item.done",
                        "response.output_text.delta",
                        "response.output_text.done",
                        "response.function_call_arguments.delta",
                        "response.function_call_arguments.done");
        // sequence numbers count up by one over the stream
        assertThat(events.stream().mapToInt(ResponseOutputTests::sequence).toArray())
                .isEqualTo(java.util.stream.IntStream.range(0, events.size()).toArray());
        // each item: added first, done last, and the item done carries what its deltas said
        StringBuilder arguments = new StringBuilder();
        for (Event e : events) {
            if (e instanceof ResponseObjects.ArgumentsDelta d && d.outputIndex() == 2) {
                arguments.append(d.delta());
            }
        }
        assertThat(arguments.toString()).isEqualTo("{\"city\":\"Paris\"}");
        List<Integer> addedOrder = events.stream()
                .filter(e -> e.type().equals("response.output_item.added"))
                .map(e -> ((ResponseObjects.ItemEvent) e).outputIndex())
                .toList();
        assertThat(addedOrder).containsExactly(0, 1, 2, 3);
    }

    @Test
    void whiteSpaceBetweenCallsOpensNoMessage() {
        String calls = "<tool_call>\n{\"name\": \"get_time\", \"arguments\": {}}\n</tool_call>\n\n"
                + "<tool_call>\n{\"name\": \"get_time\", \"arguments\": {}}\n</tool_call>\n";
        List<OutputItem> items =
                whole(calls, "stop", new AnswerReader.Options(false, false, ToolCallFormat.HERMES, Set.of("get_time")));

        assertThat(items).hasSize(2).allSatisfy(i -> assertThat(i).isInstanceOf(FunctionCall.class));
    }

    @Test
    void anAnswerCutOffByItsBudgetIsIncompleteAndItsLastItemToo() {
        ResponseOutput output = new ResponseOutput(PLAIN, false);
        output.feed(new Delta(0, "Once upon a", List.of(), "length"));

        assertThat(output.incomplete()).isTrue();
        Message message = (Message) output.items().getFirst();
        assertThat(message.status()).isEqualTo("incomplete");
        assertThat(message.content().getFirst().text()).isEqualTo("Once upon a");
    }

    @Test
    void anEmptyAnswerIsAnEmptyMessage() {
        List<OutputItem> items = whole("", "stop", PLAIN);

        assertThat(items).hasSize(1);
        assertThat(((Message) items.getFirst()).content().getFirst().text()).isEmpty();
    }

    @Test
    void tokensThatOnlyWroteThinkingAreCountedAsReasoning() {
        AnswerReader.Options thinking = new AnswerReader.Options(true, false, null, Set.of());
        ResponseOutput output = new ResponseOutput(thinking, false);
        output.feed(new Delta(0, "<think>", List.of(token("<think>")), null));
        output.feed(new Delta(0, "Hmm", List.of(token("Hmm")), null));
        output.feed(new Delta(0, "</think>", List.of(token("</think>")), null));
        output.feed(new Delta(0, "Yes", List.of(token("Yes")), "stop"));

        assertThat(output.reasoningTokens()).isEqualTo(1);
        assertThat(output.items()).hasSize(2);
    }

    private static com.llmserve.app.generation.OutputToken token(String text) {
        return new com.llmserve.app.generation.OutputToken(
                0, text, text.getBytes(java.nio.charset.StandardCharsets.UTF_8), 0f, List.of(), 0);
    }

    private static int sequence(Event e) {
        return switch (e) {
            case ResponseObjects.ResponseEvent r -> r.sequenceNumber();
            case ResponseObjects.ItemEvent i -> i.sequenceNumber();
            case ResponseObjects.PartEvent p -> p.sequenceNumber();
            case ResponseObjects.TextDelta d -> d.sequenceNumber();
            case ResponseObjects.TextDone d -> d.sequenceNumber();
            case ResponseObjects.ArgumentsDelta d -> d.sequenceNumber();
            case ResponseObjects.ArgumentsDone d -> d.sequenceNumber();
        };
    }

    /** The items with their random ids blanked, to compare two answers. */
    private static List<OutputItem> withoutIds(List<OutputItem> items) {
        return items.stream()
                .map(i -> (OutputItem)
                        switch (i) {
                            case Message m -> new Message(m.type(), "", m.status(), m.role(), m.content());
                            case ReasoningItem r ->
                                new ReasoningItem(r.type(), "", r.summary(), r.content(), null, r.status());
                            case FunctionCall f ->
                                new FunctionCall(f.type(), "", "", f.name(), f.arguments(), f.status());
                        })
                .toList();
    }
}
