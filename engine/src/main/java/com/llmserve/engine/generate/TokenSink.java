package com.llmserve.engine.generate;

/** Receives each generated token as soon as it is sampled. */
@FunctionalInterface
public interface TokenSink {

    TokenSink NONE = token -> {};

    void accept(int token);
}
