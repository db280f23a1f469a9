package com.llmserve.app.openai.chat;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.engine.chat.tools.ToolCallFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AnswerReaderTests {

    private static final AnswerReader.Options THINKING_WITH_TOOLS =
            new AnswerReader.Options(true, false, ToolCallFormat.HERMES, Set.of("get_weather"));

    private static final String OUTPUT = "<think>\nThe user wants weather.\n</think>\n\nLet me check."
            + "\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>";

    @Test
    void aWholeAnswerSplitsThinkingContentAndCalls() {
        AnswerReader.Answer a = AnswerReader.read(OUTPUT, THINKING_WITH_TOOLS);
        assertThat(a.reasoning()).isEqualTo("The user wants weather.\n");
        assertThat(a.content()).isEqualTo("Let me check.");
        assertThat(a.calls()).hasSize(1);
        assertThat(a.calls().getFirst().function().name()).isEqualTo("get_weather");
        assertThat(a.calls().getFirst().function().arguments()).isEqualTo("{\"city\":\"Paris\"}");
        assertThat(a.calls().getFirst().id()).startsWith("call_");
    }

    @Test
    void streamedOneCharacterAtATimeItSaysTheSame() {
        AnswerReader reader = new AnswerReader(THINKING_WITH_TOOLS);
        StringBuilder reasoning = new StringBuilder();
        StringBuilder content = new StringBuilder();
        List<ChatResponses.ToolCallDelta> calls = new ArrayList<>();
        for (int i = 0; i < OUTPUT.length(); i++) {
            collect(reader.feed(OUTPUT.substring(i, i + 1)), reasoning, content, calls);
        }
        collect(reader.finish(), reasoning, content, calls);
        AnswerReader.Answer whole = AnswerReader.read(OUTPUT, THINKING_WITH_TOOLS);
        assertThat(reasoning.toString()).isEqualTo(whole.reasoning());
        assertThat(content.toString()).isEqualTo(whole.content());
        assertThat(calls.getFirst().function().name()).isEqualTo("get_weather");
        assertThat(calls.stream().map(c -> c.function().arguments()).reduce("", String::concat))
                .isEqualTo(whole.calls().getFirst().function().arguments());
        assertThat(reader.calledTools()).isTrue();
    }

    @Test
    void withoutToolsOrThinkingTheTextIsTheContent() {
        AnswerReader.Answer a = AnswerReader.read(OUTPUT, AnswerReader.Options.PLAIN);
        assertThat(a.content()).isEqualTo(OUTPUT);
        assertThat(a.reasoning()).isNull();
        assertThat(a.calls()).isEmpty();
    }

    @Test
    void aCallOfAnUnknownToolStaysText() {
        AnswerReader.Options other = new AnswerReader.Options(false, false, ToolCallFormat.HERMES, Set.of("get_time"));
        AnswerReader.Answer a = AnswerReader.read(OUTPUT, other);
        assertThat(a.calls()).isEmpty();
        assertThat(a.content()).contains("<tool_call>");
    }

    private static void collect(
            AnswerReader.Update u,
            StringBuilder reasoning,
            StringBuilder content,
            List<ChatResponses.ToolCallDelta> calls) {
        reasoning.append(u.reasoning());
        content.append(u.content());
        calls.addAll(u.calls());
    }
}
