package com.llmserve.app.security;

import com.llmserve.app.openai.ErrorEnvelope;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Asks for {@code Authorization: Bearer <key>} on every request but those to endpoints configured
 * as open, and answers 401 in OpenAI's envelope (as OpenAI words it: no code for a missing key,
 * {@code invalid_api_key} for a wrong one) with a {@code WWW-Authenticate} challenge. The key is
 * never logged or echoed. Runs before anything reads the body. A caller with a key (every caller
 * while keys are off) gets a principal, so the health endpoint shows it the details; an open
 * health endpoint shows a caller without one the status only, unless
 * {@code llmserve.security.health-details} is {@code full}.
 */
final class ApiKeyFilter extends OncePerRequestFilter {

    private static final Logger LOG = LoggerFactory.getLogger(ApiKeyFilter.class);
    private static final String BEARER = "Bearer ";

    private final ApiKeys keys;
    private final ApiKeyProperties properties;
    private final String actuatorBase;
    private final JsonMapper json;

    /**
     * @param actuatorBase the actuator's base path ({@code /actuator})
     */
    ApiKeyFilter(ApiKeys keys, ApiKeyProperties properties, String actuatorBase, JsonMapper json) {
        this.keys = keys;
        this.properties = properties;
        this.actuatorBase =
                actuatorBase.endsWith("/") ? actuatorBase.substring(0, actuatorBase.length() - 1) : actuatorBase;
        this.json = json;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (!keys.enabled()) {
            chain.doFilter(new Trusted(request), response);
            return;
        }
        if (open(path(request))) {
            boolean trusted = properties.healthDetails() == ApiKeyProperties.HealthDetails.FULL
                    || keyMatches(request.getHeader(HttpHeaders.AUTHORIZATION));
            chain.doFilter(trusted ? new Trusted(request) : request, response);
            return;
        }
        String header = request.getHeader(HttpHeaders.AUTHORIZATION);
        if (header == null
                || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())
                || header.substring(BEARER.length()).isBlank()) {
            LOG.debug("401 for {} {}: no bearer key", request.getMethod(), path(request));
            refuse(
                    response,
                    "Bearer realm=\"llmserve\"",
                    ErrorEnvelope.of(
                            "You didn't provide an API key. You need to provide your API key "
                                    + "in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
                            ErrorEnvelope.INVALID_REQUEST,
                            null,
                            null));
            return;
        }
        if (!keyMatches(header)) {
            LOG.debug("401 for {} {}: unknown key", request.getMethod(), path(request));
            refuse(
                    response,
                    "Bearer realm=\"llmserve\", error=\"invalid_token\"",
                    ErrorEnvelope.of(
                            "Incorrect API key provided.", ErrorEnvelope.INVALID_REQUEST, null, "invalid_api_key"));
            return;
        }
        chain.doFilter(new Trusted(request), response);
    }

    private boolean keyMatches(String header) {
        return header != null
                && header.regionMatches(true, 0, BEARER, 0, BEARER.length())
                && keys.matches(header.substring(BEARER.length()).strip());
    }

    /**
     * A request from a caller with a key (or any caller while keys are off): it has a principal,
     * which is what the health endpoint's {@code show-details: when-authorized} asks for.
     */
    private static final class Trusted extends HttpServletRequestWrapper {

        private static final Principal CALLER = () -> "api-key";

        Trusted(HttpServletRequest request) {
            super(request);
        }

        @Override
        public Principal getUserPrincipal() {
            return CALLER;
        }
    }

    /** The path as the servlet container decoded and normalised it, so {@code ..} or escapes cannot dress a path up as an open one. */
    private static String path(HttpServletRequest request) {
        String servletPath = request.getServletPath();
        String pathInfo = request.getPathInfo();
        return (servletPath == null ? "" : servletPath) + (pathInfo == null ? "" : pathInfo);
    }

    private boolean open(String path) {
        if (properties.health() == ApiKeyProperties.Access.OPEN && under(path, actuatorBase + "/health")) {
            return true;
        }
        return properties.metrics() == ApiKeyProperties.Access.OPEN
                && (under(path, actuatorBase + "/prometheus") || under(path, actuatorBase + "/metrics"));
    }

    private static boolean under(String path, String prefix) {
        return path.equals(prefix) || path.startsWith(prefix + "/");
    }

    private void refuse(HttpServletResponse response, String challenge, ErrorEnvelope body) throws IOException {
        response.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
        response.setHeader(HttpHeaders.WWW_AUTHENTICATE, challenge);
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.getWriter().write(json.writeValueAsString(body));
    }
}
