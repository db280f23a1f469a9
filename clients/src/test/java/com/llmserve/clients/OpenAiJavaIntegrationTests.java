package com.llmserve.clients;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.clients.RecordingProxy.Exchange;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.JsonValue;
import com.openai.models.FunctionDefinition;
import com.openai.models.FunctionParameters;
import com.openai.models.ResponseFormatJsonSchema;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionFunctionTool;
import com.openai.models.chat.completions.ChatCompletionMessage;
import com.openai.models.chat.completions.ChatCompletionMessageFunctionToolCall;
import com.openai.models.chat.completions.ChatCompletionToolChoiceOption;
import com.openai.models.chat.completions.ChatCompletionToolMessageParam;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The official openai-java SDK with tools and structured output. Plain chat, streaming,
 * completions and embeddings through it are tested in the app module
 * ({@code OpenAiSdkIntegrationTests}).
 *
 * <p>The tool and the response format are written as JSON schemas, not derived from classes
 * ({@code addTool(Class)}, {@code responseFormat(Class)}): the SDK derives them with victools
 * jsonschema-generator 4, and Spring AI 2 on the same class path brings version 5, which the SDK
 * cannot call (NoSuchMethodError).
 */
@Service.Running
class OpenAiJavaIntegrationTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Service service;
    private final OpenAIClient client;

    OpenAiJavaIntegrationTests(Service service) {
        this.service = service;
        this.client = client(service);
    }

    static OpenAIClient client(Service service) {
        return OpenAIOkHttpClient.builder()
                .baseUrl(service.baseUrl())
                .apiKey("unused")
                .maxRetries(0)
                .build();
    }

    @AfterEach
    void close() {
        client.close();
    }

    /** {@code {"type":"object", ...}} with these properties, all required, nothing else. */
    private static Map<String, JsonValue> objectSchema(Map<String, Map<String, String>> properties) {
        return Map.of(
                "type", JsonValue.from("object"),
                "properties", JsonValue.from(properties),
                "required", JsonValue.from(List.copyOf(properties.keySet())),
                "additionalProperties", JsonValue.from(false));
    }

    @Test
    void toolChoiceRequiredGivesACallWithArgumentsOfTheSchemasShapeAndTheResultIsAnswered() {
        ChatCompletionFunctionTool tool = ChatCompletionFunctionTool.builder()
                .function(FunctionDefinition.builder()
                        .name("get_temperature")
                        .description("The current temperature in a city, in degrees Celsius")
                        .parameters(FunctionParameters.builder()
                                .putAllAdditionalProperties(objectSchema(
                                        Map.of("city", Map.of("type", "string", "description", "the city's name"))))
                                .build())
                        .strict(true)
                        .build())
                .build();
        ChatCompletionCreateParams.Builder conversation = ChatCompletionCreateParams.builder()
                .model(Service.TEXT)
                .addUserMessage("What is the temperature in Paris?")
                .addTool(tool)
                .parallelToolCalls(false)
                .maxCompletionTokens(200);
        int mark = service.proxy().mark();

        ChatCompletion first = client.chat()
                .completions()
                .create(conversation
                        .toolChoice(ChatCompletionToolChoiceOption.Auto.REQUIRED)
                        .build());

        ChatCompletion.Choice choice = first.choices().getFirst();
        assertThat(choice.finishReason()).isEqualTo(ChatCompletion.Choice.FinishReason.TOOL_CALLS);
        ChatCompletionMessage message = choice.message();
        assertThat(message.toolCalls())
                .hasValueSatisfying(calls -> assertThat(calls).isNotEmpty());
        ChatCompletionMessageFunctionToolCall call =
                message.toolCalls().orElseThrow().getFirst().asFunction();
        assertThat(call.id()).isNotBlank();
        assertThat(call.function().name()).isEqualTo("get_temperature");
        JsonNode arguments = JSON.readTree(call.function().arguments());
        assertThat(arguments.propertyNames()).containsExactly("city");
        assertThat(arguments.get("city").isString()).isTrue();

        ChatCompletion second = client.chat()
                .completions()
                .create(conversation
                        .addMessage(message)
                        .addMessage(ChatCompletionToolMessageParam.builder()
                                .toolCallId(call.id())
                                .content("21")
                                .build())
                        .toolChoice(ChatCompletionToolChoiceOption.Auto.NONE)
                        .maxCompletionTokens(32)
                        .build());

        assertThat(second.choices().getFirst().message().toolCalls().orElse(List.of()))
                .isEmpty();
        assertThat(second.choices().getFirst().message().content()).isPresent();
        List<Exchange> sent = service.proxy().since(mark);
        assertThat(sent).hasSize(2).allSatisfy(e -> assertThat(e.status()).isEqualTo(200));
        JsonNode messages = sent.get(1).body().get("messages");
        assertThat(messages.get(1).get("tool_calls").get(0).get("id").asString())
                .isEqualTo(call.id());
        assertThat(messages.get(2).get("role").asString()).isEqualTo("tool");
        assertThat(messages.get(2).get("tool_call_id").asString()).isEqualTo(call.id());
    }

    @Test
    void aStrictJsonSchemaResponseFormatIsAnsweredWithJsonOfThatShape() {
        ChatCompletion completion = client.chat()
                .completions()
                .create(ChatCompletionCreateParams.builder()
                        .model(Service.TEXT)
                        .addUserMessage("Write a story as JSON.")
                        .maxCompletionTokens(200)
                        .responseFormat(ResponseFormatJsonSchema.builder()
                                .jsonSchema(ResponseFormatJsonSchema.JsonSchema.builder()
                                        .name("story")
                                        .strict(true)
                                        .schema(ResponseFormatJsonSchema.JsonSchema.Schema.builder()
                                                .putAllAdditionalProperties(objectSchema(Map.of(
                                                        "title", Map.of("type", "string"),
                                                        "hero", Map.of("type", "string"),
                                                        "chapters", Map.of("type", "integer"))))
                                                .build())
                                        .build())
                                .build())
                        .build());

        ChatCompletion.Choice choice = completion.choices().getFirst();
        // near its token limit a constrained answer closes its JSON rather than being cut off: length, yet whole
        assertThat(choice.finishReason())
                .isIn(ChatCompletion.Choice.FinishReason.STOP, ChatCompletion.Choice.FinishReason.LENGTH);
        JsonNode story = JSON.readTree(choice.message().content().orElseThrow());
        assertThat(story.propertyNames()).containsExactlyInAnyOrder("title", "hero", "chapters");
        assertThat(story.get("title").isString()).isTrue();
        assertThat(story.get("hero").isString()).isTrue();
        assertThat(story.get("chapters").isIntegralNumber()).isTrue();
    }
}
