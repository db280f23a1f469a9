package com.llmserve.app.openai.models;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.llmserve.app.openai.FuzzedBodies;

/**
 * The request parser of {@code POST /admin/models} on any JSON: a request is read, or refused with
 * {@code InvalidRequestException} (a 400 naming the field); nothing else may come out. What
 * follows the parser (the file looked up in the models folder, the model loaded) is not fuzzed.
 */
class AdminModelRequestFuzzTests {

    @FuzzTest(maxDuration = "20s")
    void anyJsonIsReadOrRefusedWithA400(FuzzedDataProvider data) {
        FuzzedBodies.readOrRefused(data, AdminModelRequest::parse);
    }
}
