package com.llmserve.clients;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.clients.RecordingProxy.Exchange;
import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ChatRequestParameters;
import dev.langchain4j.model.chat.request.ResponseFormat;
import dev.langchain4j.model.chat.request.ResponseFormatType;
import dev.langchain4j.model.chat.request.ToolChoice;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonSchema;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.model.openai.OpenAiChatRequestParameters;
import dev.langchain4j.model.openai.OpenAiEmbeddingModel;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;
import dev.langchain4j.model.output.FinishReason;
import dev.langchain4j.model.output.Response;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.Result;
import dev.langchain4j.service.tool.ToolExecution;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** LangChain4j against the service: its OpenAI chat, streaming chat and embedding models, and an AI service. */
@Service.Running
class LangChain4jIntegrationTests {

    private final Service service;

    LangChain4jIntegrationTests(Service service) {
        this.service = service;
    }

    static OpenAiChatModel.OpenAiChatModelBuilder chatModel(Service service) {
        return OpenAiChatModel.builder()
                .baseUrl(service.baseUrl())
                .apiKey("unused")
                .modelName(Service.TEXT)
                .maxRetries(0);
    }

    static OpenAiStreamingChatModel.OpenAiStreamingChatModelBuilder streamingChatModel(Service service) {
        return OpenAiStreamingChatModel.builder()
                .baseUrl(service.baseUrl())
                .apiKey("unused")
                .modelName(Service.TEXT);
    }

    static OpenAiEmbeddingModel.OpenAiEmbeddingModelBuilder embeddingModel(Service service) {
        return OpenAiEmbeddingModel.builder()
                .baseUrl(service.baseUrl())
                .apiKey("unused")
                .modelName(Service.EMBEDDING)
                .maxRetries(0);
    }

    @Test
    void chatAnswersAsTheAssistant() {
        OpenAiChatModel model =
                chatModel(service).maxTokens(24).temperature(0.0).build();

        ChatResponse response = model.chat(UserMessage.from("Tell me a story about a cat."));

        assertThat(response.aiMessage().text()).isNotBlank();
        assertThat(response.finishReason()).isIn(FinishReason.LENGTH, FinishReason.STOP);
        assertThat(response.metadata().modelName()).isEqualTo(Service.TEXT);
        assertThat(response.metadata().tokenUsage().outputTokenCount()).isBetween(1, 24);
        assertThat(response.metadata().tokenUsage().inputTokenCount()).isPositive();
    }

    @Test
    void streamingChatStreamsTheSameAnswerAsTheCall() throws Exception {
        String called =
                chatModel(service).maxTokens(24).temperature(0.0).build().chat("Once upon a time");
        OpenAiStreamingChatModel streaming =
                streamingChatModel(service).maxTokens(24).temperature(0.0).build();
        Streamed streamed = stream(streaming, "Once upon a time");
        List<String> pieces = streamed.pieces();
        ChatResponse response = streamed.response();

        assertThat(pieces).hasSizeGreaterThan(1);
        assertThat(String.join("", pieces)).isEqualTo(called);
        assertThat(response.aiMessage().text()).isEqualTo(called);
        // LangChain4j asks for usage at the end of the stream (stream_options.include_usage)
        assertThat(response.metadata().tokenUsage().outputTokenCount()).isBetween(1, 24);
    }

    @Test
    void embeddingsHaveTheModelsDimensionsAndAreDeterministic() {
        OpenAiEmbeddingModel model = embeddingModel(service).build();

        Response<List<Embedding>> response = model.embedAll(List.of(
                TextSegment.from("The weather is lovely today."),
                TextSegment.from("It is so sunny outside!"),
                TextSegment.from("The weather is lovely today.")));

        List<Embedding> vectors = response.content();
        assertThat(vectors).hasSize(3);
        assertThat(vectors.get(0).dimension()).isEqualTo(Service.EMBEDDING_DIMENSIONS);
        assertThat(vectors.get(2).vector()).containsExactly(vectors.get(0).vector());
        assertThat(vectors.get(1).vector()).isNotEqualTo(vectors.get(0).vector());
        assertThat(response.tokenUsage().inputTokenCount()).isPositive();
    }

    /** What a stream gave: its pieces of text in order, and its complete response. */
    record Streamed(List<String> pieces, ChatResponse response) {}

    /** Streams {@code prompt} and waits (at most a minute) for the end. */
    static Streamed stream(StreamingChatModel model, String prompt) throws Exception {
        List<String> pieces = new CopyOnWriteArrayList<>();
        CompletableFuture<ChatResponse> done = new CompletableFuture<>();
        model.chat(prompt, new StreamingChatResponseHandler() {
            @Override
            public void onPartialResponse(String partialResponse) {
                pieces.add(partialResponse);
            }

            @Override
            public void onCompleteResponse(ChatResponse completeResponse) {
                done.complete(completeResponse);
            }

            @Override
            public void onError(Throwable error) {
                done.completeExceptionally(error);
            }
        });
        return new Streamed(pieces, done.get(1, TimeUnit.MINUTES));
    }

