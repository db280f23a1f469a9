package com.llmserve.app.openai;

import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * The shape the answer must take: free text, any JSON object ({@code json_object}), JSON valid
 * against a schema ({@code json_schema}), or a GBNF grammar (the {@code grammar} extension that
 * llama.cpp's server accepts). Chat and completions ask for it in {@code response_format}, the
 * Responses API in {@code text.format}.
 */
public sealed interface OutputFormat {

    record Text() implements OutputFormat {}

    record JsonObject() implements OutputFormat {}

    /**
     * @param description the client's description of the format, or null
     * @param schema      the JSON Schema as plain maps and lists
     * @param strict      OpenAI's flag; the schema is enforced either way, so it only documents intent
     * @param param       where the schema is in the request ({@code response_format.json_schema.schema}), for errors
     */
    record JsonSchema(String name, String description, Map<String, Object> schema, boolean strict, String param)
            implements OutputFormat {}

    record Gbnf(String grammar) implements OutputFormat {}

    OutputFormat TEXT = new Text();

    /** {@code response_format} and {@code grammar} of a chat or completions request. */
    static OutputFormat parse(RequestFields f) {
        JsonNode node = f.raw("response_format");
        String grammar = f.optString("grammar").orElse(null);
        OutputFormat format = node == null ? TEXT : format(RequestFields.nested(node, "response_format"), false);
        if (grammar != null) {
            if (!(format instanceof Text)) {
                throw f.invalid("grammar", "Send either 'grammar' or a JSON 'response_format', not both.");
            }
            return new Gbnf(grammar);
        }
        return format;
    }

    /**
     * {@code text} of a Responses request: its {@code format}, whose {@code json_schema} has the
     * schema's fields beside its {@code type}, and {@code verbosity} (only OpenAI's default,
     * {@code medium}, as on chat).
     */
    static OutputFormat parseText(RequestFields f) {
        JsonNode node = f.raw("text");
        if (node == null) {
            return TEXT;
        }
        RequestFields text = RequestFields.nested(node, f.path("text"));
        JsonNode format = text.raw("format");
        GenerationFields.verbosity(text);
        text.rejectUnknown();
        return format == null ? TEXT : format(RequestFields.nested(format, text.path("format")), true);
    }

    /** @param flat whether a {@code json_schema}'s fields are beside its type (Responses) or under {@code json_schema} */
    private static OutputFormat format(RequestFields rf, boolean flat) {
        String type = rf.requiredString("type");
        OutputFormat format =
                switch (type) {
                    case "text" -> TEXT;
                    case "json_object" -> new JsonObject();
                    case "json_schema" -> flat ? jsonSchema(rf) : nestedJsonSchema(rf);
                    default ->
                        throw rf.invalid(
                                "type",
                                "Invalid value for '" + rf.path("type") + "': '" + type
                                        + "'. Supported values are: 'text', 'json_object' and 'json_schema'.",
                                "invalid_value");
                };
        rf.rejectUnknown();
        return format;
    }

    private static OutputFormat nestedJsonSchema(RequestFields rf) {
        JsonNode js = rf.raw("json_schema");
        if (js == null) {
            throw rf.missing("json_schema");
        }
        RequestFields s = RequestFields.nested(js, rf.path("json_schema"));
        OutputFormat format = jsonSchema(s);
        s.rejectUnknown();
        return format;
    }

    /** The fields of a JSON Schema format: {@code name}, {@code description}, {@code strict}, {@code schema}. */
    private static OutputFormat jsonSchema(RequestFields s) {
        String name = s.requiredString("name");
        String description = s.optString("description").orElse(null);
        boolean strict = s.optBoolean("strict").orElse(false);
        JsonNode schema = s.raw("schema");
        if (schema != null && !schema.isObject() && !schema.isBoolean()) {
            throw RequestFields.typeError(s.path("schema"), "an object", schema);
        }
        if (schema != null && schema.isBoolean() && !schema.booleanValue()) {
            throw s.invalid("schema", "The schema 'false' allows no answer.");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> plain =
                schema == null || schema.isBoolean() ? Map.of() : (Map<String, Object>) JsonValues.plain(schema);
        return new JsonSchema(name, description, plain, strict, s.path("schema"));
    }
}
