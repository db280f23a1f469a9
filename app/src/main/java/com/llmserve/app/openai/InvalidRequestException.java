package com.llmserve.app.openai;

/**
 * The request is wrong: answered 400 with the offending parameter in {@code param}, as OpenAI does.
 */
public final class InvalidRequestException extends RuntimeException {

    private final String param;
    private final String code;

    /**
     * @param param the parameter at fault in the request's terms ({@code messages[1].content}), or null
     * @param code  a machine-readable reason, or null
     */
    public InvalidRequestException(String param, String message, String code) {
        super(message);
        this.param = param;
        this.code = code;
    }

    public InvalidRequestException(String param, String message) {
        this(param, message, null);
    }

    public String param() {
        return param;
    }

    public String code() {
        return code;
    }
}
