package com.llmserve.app.system;

import com.llmserve.app.models.ModelRegistry;
import com.llmserve.app.openai.ApiProperties;
import org.apache.catalina.core.StandardHost;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import tools.jackson.databind.json.JsonMapper;

/**
 * Cross-cutting HTTP concerns: paths in normal form, draining at shutdown, the request size limit, bodies in UTF-8, the policy for unknown request fields, and
 * errors that Tomcat answers itself.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(ShutdownProperties.class)
class SystemConfiguration {

    /** Tomcat reports its own errors (a malformed URI) with {@link JsonErrorReportValve} rather than an HTML page. */
    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> jsonErrorReports() {
        return factory -> factory.addContextCustomizers(context -> {
            if (context.getParent() instanceof StandardHost host) {
                host.setErrorReportValveClass(JsonErrorReportValve.class.getName());
            }
        });
    }

    /** First of all filters, so that every later one and the routing see the same path. */
    @Bean
    FilterRegistrationBean<NormalizedPathFilter> normalizedPathFilter(JsonMapper json) {
        FilterRegistrationBean<NormalizedPathFilter> registration =
                new FilterRegistrationBean<>(new NormalizedPathFilter(json));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return registration;
    }

    @Bean
    ShutdownDrain shutdownDrain(ModelRegistry registry, ShutdownProperties properties) {
        return new ShutdownDrain(registry, properties);
    }

    /** After the path check: a request that is refused while draining need not pass the others. */
    @Bean
    FilterRegistrationBean<DrainFilter> drainFilter(
            ShutdownDrain drain, @Value("${management.endpoints.web.base-path:/actuator}") String actuatorBase) {
        FilterRegistrationBean<DrainFilter> registration =
                new FilterRegistrationBean<>(new DrainFilter(drain, actuatorBase));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 1);
        return registration;
    }

    @Bean
    FilterRegistrationBean<RequestSizeFilter> requestSizeFilter(ApiProperties api) {
        FilterRegistrationBean<RequestSizeFilter> registration = new FilterRegistrationBean<>(
                new RequestSizeFilter(api.maxRequestSize().toBytes()));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
        return registration;
    }

    @Bean
    FilterRegistrationBean<Utf8BodyFilter> utf8BodyFilter() {
        FilterRegistrationBean<Utf8BodyFilter> registration = new FilterRegistrationBean<>(new Utf8BodyFilter());
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 15);
        return registration;
    }

    @Bean
    FilterRegistrationBean<UnknownFieldsFilter> unknownFieldsFilter(ApiProperties api) {
        FilterRegistrationBean<UnknownFieldsFilter> registration =
                new FilterRegistrationBean<>(new UnknownFieldsFilter(api.unknownFields()));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 20);
        return registration;
    }
}
