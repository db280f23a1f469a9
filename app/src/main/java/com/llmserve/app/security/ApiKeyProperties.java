package com.llmserve.app.security;

import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Optional API keys. With none configured (the default) every endpoint is open; with any, every
 * request needs {@code Authorization: Bearer <key>} except the endpoints configured as open.
 *
 * @param apiKeys     keys accepted; {@code LLMSERVE_SECURITY_API_KEYS=k1,k2} sets them
 * @param apiKeysFile a file of keys, one a line ({@code #} starts a comment), e.g. a mounted Kubernetes
 *                    secret; read at startup and again when it changes, so keys rotate without a restart.
 *                    Setting it turns keys on even while it holds none (then nothing protected is served)
 * @param health      whether {@code /actuator/health/**} (the Kubernetes probes) is {@code open} or
 *                    {@code protected} when keys are on
 * @param metrics     whether {@code /actuator/prometheus} and {@code /actuator/metrics/**} are {@code open}
 *                    or {@code protected} when keys are on (a Prometheus scrape config can send a bearer
 *                    token); every other actuator endpoint is protected
 * @param healthDetails what an open health endpoint shows a caller without a key while keys are on:
 *                      {@code summary} (the status only; the default) or {@code full} (every component's
 *                      details: model files, devices, disk). A caller with a key, and every caller while
 *                      keys are off, sees the details
 */
@ConfigurationProperties("llmserve.security")
public record ApiKeyProperties(
        @DefaultValue List<String> apiKeys,
        String apiKeysFile,
        @DefaultValue("open") Access health,
        @DefaultValue("open") Access metrics,
        @DefaultValue("summary") HealthDetails healthDetails) {

    /** What the health endpoint shows a caller without a key. */
    public enum HealthDetails {
        /** The status only. */
        SUMMARY,
        /** Every component's details. */
        FULL
    }

    /** Who may call an endpoint while keys are on. */
    public enum Access {
        /** Anyone. */
        OPEN,
        /** Callers with a key. */
        PROTECTED
    }

    public ApiKeyProperties {
        apiKeys = apiKeys == null
                ? List.of()
                : apiKeys.stream().map(String::strip).filter(k -> !k.isEmpty()).toList();
    }
}
