package com.llmserve.app.openai.chat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.llmserve.app.openai.ApiProperties;
import com.llmserve.app.openai.FuzzedBodies;

/**
 * The chat endpoint's request parser on any JSON: a request is read, or refused with
 * {@code InvalidRequestException} (a 400 naming the field); nothing else may come out.
 */
class ChatRequestFuzzTests {

    @FuzzTest(maxDuration = "20s")
    void anyJsonIsReadOrRefusedWithA400(FuzzedDataProvider data) {
        FuzzedBodies.readOrRefused(data, body -> ChatRequest.parse(body, ApiProperties.defaults()));
    }
}
