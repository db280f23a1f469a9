package com.llmserve.app.system;

import java.io.IOException;
import java.io.Writer;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;

/**
 * Tomcat's last word on errors it raises itself, before any servlet runs (a malformed request
 * line or URI): the OpenAI envelope instead of Tomcat's HTML page, without exception details.
 * Errors of requests that reach Spring are answered by the exception handler and the error
 * controller; this valve leaves those responses alone.
 */
public final class JsonErrorReportValve extends ErrorReportValve {

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        String message = status == 404
                ? "Invalid URL"
                : status < 500
                        ? "Bad request: the server could not read it"
                        : "The server had an error while processing your request.";
        String type = status < 500 ? "invalid_request_error" : "server_error";
        try {
            response.setContentType("application/json");
            response.setCharacterEncoding("UTF-8");
            Writer writer = response.getReporter();
            if (writer != null) {
                writer.write("{\"error\":{\"message\":\"" + message + "\",\"type\":\"" + type
                        + "\",\"param\":null,\"code\":null}}");
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            // the client is gone or the response is already on its way: nothing more to say
        }
    }
}
