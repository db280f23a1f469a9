package com.llmserve.app.openai;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Request bodies for the request parsers' fuzz targets. */
public final class FuzzedBodies {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private FuzzedBodies() {}

    /** The rest of the input as a JSON body, or null when it is not JSON (answered 400 before any parser). */
    public static JsonNode json(FuzzedDataProvider data) {
        try {
            return JSON.readTree(data.consumeRemainingAsString());
        } catch (JacksonException notJson) {
            return null;
        }
    }
}
