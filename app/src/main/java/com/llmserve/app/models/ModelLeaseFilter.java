package com.llmserve.app.models;

import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Gives each request {@link ModelLeases}: the models it takes from the registry stay open until its
 * response is complete, which for a streamed answer is when the asynchronous part ends, not when
 * the handler returns. So a model removed while it answers closes only after its last answer.
 */
final class ModelLeaseFilter extends OncePerRequestFilter {

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        ModelLeases leases = new ModelLeases();
        try {
            leases.during(() -> {
                chain.doFilter(request, response);
                return null;
            });
        } catch (IOException | ServletException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new ServletException(e);
        } finally {
            if (request.isAsyncStarted()) {
                request.getAsyncContext().addListener(new ReleaseOnComplete(leases));
            } else {
                leases.release();
            }
        }
    }

    /** Releases the leases when the asynchronous response completes, however it ends (the container always completes it). */
    private record ReleaseOnComplete(ModelLeases leases) implements AsyncListener {

        @Override
        public void onComplete(AsyncEvent event) {
            leases.release();
        }

        @Override
        public void onTimeout(AsyncEvent event) {}

        @Override
        public void onError(AsyncEvent event) {}

        @Override
        public void onStartAsync(AsyncEvent event) {
            event.getAsyncContext().addListener(this); // a new asynchronous cycle drops the listeners of the last
        }
    }
}
