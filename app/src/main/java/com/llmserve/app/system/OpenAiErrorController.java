package com.llmserve.app.system;

import com.llmserve.app.openai.ErrorEnvelope;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Replaces Spring Boot's error page: errors that never reach a controller (a malformed request
 * line, a failure in a filter) are answered in the OpenAI envelope too, without the exception's
 * message or stack trace.
 */
@RestController
class OpenAiErrorController implements ErrorController {

    @RequestMapping("${server.error.path:/error}")
    ResponseEntity<ErrorEnvelope> error(HttpServletRequest request) {
        if (request.getDispatcherType() != DispatcherType.ERROR) {
            // asked for directly: there is no error to report, and no such endpoint
            return ResponseEntity.status(HttpStatus.NOT_FOUND)
                    .contentType(MediaType.APPLICATION_JSON)
                    .body(ErrorEnvelope.of(
                            "Invalid URL (" + request.getMethod() + " " + request.getRequestURI() + ")",
                            ErrorEnvelope.INVALID_REQUEST,
                            null,
                            "not_found"));
        }
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        HttpStatus status = code instanceof Integer c && HttpStatus.resolve(c) != null
                ? HttpStatus.resolve(c)
                : HttpStatus.INTERNAL_SERVER_ERROR;
        Object uri = request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
        ErrorEnvelope body =
                switch (status) {
                    case NOT_FOUND ->
                        ErrorEnvelope.of(
                                "Invalid URL (" + request.getMethod() + " " + uri + ")",
                                ErrorEnvelope.INVALID_REQUEST,
                                null,
                                "not_found");
                    default ->
                        status.is4xxClientError()
                                ? ErrorEnvelope.of(status.getReasonPhrase(), ErrorEnvelope.INVALID_REQUEST, null, null)
                                : ErrorEnvelope.of(
                                        "The server had an error while processing your request.",
                                        ErrorEnvelope.SERVER_ERROR,
                                        null,
                                        null);
                };
        return ResponseEntity.status(status)
                .contentType(MediaType.APPLICATION_JSON)
                .body(body);
    }
}
