package com.llmserve.app.system;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * While the service drains at shutdown, answers new requests 503 with {@code Retry-After}, so a
 * client (or the load balancer) retries on another replica; the actuator stays answerable, so the
 * probes see readiness down rather than an error.
 */
final class DrainFilter extends OncePerRequestFilter {

    private final ShutdownDrain drain;
    private final String actuatorBase;

    DrainFilter(ShutdownDrain drain, String actuatorBase) {
        this.drain = drain;
        this.actuatorBase = actuatorBase.endsWith("/") ? actuatorBase : actuatorBase + "/";
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (!drain.draining() || request.getRequestURI().startsWith(actuatorBase)) {
            chain.doFilter(request, response);
            return;
        }
        response.setStatus(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
        response.setHeader(HttpHeaders.RETRY_AFTER, "1");
        response.setHeader(HttpHeaders.CONNECTION, "close");
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.getWriter()
                .write("{\"error\":{\"message\":\"The service is shutting down; retry on another replica.\","
                        + "\"type\":\"server_error\",\"param\":null,\"code\":\"shutting_down\"}}");
    }
}
