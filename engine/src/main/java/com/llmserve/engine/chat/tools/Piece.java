package com.llmserve.engine.chat.tools;

import java.util.List;

/** A stretch of a model's output as a {@link Scanner} tells it apart; the next starts at its {@link #end()}. */
sealed interface Piece {

    int end();

    /** Text for the user. */
    record Content(String text, int end) implements Piece {}

    /** The model's reasoning, shown apart from the answer. */
    record Reasoning(String text, int end) implements Piece {}

    /** One call or several written together. */
    record Calls(List<FoundCall> calls, int end) implements Piece {
        public Calls {
            calls = List.copyOf(calls);
        }
    }

    /** Control text that is neither content nor a call: the heads and ends of gpt-oss's messages. */
    record Markup(int end) implements Piece {}
}
