package com.llmserve.app.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** {@code llmserve.api.*} as Spring binds it. */
class ApiPropertiesTests {

    private static ApiProperties bind(Map<String, String> values) {
        return new Binder(new MapConfigurationPropertySource(values)).bindOrCreate("llmserve.api", ApiProperties.class);
    }

    @Test
    void anEmptyConfigurationIsTheDefaults() {
        assertThat(bind(Map.of())).isEqualTo(ApiProperties.defaults());
        assertThat(ApiProperties.defaults().unknownFields()).isEqualTo(UnknownFieldPolicy.WARN);
    }

    @Test
    void theUnknownFieldPolicyBindsFromItsLowerCaseName() {
        assertThat(bind(Map.of("llmserve.api.unknown-fields", "reject")).unknownFields())
                .isEqualTo(UnknownFieldPolicy.REJECT);
        assertThat(bind(Map.of("llmserve.api.unknown-fields", "ignore")).unknownFields())
                .isEqualTo(UnknownFieldPolicy.IGNORE);
        assertThatThrownBy(() -> bind(Map.of("llmserve.api.unknown-fields", "allow")))
                .isInstanceOf(BindException.class);
    }
}
