package com.llmserve.app.openai;

/**
 * OpenAI's error envelope: {@code {"error":{"message","type","param","code"}}}. Every error of
 * the API, including mid-stream ones, has this shape; {@code param} and {@code code} are null
 * when they do not apply.
 */
public record ErrorEnvelope(Body error) {

    public record Body(String message, String type, String param, String code) {}

    public static ErrorEnvelope of(String message, String type, String param, String code) {
        return new ErrorEnvelope(new Body(message, type, param, code));
    }

    /** The {@code type} of client errors (400, 404, 405, 413, 415). */
    public static final String INVALID_REQUEST = "invalid_request_error";
    /** The {@code type} of 429 answers. */
    public static final String RATE_LIMIT = "rate_limit_error";
    /** The {@code type} of 500 and 503 answers. */
    public static final String SERVER_ERROR = "server_error";
}
