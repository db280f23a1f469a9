package com.llmserve.app.openai.completions;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.llmserve.app.openai.ApiProperties;
import com.llmserve.app.openai.FuzzedBodies;
import com.llmserve.app.openai.InvalidRequestException;
import tools.jackson.databind.JsonNode;

/**
 * The completions endpoint's request parser on any JSON: a request is read, or refused with
 * {@link InvalidRequestException} (a 400 naming the field); nothing else may come out.
 */
class CompletionRequestFuzzTests {

    @FuzzTest(maxDuration = "20s")
    void anyJsonIsReadOrRefusedWithA400(FuzzedDataProvider data) {
        JsonNode body = FuzzedBodies.json(data);
        if (body == null) {
            return;
        }
        try {
            CompletionRequest.parse(body, ApiProperties.defaults());
        } catch (InvalidRequestException refused) {
            // the documented answer
        }
    }
}
