package com.llmserve.app.openai.tokenize;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.llmserve.app.openai.FuzzedBodies;

/**
 * The request parsers of {@code /tokenize} and {@code /detokenize} on any JSON, each body through
 * both: a request is read (the ids against a vocabulary of 512 tokens, stories260K's), or refused
 * with {@code InvalidRequestException} (a 400 naming the field); nothing else may come out.
 */
class TokenizeRequestFuzzTests {

    private static final int VOCABULARY = 512;

    @FuzzTest(maxDuration = "20s")
    void anyJsonIsReadOrRefusedWithA400(FuzzedDataProvider data) {
        FuzzedBodies.readOrRefused(data, body -> TokenizeRequest.parse(body), body -> DetokenizeRequest.parse(body)
                .ids(VOCABULARY));
    }
}
