package com.llmserve.app.openai.responses;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.llmserve.app.openai.ApiProperties;
import com.llmserve.app.openai.InvalidRequestException;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Responses endpoint's request parser (input items, tools, text.format, ...) on any JSON: a
 * request is read, or refused with {@link InvalidRequestException}; nothing else may come out.
 */
class ResponsesRequestFuzzTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @FuzzTest(maxDuration = "20s")
    void anyJsonIsReadOrRefusedWithA400(FuzzedDataProvider data) {
        JsonNode body;
        try {
            body = JSON.readTree(data.consumeRemainingAsString());
        } catch (JacksonException notJson) {
            return;
        }
        try {
            ResponsesRequest.parse(body, ApiProperties.defaults());
        } catch (InvalidRequestException refused) {
            // the documented answer
        }
    }
}
