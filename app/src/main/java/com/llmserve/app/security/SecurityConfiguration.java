package com.llmserve.app.security;

import java.nio.file.Path;
import java.time.Clock;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import tools.jackson.databind.json.JsonMapper;

/**
 * API keys in front of everything. A servlet filter rather than Spring Security: the one rule
 * (a bearer key, some endpoints open) does not need its filter chain, session and CSRF defaults
 * to be switched off again, and the 401 must be OpenAI's envelope. Actuator endpoints moved to a
 * separate management port are not behind it.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ApiKeyProperties.class)
class SecurityConfiguration {

    @Bean
    FilterRegistrationBean<ApiKeyFilter> apiKeyFilter(
            ApiKeyProperties properties,
            JsonMapper json,
            @Value("${management.endpoints.web.base-path:/actuator}") String actuatorBase) {
        ApiKeys keys = new ApiKeys(
                properties.apiKeys(),
                properties.apiKeysFile() == null ? null : Path.of(properties.apiKeysFile()),
                Clock.systemUTC());
        FilterRegistrationBean<ApiKeyFilter> registration =
                new FilterRegistrationBean<>(new ApiKeyFilter(keys, properties, actuatorBase, json));
        // before the request size filter: a caller without a key learns nothing else
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 5);
        return registration;
    }
}
