package com.llmserve.app.openai.chat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.llmserve.app.openai.ApiProperties;
import com.llmserve.app.openai.InvalidRequestException;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The chat endpoint's request parser on any JSON: a request is read, or refused with
 * {@link InvalidRequestException} (a 400 naming the field); nothing else may come out.
 */
class ChatRequestFuzzTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @FuzzTest(maxDuration = "20s")
    void anyJsonIsReadOrRefusedWithA400(FuzzedDataProvider data) {
        JsonNode body;
        try {
            body = JSON.readTree(data.consumeRemainingAsString());
        } catch (JacksonException notJson) {
            return; // answered 400 invalid_json before the parser
        }
        try {
            ChatRequest.parse(body, ApiProperties.defaults());
        } catch (InvalidRequestException refused) {
            // the documented answer
        }
    }
}
