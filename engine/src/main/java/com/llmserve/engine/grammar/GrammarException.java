package com.llmserve.engine.grammar;

/** A grammar, schema or GBNF text that cannot be compiled; the message names what is wrong. */
public class GrammarException extends IllegalArgumentException {

    public GrammarException(String message) {
        super(message);
    }
}
