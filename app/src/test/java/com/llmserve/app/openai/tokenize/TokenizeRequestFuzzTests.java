package com.llmserve.app.openai.tokenize;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.llmserve.app.openai.FuzzedBodies;
import com.llmserve.app.openai.InvalidRequestException;
import tools.jackson.databind.JsonNode;

/**
 * The request parsers of {@code /tokenize} and {@code /detokenize} on any JSON, each body through
 * both: a request is read (the ids against a vocabulary of 512 tokens, stories260K's), or refused
 * with {@link InvalidRequestException} (a 400 naming the field); nothing else may come out.
 */
class TokenizeRequestFuzzTests {

    private static final int VOCABULARY = 512;

    @FuzzTest(maxDuration = "20s")
    void anyJsonIsReadOrRefusedWithA400(FuzzedDataProvider data) {
        JsonNode body = FuzzedBodies.json(data);
        if (body == null) {
            return;
        }
        try {
            TokenizeRequest.parse(body);
        } catch (InvalidRequestException refused) {
            // the documented answer
        }
        try {
            DetokenizeRequest.parse(body).ids(VOCABULARY);
        } catch (InvalidRequestException refused) {
            // the documented answer
        }
    }
}
