package com.llmserve.app.openai.responses;

import com.llmserve.app.openai.responses.ResponseObjects.OutputItem;
import com.llmserve.app.openai.responses.ResponseObjects.Response;
import java.util.List;

/**
 * The response object of one request at each point of its life (created, then completed,
 * incomplete or failed): what stays the same (the id, the time, the request's settings) is kept
 * here, the rest comes with each call.
 */
final class ResponseSnapshots {

    private final String id;
    private final long createdAt;
    private final ResponsesRequest request;

    ResponseSnapshots(String id, long createdAt, ResponsesRequest request) {
        this.id = id;
        this.createdAt = createdAt;
        this.request = request;
    }

    /** Just created: in progress, no output yet. */
    Response created() {
        return of("in_progress", List.of(), null, null, null);
    }

    /** Over: completed, or incomplete when the token budget cut it off. */
    Response finished(ResponseOutput output, ResponseObjects.Usage usage) {
        return output.incomplete()
                ? of(
                        "incomplete",
                        output.items(),
                        usage,
                        null,
                        new ResponseObjects.IncompleteDetails("max_output_tokens"))
                : of("completed", output.items(), usage, null, null);
    }

    /** Failed after it started: the output so far and why. */
    Response failed(ResponseOutput output, String message) {
        return of("failed", output.items(), null, new ResponseObjects.Error("server_error", message), null);
    }

    private Response of(
            String status,
            List<OutputItem> output,
            ResponseObjects.Usage usage,
            ResponseObjects.Error error,
            ResponseObjects.IncompleteDetails incomplete) {
        ResponsesRequest.Echo echo = request.echo();
        return new Response(
                id,
                "response",
                createdAt,
                status,
                error,
                incomplete,
                request.instructions(),
                request.maxOutputTokens().isPresent()
                        ? request.maxOutputTokens().getAsInt()
                        : null,
                request.model(),
                output,
                echo.parallelToolCalls(),
                null,
                echo.reasoning(),
                false,
                request.sampling().temperature(),
                echo.text(),
                echo.toolChoice(),
                echo.tools(),
                request.sampling().topP(),
                "disabled",
                usage,
                echo.user(),
                echo.metadata(),
                false);
    }
}
