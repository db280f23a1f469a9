package com.llmserve.app.openai.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.llmserve.app.models.ModelAdmin;
import com.llmserve.app.openai.InvalidRequestException;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** The body of {@code POST /admin/models}, read as the controller did before it moved here. */
class AdminModelRequestTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static AdminModelRequest parse(String body) {
        return AdminModelRequest.parse(JSON.readTree(body));
    }

    @Test
    void readsEveryField() {
        AdminModelRequest r =
                parse("{\"file\":\"qwen/q.gguf\",\"id\":\"  org/q \",\"context_size\":4096,\"kv_blocks\":64}");
        assertThat(r.file()).isEqualTo("qwen/q.gguf");
        assertThat(r.id()).isEqualTo("org/q");
        assertThat(r.options()).isEqualTo(new ModelAdmin.Options(4096, 64));
    }

    @Test
    void onlyTheFileIsRequired() {
        AdminModelRequest r = parse("{\"file\":\"q.gguf\"}");
        assertThat(r.id()).isNull();
        assertThat(r.options()).isEqualTo(new ModelAdmin.Options(0, 0));
        assertThatThrownBy(() -> parse("{\"id\":\"q\"}"))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("file");
    }

    @Test
    void refusesABlankOrControlId() {
        for (String id : new String[] {"\"  \"", "\"a\\u0007b\""}) {
            assertThatThrownBy(() -> parse("{\"file\":\"q.gguf\",\"id\":" + id + "}"))
                    .isInstanceOf(InvalidRequestException.class)
                    .hasMessage("Invalid 'id': it must not be empty or hold control characters.");
        }
    }

    @Test
    void refusesAFileWithControlCharacters() {
        // a NUL made the admin's path lookup throw InvalidPathException, a 500 (ModelAdminFuzzTests)
        for (String file : new String[] {"\"q\\u0000.gguf\"", "\"a\\nb.gguf\""}) {
            assertThatThrownBy(() -> parse("{\"file\":" + file + "}"))
                    .isInstanceOf(InvalidRequestException.class)
                    .hasMessageContaining("'file'");
        }
    }

    @Test
    void refusesNegativeSizesAndUnknownFields() {
        assertThatThrownBy(() -> parse("{\"file\":\"q.gguf\",\"kv_blocks\":-1}"))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("kv_blocks");
        assertThatThrownBy(() -> parse("{\"file\":\"q.gguf\",\"ctx\":1}"))
                .isInstanceOf(InvalidRequestException.class)
                .hasMessageContaining("ctx");
    }
}
