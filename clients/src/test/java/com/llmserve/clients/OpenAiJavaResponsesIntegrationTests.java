package com.llmserve.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.llmserve.clients.RecordingProxy.Exchange;
import com.openai.client.OpenAIClient;
import com.openai.core.JsonValue;
import com.openai.core.http.StreamResponse;
import com.openai.errors.BadRequestException;
import com.openai.helpers.ResponseAccumulator;
import com.openai.models.responses.EasyInputMessage;
import com.openai.models.responses.FunctionTool;
import com.openai.models.responses.Response;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseFormatTextJsonSchemaConfig;
import com.openai.models.responses.ResponseFunctionToolCall;
import com.openai.models.responses.ResponseInputItem;
import com.openai.models.responses.ResponseOutputItem;
import com.openai.models.responses.ResponseStatus;
import com.openai.models.responses.ResponseStreamEvent;
import com.openai.models.responses.ResponseTextConfig;
import com.openai.models.responses.ToolChoiceOptions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The official openai-java SDK's Responses API ({@code client.responses()}), which its README now
 * leads with: text, the stream of events through the SDK's own accumulator, a function call round
 * trip, and a JSON schema. Every response and event passes the SDK's {@code validate()}, which
 * checks OpenAI's required fields and types.
 */
@Service.Running
class OpenAiJavaResponsesIntegrationTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Service service;
    private final OpenAIClient client;

    OpenAiJavaResponsesIntegrationTests(Service service) {
        this.service = service;
        this.client = OpenAiJavaIntegrationTests.client(service);
    }

    @AfterEach
    void close() {
        client.close();
    }

    private static String text(Response response) {
        StringBuilder text = new StringBuilder();
        for (ResponseOutputItem item : response.output()) {
            item.message()
                    .ifPresent(m -> m.content().forEach(c -> c.outputText().ifPresent(t -> text.append(t.text()))));
        }
        return text.toString();
    }

    @Test
    void aTextInputIsAnsweredWithAMessage() {
        Response response = client.responses()
                .create(ResponseCreateParams.builder()
                        .model(Service.TEXT)
                        .instructions("Tell stories.")
                        .input("Once upon a time")
                        .maxOutputTokens(16)
                        .build())
                .validate();

        assertThat(response.id()).startsWith("resp_");
        assertThat(response.status())
                .hasValueSatisfying(s -> assertThat(s).isIn(ResponseStatus.COMPLETED, ResponseStatus.INCOMPLETE));
        assertThat(response.output()).hasSize(1);
        assertThat(text(response)).isNotBlank();
        assertThat(response.usage())
                .hasValueSatisfying(u -> assertThat(u.outputTokens()).isBetween(1L, 16L));
    }

    @Test
    void theStreamAccumulatesToTheResponseItEndsWith() {
        ResponseAccumulator accumulator = ResponseAccumulator.createWithSnapshots();
        StringBuilder deltas = new StringBuilder();
        try (StreamResponse<ResponseStreamEvent> stream = client.responses()
                .createStreaming(ResponseCreateParams.builder()
                        .model(Service.TEXT)
                        .input("Once upon a time")
                        .maxOutputTokens(24)
                        .build())) {
            stream.stream().forEach(event -> {
                event.validate();
                accumulator.accumulate(event);
                event.outputTextDelta().ifPresent(d -> deltas.append(d.delta()));
            });
        }

        Response response = accumulator.response().validate();
        assertThat(text(response)).isEqualTo(deltas.toString()).isNotBlank();
        // the SDK can rebuild the response from the deltas alone: the events say what the response says
        assertThat(text(accumulator.reconstructedResponse())).isEqualTo(text(response));
    }

    @Test
    void toolChoiceRequiredGivesAFunctionCallWhoseOutputIsThenAnswered() {
        FunctionTool tool = FunctionTool.builder()
                .name("get_temperature")
                .description("The current temperature in a city, in degrees Celsius")
                .parameters(FunctionTool.Parameters.builder()
                        .putAllAdditionalProperties(Map.of(
                                "type", JsonValue.from("object"),
                                "properties", JsonValue.from(Map.of("city", Map.of("type", "string"))),
                                "required", JsonValue.from(List.of("city")),
                                "additionalProperties", JsonValue.from(false)))
                        .build())
                .strict(true)
                .build();
        ResponseInputItem question = ResponseInputItem.ofEasyInputMessage(EasyInputMessage.builder()
                .role(EasyInputMessage.Role.USER)
                .content("What is the temperature in Paris?")
                .build());
        int mark = service.proxy().mark();

        Response first = client.responses()
                .create(ResponseCreateParams.builder()
                        .model(Service.TEXT)
                        .inputOfResponse(List.of(question))
                        .addTool(tool)
                        .toolChoice(ToolChoiceOptions.REQUIRED)
                        .parallelToolCalls(false)
                        .maxOutputTokens(200)
                        .build())
                .validate();

        List<ResponseFunctionToolCall> calls =
                first.output().stream().flatMap(i -> i.functionCall().stream()).toList();
        assertThat(calls).hasSize(1);
        ResponseFunctionToolCall call = calls.getFirst();
        assertThat(call.name()).isEqualTo("get_temperature");
        assertThat(call.callId()).startsWith("call_");
        JsonNode arguments = JSON.readTree(call.arguments());
        assertThat(arguments.propertyNames()).containsExactly("city");
        assertThat(arguments.get("city").isString()).isTrue();

        Response second = client.responses()
                .create(ResponseCreateParams.builder()
                        .model(Service.TEXT)
                        .inputOfResponse(List.of(
                                question,
                                ResponseInputItem.ofFunctionCall(call),
                                ResponseInputItem.ofFunctionCallOutput(ResponseInputItem.FunctionCallOutput.builder()
                                        .callId(call.callId())
                                        .output("21")
                                        .build())))
                        .addTool(tool)
                        .toolChoice(ToolChoiceOptions.NONE)
                        .maxOutputTokens(32)
                        .build())
                .validate();

        assertThat(second.output()).noneMatch(ResponseOutputItem::isFunctionCall);
        assertThat(second.output()).anyMatch(ResponseOutputItem::isMessage);
        List<Exchange> sent = service.proxy().since(mark);
        assertThat(sent).hasSize(2).allSatisfy(e -> assertThat(e.status()).isEqualTo(200));
        JsonNode input = sent.get(1).body().get("input");
        assertThat(input.get(1).get("type").asString()).isEqualTo("function_call");
        assertThat(input.get(2).get("type").asString()).isEqualTo("function_call_output");
        assertThat(input.get(2).get("call_id").asString()).isEqualTo(call.callId());
    }

    @Test
    void aStrictJsonSchemaTextFormatIsAnsweredWithJsonOfThatShape() {
        Response response = client.responses()
                .create(ResponseCreateParams.builder()
                        .model(Service.TEXT)
                        .input("Write a story as JSON.")
                        .maxOutputTokens(200)
                        .text(ResponseTextConfig.builder()
                                .format(ResponseFormatTextJsonSchemaConfig.builder()
                                        .name("story")
                                        .strict(true)
                                        .schema(ResponseFormatTextJsonSchemaConfig.Schema.builder()
                                                .putAllAdditionalProperties(Map.of(
                                                        "type", JsonValue.from("object"),
                                                        "properties",
                                                                JsonValue.from(Map.of(
                                                                        "title", Map.of("type", "string"),
                                                                        "chapters", Map.of("type", "integer"))),
                                                        "required", JsonValue.from(List.of("title", "chapters")),
                                                        "additionalProperties", JsonValue.from(false)))
                                                .build())
                                        .build())
                                .build())
                        .build())
                .validate();

        JsonNode story = JSON.readTree(text(response));
        assertThat(story.propertyNames()).containsExactlyInAnyOrder("title", "chapters");
        assertThat(story.get("title").isString()).isTrue();
        assertThat(story.get("chapters").isIntegralNumber()).isTrue();
    }

    @Test
    void storingAResponseIsRefusedSayingWhy() {
        assertThatThrownBy(() -> client.responses()
                        .create(ResponseCreateParams.builder()
                                .model(Service.TEXT)
                                .input("Hi")
                                .store(true)
                                .build()))
                .isInstanceOf(BadRequestException.class)
                .hasMessageContaining("does not store responses");
    }
}
