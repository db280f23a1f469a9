package com.llmserve.engine.grammar;

import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/** JSON text to the plain Java values the compiler takes, and strict parsing of generated output. */
final class Schemas {

    private static final JsonMapper STRICT = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .build();

    private Schemas() {}

    /** A schema (or any JSON value) as maps in key order, lists, strings, numbers, booleans, null. */
    static Object json(String text) {
        return STRICT.readValue(text, Object.class);
    }
}
