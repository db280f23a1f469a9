package com.llmserve.app.openai;

/**
 * What a request field that the service does not know gets ({@code llmserve.api.unknown-fields}).
 * Fields it knows are checked as strictly under every policy: a wrong type or range, or a value it
 * cannot honour, is a 400 naming the field.
 */
public enum UnknownFieldPolicy {

    /** A 400 naming the first unknown field ({@code unknown_parameter}), as OpenAI answers. */
    REJECT,

    /**
     * The field is ignored and logged at WARN, once per endpoint and field name, as vLLM and
     * llama.cpp do: a client that sends a newer OpenAI field still gets its answer.
     */
    WARN,

    /** The field is ignored without a word (logged at DEBUG). */
    IGNORE
}
