package com.llmserve.app.openai;

import com.llmserve.app.generation.GenerationFailedException;
import com.llmserve.app.models.EmbeddingFailedException;
import com.llmserve.app.models.ModelConflictException;
import com.llmserve.app.models.ModelNotFoundException;
import com.llmserve.app.models.ModelNotReadyException;
import com.llmserve.app.models.WrongModelKindException;
import com.llmserve.app.resilience.DeviceUnavailableException;
import com.llmserve.engine.chat.ChatTemplateException;
import com.llmserve.engine.model.InputTooLongException;
import com.llmserve.engine.sched.AdmissionException;
import io.github.resilience4j.bulkhead.BulkheadFullException;
import java.time.Duration;
import org.springframework.http.HttpStatus;

/**
 * How each domain failure looks on the wire: its HTTP status and OpenAI error envelope. Used by
 * the exception handler for plain responses and by streams for their error chunk, so a failure
 * reads the same either way.
 */
public final class ApiErrors {

    /** What a client is told to wait before retrying a model that is still loading. */
    static final Duration LOADING_RETRY_AFTER = Duration.ofSeconds(5);
    /** What a client is told to wait when the service has its most requests in flight: requests end by the second. */
    static final Duration BUSY_RETRY_AFTER = Duration.ofSeconds(1);

    private ApiErrors() {}

    /**
     * @param retryAfter the {@code Retry-After} to send, or null
     * @param serverFault whether the service is at fault (logged at error level)
     */
    public record Mapped(HttpStatus status, ErrorEnvelope body, Duration retryAfter, boolean serverFault) {}

    /** The mapping of a domain exception, or null for an exception this class does not know. */
    public static Mapped map(Throwable e) {
        return switch (e) {
            case InvalidRequestException x -> client(HttpStatus.BAD_REQUEST, x.getMessage(), x.param(), x.code());
            case ModelNotFoundException x -> client(HttpStatus.NOT_FOUND, x.getMessage(), "model", "model_not_found");
            case ModelConflictException x -> client(HttpStatus.CONFLICT, x.getMessage(), "id", "model_exists");
            case WrongModelKindException x ->
                client(HttpStatus.BAD_REQUEST, x.getMessage(), "model", "model_not_supported");
            case ModelNotReadyException x ->
                x.loading()
                        ? new Mapped(
                                HttpStatus.SERVICE_UNAVAILABLE,
                                ErrorEnvelope.of(x.getMessage(), ErrorEnvelope.SERVER_ERROR, "model", "model_loading"),
                                LOADING_RETRY_AFTER,
                                false)
                        : new Mapped(
                                HttpStatus.SERVICE_UNAVAILABLE,
                                ErrorEnvelope.of(
                                        x.getMessage(), ErrorEnvelope.SERVER_ERROR, "model", "model_unavailable"),
                                null,
                                false);
            case AdmissionException x ->
                switch (x.reason()) {
                    case QUEUE_FULL ->
                        new Mapped(
                                HttpStatus.TOO_MANY_REQUESTS,
                                ErrorEnvelope.of(
                                        "The server is busy: " + x.getMessage() + ". Retry later.",
                                        ErrorEnvelope.RATE_LIMIT,
                                        null,
                                        "queue_full"),
                                x.retryAfter().isZero() ? Duration.ofSeconds(1) : x.retryAfter(),
                                false);
                    case PROMPT_TOO_LONG ->
                        client(HttpStatus.BAD_REQUEST, x.getMessage(), null, "context_length_exceeded");
                    case STOPPED ->
                        server(HttpStatus.SERVICE_UNAVAILABLE, "The service is shutting down", "shutting_down", false);
                };
            case BulkheadFullException x ->
                new Mapped(
                        HttpStatus.TOO_MANY_REQUESTS,
                        ErrorEnvelope.of(
                                "The server is busy: it has as many requests in flight as it takes. Retry later.",
                                ErrorEnvelope.RATE_LIMIT,
                                null,
                                "server_busy"),
                        BUSY_RETRY_AFTER,
                        false);
            case DeviceUnavailableException x ->
                new Mapped(
                        HttpStatus.SERVICE_UNAVAILABLE,
                        ErrorEnvelope.of(x.getMessage(), ErrorEnvelope.SERVER_ERROR, "model", "device_unavailable"),
                        x.retryAfter(),
                        false);
            case ChatTemplateException x ->
                x.reason() == ChatTemplateException.Reason.RAISED_BY_TEMPLATE
                        ? client(
                                HttpStatus.BAD_REQUEST,
                                "The model's chat template refused the conversation: " + x.getMessage(),
                                "messages",
                                "invalid_conversation")
                        : server(
                                HttpStatus.INTERNAL_SERVER_ERROR,
                                "The model's chat template failed: " + x.getMessage(),
                                "chat_template_error",
                                true);
            case GenerationFailedException x ->
                switch (x.reason()) {
                    case TIMEOUT -> server(HttpStatus.SERVICE_UNAVAILABLE, x.getMessage(), "request_timeout", false);
                    case SHUTTING_DOWN ->
                        server(HttpStatus.SERVICE_UNAVAILABLE, x.getMessage(), "shutting_down", false);
                    case ENGINE_ERROR -> server(HttpStatus.INTERNAL_SERVER_ERROR, x.getMessage(), "engine_error", true);
                };
            case EmbeddingFailedException x ->
                switch (x.reason()) {
                    case TIMEOUT -> server(HttpStatus.SERVICE_UNAVAILABLE, x.getMessage(), "request_timeout", false);
                    case SHUTTING_DOWN ->
                        server(HttpStatus.SERVICE_UNAVAILABLE, x.getMessage(), "shutting_down", false);
                    case ENGINE_ERROR -> server(HttpStatus.INTERNAL_SERVER_ERROR, x.getMessage(), "engine_error", true);
                };
            case InputTooLongException x ->
                client(HttpStatus.BAD_REQUEST, x.getMessage(), "input[" + x.index() + "]", "context_length_exceeded");
            default -> null;
        };
    }

    /** The answer to an unexpected exception: no detail leaks out, the log has it. */
    public static Mapped internal() {
        return server(
                HttpStatus.INTERNAL_SERVER_ERROR, "The server had an error while processing your request.", null, true);
    }

    static Mapped client(HttpStatus status, String message, String param, String code) {
        return new Mapped(status, ErrorEnvelope.of(message, ErrorEnvelope.INVALID_REQUEST, param, code), null, false);
    }

    private static Mapped server(HttpStatus status, String message, String code, boolean fault) {
        return new Mapped(status, ErrorEnvelope.of(message, ErrorEnvelope.SERVER_ERROR, null, code), null, fault);
    }
}
