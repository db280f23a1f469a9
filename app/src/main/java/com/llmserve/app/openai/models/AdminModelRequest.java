package com.llmserve.app.openai.models;

import com.llmserve.app.models.ModelAdmin;
import com.llmserve.app.openai.InvalidRequestException;
import com.llmserve.app.openai.RequestFields;
import tools.jackson.databind.JsonNode;

/**
 * The body of {@code POST /admin/models}, read and checked before anything is looked up:
 * {@code file} (required; relative to the models folder, or an absolute path in it; no control
 * characters), {@code id}
 * (default: the file name without {@code .gguf}; stripped, not empty, no control characters),
 * {@code context_size} (0, the default, for the model's own) and {@code kv_blocks} (0, the
 * default, for {@code llmserve.engine.kv-blocks}). Whether the file exists and can be served is
 * the {@link ModelAdmin}'s to say.
 *
 * @param file    as the client wrote it
 * @param id      the id asked for, or {@code null} for the default
 * @param options the context size and kv blocks asked for
 */
record AdminModelRequest(String file, String id, ModelAdmin.Options options) {

    /**
     * Reads a body.
     *
     * @throws InvalidRequestException naming the field, for a missing {@code file}, a field of the
     *                                 wrong type or out of range, a bad {@code id} or an unknown field
     */
    static AdminModelRequest parse(JsonNode body) {
        RequestFields fields = RequestFields.of(body);
        String file = fields.requiredString("file");
        if (file.chars().anyMatch(Character::isISOControl)) {
            throw fields.invalid("file", "Invalid 'file': a path must not hold control characters.");
        }
        String id = fields.optString("id").map(String::strip).orElse(null);
        if (id != null && (id.isEmpty() || id.chars().anyMatch(Character::isISOControl))) {
            throw fields.invalid("id", "Invalid 'id': it must not be empty or hold control characters.");
        }
        ModelAdmin.Options options = new ModelAdmin.Options(
                fields.optInt("context_size", 0, Integer.MAX_VALUE).orElse(0),
                fields.optInt("kv_blocks", 0, Integer.MAX_VALUE).orElse(0));
        fields.rejectUnknown();
        return new AdminModelRequest(file, id, options);
    }
}
