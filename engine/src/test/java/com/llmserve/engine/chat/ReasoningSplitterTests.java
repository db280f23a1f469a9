package com.llmserve.engine.chat;

import static org.assertj.core.api.Assertions.assertThat;

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
}
