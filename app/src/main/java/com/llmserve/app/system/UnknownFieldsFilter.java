package com.llmserve.app.system;

import com.llmserve.app.openai.RequestFields;
import com.llmserve.app.openai.UnknownFieldPolicy;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Binds {@code llmserve.api.unknown-fields} for the request, so every {@link RequestFields} its
 * controller reads, nested objects included, deals with unknown fields alike.
 */
final class UnknownFieldsFilter extends OncePerRequestFilter {

    private final UnknownFieldPolicy policy;

    UnknownFieldsFilter(UnknownFieldPolicy policy) {
        this.policy = policy;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        try {
            RequestFields.withPolicy(policy, request.getMethod() + " " + request.getRequestURI(), () -> {
                chain.doFilter(request, response);
                return null;
            });
        } catch (IOException | ServletException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new ServletException(e);
        }
    }
}
