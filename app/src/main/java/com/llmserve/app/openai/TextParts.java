package com.llmserve.app.openai;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Text sent as content parts ({@code [{"type": "text", "text": "..."}]}), joined by newlines as
 * vLLM joins them. Each endpoint says which part types it takes and which field holds their text;
 * any other type is a 400 naming the part ({@code unsupported_content_type}).
 */
public final class TextParts {

    private TextParts() {}

    /**
     * @param owner     the object that holds the parts, for the paths in errors
     * @param name      the field of {@code owner} that holds them
     * @param parts     its value, which must be an array
     * @param textField for each part type taken, the field that holds its text
     * @param ignored   other fields of a part that are accepted and not used (an output text's annotations)
     */
    public static String join(
            RequestFields owner, String name, JsonNode parts, Map<String, String> textField, String... ignored) {
        if (!parts.isArray()) {
            throw RequestFields.typeError(owner.path(name), "a string or an array of content parts", parts);
        }
        List<String> texts = new ArrayList<>(parts.size());
        for (int j = 0; j < parts.size(); j++) {
            RequestFields part = RequestFields.nested(parts.get(j), owner.path(name) + "[" + j + "]");
            String type = part.requiredString("type");
            String field = textField.get(type);
            if (field == null) {
                throw part.invalid(
                        "type",
                        "Content parts of type '" + type + "' are not supported here; supported types are: '"
                                + String.join(
                                        "', '",
                                        textField.keySet().stream().sorted().toList()) + "'.",
                        "unsupported_content_type");
            }
            texts.add(part.requiredString(field));
            part.ignore(ignored);
            part.rejectUnknown();
        }
        return String.join("\n", texts);
    }
}
