package com.llmserve.app.openai.tokenize;

import com.llmserve.app.openai.RequestFields;
import tools.jackson.databind.JsonNode;

/**
 * A parsed {@code POST /detokenize} body (vLLM's). The ids are read against the model's
 * vocabulary ({@link #ids}), so an id outside it is a 400 naming its place.
 *
 * @param tokens the {@code tokens} array as sent
 */
record DetokenizeRequest(String model, JsonNode tokens) {

    static DetokenizeRequest parse(JsonNode body) {
        RequestFields f = RequestFields.of(body);
        String model = f.requiredString("model");
        JsonNode node = f.raw("tokens");
        if (node == null) {
            throw f.missing("tokens");
        }
        if (!node.isArray()) {
            throw RequestFields.typeError("tokens", "an array of token ids", node);
        }
        f.rejectUnknown();
        return new DetokenizeRequest(model, node);
    }

    /** The token ids, each in {@code [0, vocabSize)}. */
    int[] ids(int vocabSize) {
        int[] ids = new int[tokens.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = RequestFields.intValue(tokens.get(i), "tokens[" + i + "]", 0, vocabSize - 1);
        }
        return ids;
    }
}
