package com.llmserve.app.system;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class NormalizedPathFilterTests {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/v1/models/../../actuator/health",
                "/v1/completions;/../../actuator/health",
                "/actuator/health/..",
                "/./v1/models",
                "/v1//models",
                "/v1/models;jsessionid=1",
                "/v1/models/%2e%2e/x",
                "/v1/models/%2E%2E/x",
                "/v1/models/a%2fb",
                "/v1/models/a%5cb",
                "/v1/models/%252e",
                "/v1\\models"
            })
    void aPathNotInNormalFormIsRefused(String path) {
        assertThat(NormalizedPathFilter.problem(path)).isNotNull();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/",
                "/v1/models",
                "/v1/models/",
                "/v1/models/stories260K",
                "/v1/models/my.model..q4",
                "/v1/models/a%20b",
                "/actuator/health/readiness"
            })
    void aPathInNormalFormPasses(String path) {
        assertThat(NormalizedPathFilter.problem(path)).isNull();
    }
}
