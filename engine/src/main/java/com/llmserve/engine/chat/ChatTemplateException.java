package com.llmserve.engine.chat;

/**
 * A chat template that cannot be used or that refused a conversation. {@link #reason()} tells a
 * template that called {@code raise_exception} (the conversation is at fault, for example roles
 * that do not alternate: a client error) from a template that does not parse or fails while
 * rendering (the model file is at fault). The message is the template's own where it has one.
 */
public final class ChatTemplateException extends RuntimeException {

    /** Why the template failed. */
    public enum Reason {
        /** The source does not parse, or uses a tag or filter that no engine here provides. */
        INVALID_TEMPLATE,
        /** Rendering failed: an unknown function or method, a type error and the like. */
        RENDER_FAILED,
        /** The template itself rejected the conversation through {@code raise_exception}. */
        RAISED_BY_TEMPLATE
    }

    private final Reason reason;

    public ChatTemplateException(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
