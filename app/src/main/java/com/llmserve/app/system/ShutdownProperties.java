package com.llmserve.app.system;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * What the service does when it is told to stop (SIGTERM from Kubernetes): new API requests are
 * answered 503 with {@code Retry-After}, generations in flight run on for at most
 * {@code drainTimeout}, then end with finish reason {@code length}, and embedding batches finish.
 * The pod's {@code terminationGracePeriodSeconds} must cover the drain and the exit (the Helm chart
 * checks it).
 *
 * @param drainTimeout how long generations in flight may still run
 */
@ConfigurationProperties("llmserve.shutdown")
public record ShutdownProperties(@DefaultValue("30s") Duration drainTimeout) {

    public ShutdownProperties {
        if (drainTimeout.isNegative()) {
            throw new IllegalArgumentException("llmserve.shutdown.drain-timeout must not be negative: " + drainTimeout);
        }
    }
}