    /** A tool that remembers its calls. */
    static final class Weather {

        final List<String> cities = new CopyOnWriteArrayList<>();

        @Tool("The current temperature in a city, in degrees Celsius")
        int currentTemperature(@P("the name of the city") String city) {
            cities.add(city);
            return 21;
        }
    }

    interface Assistant {
        Result<String> chat(String message);
    }

    /**
     * An AI service with a tool and {@code tool_choice: "required"}: the service makes the model call
     * the tool, LangChain4j runs it and sends the result back, and the answer is text. Once a tool
     * result is in the conversation the request asks for {@code "none"}: "required" on every round
     * would make LangChain4j's loop ask for tool calls until its round-trip limit.
     */
    @Test
    void anAiServiceCallsItsToolWithToolChoiceRequired() {
        Weather weather = new Weather();
        OpenAiChatModel model = chatModel(service)
                .defaultRequestParameters(OpenAiChatRequestParameters.builder()
                        .toolChoice(ToolChoice.REQUIRED)
                        .parallelToolCalls(false)
                        .maxOutputTokens(200)
                        .build())
                .build();
        Assistant assistant = AiServices.builder(Assistant.class)
                .chatModel(model)
                .tools(weather)
                .chatRequestTransformer(LangChain4jIntegrationTests::noToolOnceAResultIsIn)
                .build();
        int mark = service.proxy().mark();

        Result<String> result = assistant.chat("What is the temperature in Paris?");

        assertThat(weather.cities).hasSize(1).doesNotContainNull();
        assertThat(result.toolExecutions()).hasSize(1);
        ToolExecution execution = result.toolExecutions().getFirst();
        assertThat(execution.request().name()).isEqualTo("currentTemperature");
        assertThat(execution.result()).isEqualTo("21");
        assertThat(result.content()).isNotNull();
        List<Exchange> sent = service.proxy().since(mark);
        assertThat(sent).hasSize(2).allSatisfy(e -> assertThat(e.status()).isEqualTo(200));
        assertThat(sent.get(0).body().get("tool_choice").asString()).isEqualTo("required");
        JsonNode messages = sent.get(1).body().get("messages");
        JsonNode tool = messages.get(messages.size() - 1);
        assertThat(tool.get("role").asString()).isEqualTo("tool");
        assertThat(tool.get("tool_call_id").asString())
                .isEqualTo(execution.request().id())
                .isNotBlank();
        assertThat(tool.get("content").asString()).isEqualTo("21");
    }

    /**
     * {@code tool_choice: "none"} once a tool's result is in the conversation: "required" on every
     * round would make LangChain4j's loop ask for tool calls until its round-trip limit.
     */
    static ChatRequest noToolOnceAResultIsIn(ChatRequest request) {
        return request.messages().getLast() instanceof ToolExecutionResultMessage
                ? request.toBuilder()
                        .parameters(request.parameters()
                                .overrideWith(ChatRequestParameters.builder()
                                        .toolChoice(ToolChoice.NONE)
                                        .build()))
                        .build()
                : request;
    }

    /** {@code response_format: json_schema} with {@code strict: true}: the answer is JSON of exactly that shape. */
    @Test
    void aStrictJsonSchemaResponseFormatGivesJsonOfThatShape() {
        OpenAiChatModel model = chatModel(service).strictJsonSchema(true).build();
        ResponseFormat format = ResponseFormat.builder()
                .type(ResponseFormatType.JSON)
                .jsonSchema(JsonSchema.builder()
                        .name("story")
                        .rootElement(JsonObjectSchema.builder()
                                .addStringProperty("title")
                                .addStringProperty("hero")
                                .addIntegerProperty("chapters")
                                .required("title", "hero", "chapters")
                                .additionalProperties(false)
                                .build())
                        .build())
                .build();
        int mark = service.proxy().mark();

        ChatResponse response = model.chat(ChatRequest.builder()
                .messages(UserMessage.from("Write a story as JSON."))
                .responseFormat(format)
                .maxOutputTokens(200)
                .build());

        JsonNode story =
                JsonMapper.builder().build().readTree(response.aiMessage().text());
        assertThat(story.isObject()).isTrue();
        assertThat(story.propertyNames()).containsExactlyInAnyOrder("title", "hero", "chapters");
        assertThat(story.get("title").isString()).isTrue();
        assertThat(story.get("hero").isString()).isTrue();
        assertThat(story.get("chapters").isIntegralNumber()).isTrue();
        JsonNode sent = service.proxy().since(mark).getFirst().body().get("response_format");
        assertThat(sent.get("type").asString()).isEqualTo("json_schema");
        assertThat(sent.get("json_schema").get("strict").asBoolean()).isTrue();
    }
}
