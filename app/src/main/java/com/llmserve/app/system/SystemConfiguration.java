package com.llmserve.app.system;

import com.llmserve.app.openai.ApiProperties;

import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/** Cross-cutting HTTP concerns: the request size limit. */
@Configuration(proxyBeanMethods = false)
class SystemConfiguration {

    @Bean
    FilterRegistrationBean<RequestSizeFilter> requestSizeFilter(ApiProperties api) {
        FilterRegistrationBean<RequestSizeFilter> registration = new FilterRegistrationBean<>(
                new RequestSizeFilter(api.maxRequestSize().toBytes()));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
        return registration;
    }
}
