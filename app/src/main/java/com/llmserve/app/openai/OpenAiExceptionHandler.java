package com.llmserve.app.openai;

import com.llmserve.app.system.MalformedBodyException;
import com.llmserve.app.system.RequestTooLargeException;
import jakarta.servlet.http.HttpServletRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.async.AsyncRequestNotUsableException;
import org.springframework.web.servlet.NoHandlerFoundException;
import org.springframework.web.servlet.resource.NoResourceFoundException;
import tools.jackson.core.JacksonException;

/**
 * Turns every exception of a request into OpenAI's error envelope: domain failures as
 * {@link ApiErrors} maps them, Spring's own (malformed JSON, wrong method or media type,
 * unknown URL) with the status Spring gives them. Nothing reaches the client as a stack trace.
 */
@RestControllerAdvice
class OpenAiExceptionHandler {

    private static final Logger LOG = LoggerFactory.getLogger(OpenAiExceptionHandler.class);

    @ExceptionHandler(HttpMessageNotReadableException.class)
    ResponseEntity<ErrorEnvelope> unreadable(HttpMessageNotReadableException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof RequestTooLargeException tooLarge) {
                return respond(ApiErrors.client(
                        HttpStatus.CONTENT_TOO_LARGE, tooLarge.getMessage(), null, "request_too_large"));
            }
            if (t instanceof MalformedBodyException malformed) {
                return respond(ApiErrors.client(HttpStatus.BAD_REQUEST, malformed.getMessage(), null, "invalid_json"));
            }
        }
        String detail = e.getCause() instanceof JacksonException j ? ": " + j.getOriginalMessage() : "";
        if (e.getCause() == null
                && e.getMessage() != null
                && e.getMessage().startsWith("Required request body is missing")) {
            detail = ": the body is empty";
        }
        return respond(ApiErrors.client(
                HttpStatus.BAD_REQUEST,
                "We could not parse the JSON body of your request" + detail + ". The API expects a JSON object.",
                null,
                "invalid_json"));
    }

    @ExceptionHandler(HttpMediaTypeNotSupportedException.class)
    ResponseEntity<ErrorEnvelope> mediaType(HttpMediaTypeNotSupportedException e) {
        return respond(ApiErrors.client(
                HttpStatus.UNSUPPORTED_MEDIA_TYPE,
                "Unsupported Content-Type "
                        + (e.getContentType() == null ? "(none)" : "'" + e.getContentType() + "'")
                        + ": send the body as application/json.",
                null,
                "unsupported_media_type"));
    }

    @ExceptionHandler(HttpMediaTypeNotAcceptableException.class)
    ResponseEntity<ErrorEnvelope> notAcceptable(HttpMediaTypeNotAcceptableException e) {
        return respond(ApiErrors.client(
                HttpStatus.NOT_ACCEPTABLE,
                "The Accept header allows none of the media types of this endpoint: " + e.getSupportedMediaTypes(),
                null,
                "not_acceptable"));
    }

    @ExceptionHandler(HttpRequestMethodNotSupportedException.class)
    ResponseEntity<ErrorEnvelope> method(HttpRequestMethodNotSupportedException e, HttpServletRequest request) {
        ResponseEntity<ErrorEnvelope> r = respond(ApiErrors.client(
                HttpStatus.METHOD_NOT_ALLOWED,
                "Method " + e.getMethod() + " is not allowed for " + request.getRequestURI() + "; use "
                        + e.getSupportedHttpMethods() + ".",
                null,
                "method_not_allowed"));
        return e.getSupportedHttpMethods() == null
                ? r
                : ResponseEntity.status(r.getStatusCode())
                        .headers(r.getHeaders())
                        .allow(e.getSupportedHttpMethods().toArray(org.springframework.http.HttpMethod[]::new))
                        .body(r.getBody());
    }

    @ExceptionHandler({NoHandlerFoundException.class, NoResourceFoundException.class})
    ResponseEntity<ErrorEnvelope> notFound(Exception e, HttpServletRequest request) {
        return respond(ApiErrors.client(
                HttpStatus.NOT_FOUND,
                "Invalid URL (" + request.getMethod() + " " + request.getRequestURI() + ")",
                null,
                "not_found"));
    }

    @ExceptionHandler(AsyncRequestNotUsableException.class)
    void clientGone(AsyncRequestNotUsableException e) {
        // the client disconnected; there is nobody to answer
        LOG.debug("Client disconnected: {}", e.toString());
    }

    @ExceptionHandler(Exception.class)
    ResponseEntity<ErrorEnvelope> other(Exception e, HttpServletRequest request) {
        ApiErrors.Mapped mapped = ApiErrors.map(e);
        if (mapped == null && e instanceof org.springframework.web.ErrorResponse spring) {
            // the rest of Spring MVC's own exceptions (missing parameter and the like) keep their status
            HttpStatus status = HttpStatus.resolve(spring.getStatusCode().value());
            if (status != null && status.is4xxClientError()) {
                String detail = spring.getBody().getDetail();
                return respond(
                        ApiErrors.client(status, detail != null ? detail : status.getReasonPhrase(), null, null));
            }
        }
        if (mapped == null) {
            LOG.error("Unexpected failure of {} {}", request.getMethod(), request.getRequestURI(), e);
            return respond(ApiErrors.internal());
        }
        if (mapped.serverFault()) {
            LOG.error("{} {} failed", request.getMethod(), request.getRequestURI(), e);
        } else {
            LOG.debug(
                    "{} {}: {} {}",
                    request.getMethod(),
                    request.getRequestURI(),
                    mapped.status().value(),
                    e.getMessage());
        }
        return respond(mapped);
    }

    /** JSON whatever the request's Accept header says: a streaming client gets its error too. */
    static ResponseEntity<ErrorEnvelope> respond(ApiErrors.Mapped mapped) {
        ResponseEntity.BodyBuilder builder =
                ResponseEntity.status(mapped.status()).contentType(MediaType.APPLICATION_JSON);
        if (mapped.retryAfter() != null) {
            builder.header(
                    HttpHeaders.RETRY_AFTER,
                    Long.toString(Math.max(1, mapped.retryAfter().toSeconds())));
        }
        return builder.body(mapped.body());
    }
}
