package com.llmserve.app.openai;

import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * The shape the answer must take: free text, any JSON object ({@code response_format} of type
 * {@code json_object}), JSON valid against a schema ({@code json_schema}), or a GBNF grammar (the
 * {@code grammar} extension that llama.cpp's server accepts).
 */
public sealed interface OutputFormat {

    record Text() implements OutputFormat {}

    record JsonObject() implements OutputFormat {}

    /**
     * @param schema the JSON Schema as plain maps and lists
     * @param strict OpenAI's flag; the schema is enforced either way, so it only documents intent
     */
    record JsonSchema(String name, Map<String, Object> schema, boolean strict) implements OutputFormat {}

    record Gbnf(String grammar) implements OutputFormat {}

    OutputFormat TEXT = new Text();

    /** {@code response_format} and {@code grammar} of a chat or completions request. */
    static OutputFormat parse(RequestFields f) {
        JsonNode node = f.raw("response_format");
        String grammar = f.optString("grammar").orElse(null);
        OutputFormat format = node == null ? TEXT : responseFormat(RequestFields.nested(node, "response_format"));
        if (grammar != null) {
            if (!(format instanceof Text)) {
                throw f.invalid("grammar", "Send either 'grammar' or a JSON 'response_format', not both.");
            }
            return new Gbnf(grammar);
        }
        return format;
    }

    private static OutputFormat responseFormat(RequestFields rf) {
        String type = rf.requiredString("type");
        OutputFormat format =
                switch (type) {
                    case "text" -> TEXT;
                    case "json_object" -> new JsonObject();
                    case "json_schema" -> {
                        JsonNode js = rf.raw("json_schema");
                        if (js == null) {
                            throw rf.missing("json_schema");
                        }
                        RequestFields s = RequestFields.nested(js, "response_format.json_schema");
                        String name = s.requiredString("name");
                        s.optString("description");
                        boolean strict = s.optBoolean("strict").orElse(false);
                        JsonNode schema = s.raw("schema");
                        if (schema != null && !schema.isObject() && !schema.isBoolean()) {
                            throw RequestFields.typeError(s.path("schema"), "an object", schema);
                        }
                        s.rejectUnknown();
                        @SuppressWarnings("unchecked")
                        Map<String, Object> plain = schema == null || schema.isBoolean()
                                ? Map.of()
                                : (Map<String, Object>) JsonValues.plain(schema);
                        if (schema != null && schema.isBoolean() && !schema.booleanValue()) {
                            throw s.invalid("schema", "The schema 'false' allows no answer.");
                        }
                        yield new JsonSchema(name, plain, strict);
                    }
                    default ->
                        throw rf.invalid(
                                "type",
                                "Invalid value for 'response_format.type': '" + type
                                        + "'. Supported values are: 'text', 'json_object' and 'json_schema'.",
                                "invalid_value");
                };
        rf.rejectUnknown();
        return format;
    }
}
