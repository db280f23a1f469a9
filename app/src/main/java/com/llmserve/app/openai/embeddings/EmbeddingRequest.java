package com.llmserve.app.openai.embeddings;

import com.llmserve.app.openai.ApiProperties;
import com.llmserve.app.openai.InvalidRequestException;
import com.llmserve.app.openai.RequestFields;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import tools.jackson.databind.JsonNode;

/**
 * A parsed {@code POST /v1/embeddings} body. Everything that can be checked without the model is
 * checked here; token ids, lengths and {@code dimensions} are checked against the model later.
 *
 * @param inputs     one or more inputs, each text or token ids
 * @param base64     {@code encoding_format} is {@code base64} (else {@code float})
 * @param dimensions the client's {@code dimensions}, if set
 */
record EmbeddingRequest(String model, List<Input> inputs, boolean base64, OptionalInt dimensions) {

    /** One input: text or token ids, with its place in the request for error messages. */
    record Input(String text, int[] tokens, String param) {}

    static EmbeddingRequest parse(JsonNode body, ApiProperties limits) {
        RequestFields f = RequestFields.of(body);
        String model = f.requiredString("model");
        List<Input> inputs = inputs(f, limits);
        String format = f.optString("encoding_format").orElse("float");
        if (!format.equals("float") && !format.equals("base64")) {
            throw f.invalid(
                    "encoding_format",
                    "Invalid value for 'encoding_format': '" + format
                            + "'. Supported values are: 'float' and 'base64'.",
                    "invalid_value");
        }
        OptionalInt dimensions = f.optInt("dimensions", 1, Integer.MAX_VALUE);
        f.optString("user");
        f.rejectUnknown();
        return new EmbeddingRequest(model, inputs, format.equals("base64"), dimensions);
    }

    /** {@code input}: a string, an array of strings, an array of token ids, or an array of such arrays. */
    private static List<Input> inputs(RequestFields f, ApiProperties limits) {
        JsonNode node = f.raw("input");
        if (node == null) {
            throw f.missing("input");
        }
        List<Input> inputs = new ArrayList<>();
        if (node.isString()) {
            inputs.add(text(node.stringValue(), "input"));
        } else if (node.isArray()) {
            if (node.isEmpty()) {
                throw new InvalidRequestException("input", "Invalid 'input': it must not be empty.", "empty_array");
            }
            JsonNode first = node.get(0);
            if (first.isIntegralNumber()) {
                inputs.add(new Input(null, tokens(node, "input"), "input"));
            } else {
                for (int i = 0; i < node.size(); i++) {
                    JsonNode e = node.get(i);
                    String param = "input[" + i + "]";
                    if (e.isString() && first.isString()) {
                        inputs.add(text(e.stringValue(), param));
                    } else if (e.isArray() && first.isArray()) {
                        if (e.isEmpty()) {
                            throw new InvalidRequestException(
                                    param, "Invalid '" + param + "': it must not be empty.", "empty_array");
                        }
                        inputs.add(new Input(null, tokens(e, param), param));
                    } else {
                        throw RequestFields.typeError(
                                param,
                                first.isString()
                                        ? "a string (like the first input)"
                                        : "an array of token ids (like the first input)",
                                e);
                    }
                }
            }
        } else {
            throw RequestFields.typeError(
                    "input", "a string, an array of strings, an array of token ids or an array of such arrays", node);
        }
        if (inputs.size() > limits.maxEmbeddingInputs()) {
            throw new InvalidRequestException(
                    "input",
                    "Invalid 'input': at most " + limits.maxEmbeddingInputs()
                            + " inputs are allowed per request, but got " + inputs.size() + ".",
                    "array_above_max_length");
        }
        return List.copyOf(inputs);
    }

    private static Input text(String text, String param) {
        if (text.isEmpty()) {
            throw new InvalidRequestException(
                    param, "Invalid '" + param + "': the input must not be an empty string.", "empty_string");
        }
        return new Input(text, null, param);
    }

    private static int[] tokens(JsonNode array, String param) {
        int[] ids = new int[array.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = RequestFields.intValue(array.get(i), param + "[" + i + "]", 0, Integer.MAX_VALUE);
        }
        return ids;
    }
}
