package com.llmserve.app.openai.responses;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.llmserve.app.openai.ApiProperties;
import com.llmserve.app.openai.FuzzedBodies;

/**
 * The Responses endpoint's request parser (input items, tools, text.format, ...) on any JSON: a
 * request is read, or refused with {@code InvalidRequestException}; nothing else may come out.
 */
class ResponsesRequestFuzzTests {

    @FuzzTest(maxDuration = "20s")
    void anyJsonIsReadOrRefusedWithA400(FuzzedDataProvider data) {
        FuzzedBodies.readOrRefused(data, body -> ResponsesRequest.parse(body, ApiProperties.defaults()));
    }
}
