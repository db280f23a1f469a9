package com.llmserve.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The contract check itself: it must refuse what openapi.yaml does not allow, or the other tests prove nothing. */
class OpenApiContractTests {

    private final OpenApiContract contract = OpenApiContract.load();

    @Test
    void theDocumentParsesWithoutMessages() {
        assertThat(contract.parseMessages()).isEmpty();
    }

    @Test
    void aResponseEventOfAnUnknownTypeIsRefused() {
        assertThatThrownBy(() -> contract.assertSchema("ResponseStreamEvent", """
                {"type":"response.output_text.delta","sequence_number":3,"item_id":"msg_1","output_index":0,
                 "content_index":0,"delta":"a","logprobs":[],"extra":true}"""))
                .isInstanceOf(AssertionError.class);
    }

    @Test
    void aChunkWithAnUnknownFinishReasonIsRefused() {
        assertThatThrownBy(() -> contract.assertSchema("CreateCompletionStreamChunk", """
                {"id":"x","object":"text_completion","created":1,"model":"m",
                 "choices":[{"index":0,"text":"a","logprobs":null,"finish_reason":"tired"}]}"""))
                .isInstanceOf(AssertionError.class);
    }

    @Test
    void anErrorWithoutParamIsRefused() {
        assertThatThrownBy(() -> contract.assertSchema("ErrorResponse", """
                {"error":{"message":"m","type":"invalid_request_error","code":null}}""")).isInstanceOf(AssertionError.class);
    }

    @Test
    void aResponseWithAnUndocumentedFieldIsRefused() {
        assertThatThrownBy(() -> contract.assertResponse(
                        "GET",
                        "/v1/models",
                        200,
                        "application/json",
                        "{\"object\":\"list\",\"data\":[],\"extra\":1}",
                        Map.of()))
                .isInstanceOf(AssertionError.class);
    }

    @Test
    void anUndocumentedStatusIsRefused() {
        assertThatThrownBy(() -> contract.assertResponse(
                        "POST",
                        "/v1/embeddings",
                        418,
                        "application/json",
                        "{\"error\":{\"message\":\"m\",\"type\":\"invalid_request_error\",\"param\":null,\"code\":null}}",
                        Map.of("X", List.of("y"))))
                .isInstanceOf(AssertionError.class);
    }
}
