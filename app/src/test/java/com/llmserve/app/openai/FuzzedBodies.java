package com.llmserve.app.openai;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Request bodies for the request parsers' fuzz targets. */
public final class FuzzedBodies {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private FuzzedBodies() {}

    /** A request parser under test; it reads a body or throws. */
    @FunctionalInterface
    public interface Parser {
        void parse(JsonNode body);
    }

    /**
     * Runs each parser on the rest of the input as a JSON body (input that is not JSON is answered
     * 400 before any parser): it reads the body or refuses it with {@link InvalidRequestException},
     * a 400 naming the field; anything else escapes and is a finding.
     */
    public static void readOrRefused(FuzzedDataProvider data, Parser... parsers) {
        JsonNode body = json(data);
        if (body == null) {
            return;
        }
        for (Parser parser : parsers) {
            try {
                parser.parse(body);
            } catch (InvalidRequestException refused) {
                // the documented answer
            }
        }
    }

    /** The rest of the input as a JSON body, or null when it is not JSON (answered 400 before any parser). */
    public static JsonNode json(FuzzedDataProvider data) {
        try {
            return JSON.readTree(data.consumeRemainingAsString());
        } catch (JacksonException notJson) {
            return null;
        }
    }
}
