package com.llmserve.app.system;

import com.llmserve.app.openai.ErrorEnvelope;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Refuses, before any other filter, a request whose path is not already in normal form: a
 * {@code .} or {@code ..} segment, an empty segment ({@code //}), path parameters ({@code ;}), a
 * backslash, or an escaped dot, slash, backslash or percent sign. The servlet container normalises
 * such a path for the filters ({@code getServletPath}) while Spring's routing reads the raw one, so
 * a filter that decides by path (the API-key filter's open health endpoint) and the handler that
 * answers could see two different paths: {@code /v1/models/../../actuator/health} looks like health
 * to the one and like a model to the other. No client of the API sends such paths.
 */
final class NormalizedPathFilter extends OncePerRequestFilter {

    private final JsonMapper json;

    NormalizedPathFilter(JsonMapper json) {
        this.json = json;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String problem = problem(request.getRequestURI());
        if (problem == null) {
            chain.doFilter(request, response);
            return;
        }
        response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.getWriter()
                .write(json.writeValueAsString(ErrorEnvelope.of(
                        "Invalid URL: the path must be in normal form (" + problem + ").",
                        ErrorEnvelope.INVALID_REQUEST,
                        null,
                        "invalid_url")));
    }

    /** What is wrong with a raw request path, or null when it is in normal form. */
    static String problem(String rawPath) {
        if (rawPath == null || rawPath.isEmpty()) {
            return null;
        }
        if (rawPath.indexOf(';') >= 0) {
            return "no path parameters";
        }
        if (rawPath.indexOf('\\') >= 0) {
            return "no backslashes";
        }
        String lower = rawPath.toLowerCase(Locale.ROOT);
        if (lower.contains("%2e") || lower.contains("%2f") || lower.contains("%5c") || lower.contains("%25")) {
            return "no escaped dots, slashes, backslashes or percent signs";
        }
        String[] segments = rawPath.split("/", -1);
        for (int i = 1; i < segments.length; i++) {
            String s = segments[i];
            if (s.equals(".") || s.equals("..")) {
                return "no '.' or '..' segments";
            }
            if (s.isEmpty() && i < segments.length - 1) {
                return "no empty segments";
            }
        }
        return null;
    }
}
