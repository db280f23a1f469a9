package com.llmserve.app.openai.responses;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.llmserve.app.openai.ApiProperties;
import com.llmserve.app.openai.FuzzedBodies;
import com.llmserve.app.openai.InvalidRequestException;
import tools.jackson.databind.JsonNode;

/**
 * The Responses endpoint's request parser (input items, tools, text.format, ...) on any JSON: a
 * request is read, or refused with {@link InvalidRequestException}; nothing else may come out.
 */
class ResponsesRequestFuzzTests {

    @FuzzTest(maxDuration = "20s")
    void anyJsonIsReadOrRefusedWithA400(FuzzedDataProvider data) {
        JsonNode body = FuzzedBodies.json(data);
        if (body == null) {
            return;
        }
        try {
            ResponsesRequest.parse(body, ApiProperties.defaults());
        } catch (InvalidRequestException refused) {
            // the documented answer
        }
    }
}
