package com.llmserve.engine.chat.tools;

import java.util.function.Supplier;

/** Call ids {@code call_0}, {@code call_1}, ..., so that tests can name them. */
final class SequentialIds implements Supplier<String> {

    private int next;

    @Override
    public String get() {
        return "call_" + next++;
    }
}
