package com.llmserve.engine.chat;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.engine.chat.tools.ParsedOutput;
import com.llmserve.engine.chat.tools.ToolCallFormat;
import com.llmserve.engine.chat.tools.ToolCallParser;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReasoningSplitterTests {

    @Test
    void thinkingAtTheStartGoesToReasoning() {
        ReasoningSplitter.Part p = ReasoningSplitter.split("<think>\nLet me see.\n</think>\n\nIt is 4.", false);
        assertThat(p.reasoning()).isEqualTo("Let me see.\n");
        assertThat(p.content()).isEqualTo("It is 4.");
    }

    @Test
    void aPromptThatOpenedTheThinkingNeedsNoOpeningTag() {
        assertThat(ReasoningSplitter.opensThinking("<|Assistant|><think>\n")).isTrue();
        ReasoningSplitter.Part p = ReasoningSplitter.split("Hmm.</think>Four.", true);
        assertThat(p.reasoning()).isEqualTo("Hmm.");
        assertThat(p.content()).isEqualTo("Four.");
    }

    @Test
    void textWithoutThinkingIsAllContentEvenWithATagLater() {
        ReasoningSplitter.Part p = ReasoningSplitter.split("Hello <think>not this</think>", false);
        assertThat(p.reasoning()).isEmpty();
        assertThat(p.content()).isEqualTo("Hello <think>not this</think>");
    }

    @Test
    void unfinishedThinkingStaysReasoning() {
        ReasoningSplitter.Part p = ReasoningSplitter.split("<think>going on and on</thi", false);
        assertThat(p.reasoning()).isEqualTo("going on and on</thi");
        assertThat(p.content()).isEmpty();
    }

    @Test
    void streamingOneCharacterAtATimeGivesTheSameParts() {
        String[] outputs = {
            "<think>\nLet me see.\n</think>\n\nIt is 4.",
            "  <think>a</think>b",
            "<thin",
            "<thinker>x",
            "plain",
            "</think>x"
        };
        for (boolean opened : new boolean[] {false, true}) {
            for (String out : outputs) {
                ReasoningSplitter s = new ReasoningSplitter(opened);
                StringBuilder reasoning = new StringBuilder();
                StringBuilder content = new StringBuilder();
                for (int i = 0; i < out.length(); i++) {
                    ReasoningSplitter.Part p = s.feed(out.substring(i, i + 1));
                    reasoning.append(p.reasoning());
                    content.append(p.content());
                }
                ReasoningSplitter.Part p = s.finish();
                reasoning.append(p.reasoning());
                content.append(p.content());
                ReasoningSplitter.Part whole = ReasoningSplitter.split(out, opened);
                assertThat(reasoning.toString()).as("%s %s", out, opened).isEqualTo(whole.reasoning());
                assertThat(content.toString()).as("%s %s", out, opened).isEqualTo(whole.content());
            }
        }
    }

    /** Qwen3's own template, as its GGUF files carry it (src/test/resources/.../chat/templates). */
    private static ChatTemplate qwen3() throws IOException {
        return ChatTemplateRenderingTests.template("Qwen-Qwen3-0.6B");
    }

    @Test
    void qwen3sPromptsLeaveTheThinkingToTheModelWhichOpensItItself() throws IOException {
        List<ChatMessage> hello = List.of(ChatTemplateRenderingTests.HELLO);
        // Thinking on (the default): the prompt ends at the assistant header, the model writes <think>.
        assertThat(ReasoningSplitter.opensThinking(qwen3().render(hello, true))).isFalse();
        // Thinking off: the prompt holds an empty, closed thinking block; the output is all answer.
        String noThinking = qwen3().render(hello, true, Map.of("enable_thinking", false));
        assertThat(noThinking).endsWith("<think>\n\n</think>\n\n");
        assertThat(ReasoningSplitter.opensThinking(noThinking)).isFalse();
        assertThat(ReasoningSplitter.split("Hi! How can I help?", false))
                .isEqualTo(new ReasoningSplitter.Part("", "Hi! How can I help?"));
    }

    @Test
    void qwen3sThinkingIsSeparatedFromItsAnswer() {
        assertThat(ReasoningSplitter.split("<think>\nThe user greets me.\n</think>\n\nHi! How can I help?", false))
                .isEqualTo(new ReasoningSplitter.Part("The user greets me.\n", "Hi! How can I help?"));
        // Qwen3 may think nothing at all (an empty block) and still answer.
        assertThat(ReasoningSplitter.split("<think>\n\n</think>\n\nHi!", false))
                .isEqualTo(new ReasoningSplitter.Part("", "Hi!"));
    }

    @Test
    void qwen3sSeparatedThinkingRendersBackAsTheModelWroteIt() throws IOException {
        // A client sends the parts back as content and reasoning_content; Qwen3's template joins
        // them into the same text as the raw output, so the next prompt matches what was generated.
        String output = "<think>\nThe user greets me.\n</think>\n\nHi! How can I help?";
        ReasoningSplitter.Part parts = ReasoningSplitter.split(output, false);
        ChatMessage separated =
                new ChatMessage("assistant", parts.content(), Map.of("reasoning_content", parts.reasoning()));
        ChatMessage raw = ChatMessage.assistant(output);
        List<ChatMessage> hello = List.of(ChatTemplateRenderingTests.HELLO);
        String rendered = qwen3().render(List.of(hello.getFirst(), separated), false);
        assertThat(rendered).isEqualTo(qwen3().render(List.of(hello.getFirst(), raw), false));
        assertThat(rendered).endsWith("<|im_start|>assistant\n" + output + "<|im_end|>\n");
    }

    @Test
    void qwen3sToolCallsAreReadFromTheAnswerAfterTheThinking() throws IOException {
        String output = "<think>\nI should call the tool.\n</think>\n\n"
                + "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call>";
        ReasoningSplitter.Part parts = ReasoningSplitter.split(output, false);
        assertThat(parts.reasoning()).isEqualTo("I should call the tool.\n");
        ToolCallFormat format = ToolCallFormat.detect(qwen3().source());
        ParsedOutput parsed = new ToolCallParser(format).parse(parts.content());
        assertThat(parsed.content()).isNull();
        assertThat(parsed.calls()).singleElement().satisfies(call -> {
            assertThat(call.name()).isEqualTo("get_weather");
            assertThat(call.arguments()).isEqualTo("{\"city\":\"Paris\"}");
        });
    }
}
