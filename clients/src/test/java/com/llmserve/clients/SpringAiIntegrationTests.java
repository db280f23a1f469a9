package com.llmserve.clients;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.clients.RecordingProxy.Exchange;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.embedding.EmbeddingResponse;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.model.tool.ToolExecutionResult;
import org.springframework.ai.openai.OpenAiChatModel;
import org.springframework.ai.openai.OpenAiChatOptions;
import org.springframework.ai.openai.OpenAiEmbeddingModel;
import org.springframework.ai.openai.OpenAiEmbeddingOptions;
import org.springframework.ai.support.ToolCallbacks;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.annotation.ToolParam;
import tools.jackson.databind.JsonNode;

/**
 * Spring AI 2 against the service: its OpenAI chat and embedding models built by hand (no starter,
 * no auto-configuration), and the {@link ChatClient} over them.
 */
@Service.Running
class SpringAiIntegrationTests {

    private final Service service;
    private final OpenAiChatModel chatModel;
    private final ChatClient chat;

    SpringAiIntegrationTests(Service service) {
        this.service = service;
        this.chatModel = chatModel(service, OpenAiChatOptions.builder().maxTokens(200));
        this.chat = ChatClient.create(chatModel);
    }

    static OpenAiChatModel chatModel(Service service, OpenAiChatOptions.Builder options) {
        return OpenAiChatModel.builder()
                .options(options.baseUrl(service.baseUrl())
                        .apiKey("unused")
                        .model(Service.TEXT)
                        .maxRetries(0)
                        .build())
                .build();
    }

    static OpenAiEmbeddingModel embeddingModel(Service service) {
        return OpenAiEmbeddingModel.builder()
                .options(OpenAiEmbeddingOptions.builder()
                        .baseUrl(service.baseUrl())
                        .apiKey("unused")
                        .model(Service.EMBEDDING)
                        .maxRetries(0)
                        .build())
                .build();
    }

    @Test
    void chatClientCallAnswersAsTheAssistant() {
        ChatResponse response = chat.prompt()
                .user("Tell me a story about a cat.")
                .options(OpenAiChatOptions.builder().maxTokens(24).temperature(0.0))
                .call()
                .chatResponse();

        assertThat(response).isNotNull();
        assertThat(response.getResult().getOutput().getText()).isNotBlank();
        assertThat(response.getResult().getMetadata().getFinishReason()).isIn("LENGTH", "STOP");
        assertThat(response.getMetadata().getModel()).isEqualTo(Service.TEXT);
        assertThat(response.getMetadata().getUsage().getCompletionTokens()).isBetween(1, 24);
        assertThat(response.getMetadata().getUsage().getPromptTokens()).isPositive();
    }

    @Test
    void chatClientStreamsTheSameAnswerAsTheCall() {
        OpenAiChatOptions.Builder greedy =
                OpenAiChatOptions.builder().maxTokens(24).temperature(0.0);
        String called =
                chat.prompt().user("Once upon a time").options(greedy).call().content();

        List<String> pieces = chat.prompt().user("Once upon a time").options(greedy).stream()
                .content()
                .collectList()
                .block(Duration.ofMinutes(1));

        assertThat(pieces).hasSizeGreaterThan(1);
        assertThat(String.join("", pieces)).isEqualTo(called);
    }

    @Test
    void embeddingsHaveTheModelsDimensionsAndAreDeterministic() {
        OpenAiEmbeddingModel embeddings = embeddingModel(service);

        EmbeddingResponse response = embeddings.embedForResponse(
                List.of("The weather is lovely today.", "It is so sunny outside!", "The weather is lovely today."));

        assertThat(response.getResults()).hasSize(3);
        float[] first = response.getResults().get(0).getOutput();
        assertThat(first).hasSize(Service.EMBEDDING_DIMENSIONS);
        assertThat(response.getResults().get(2).getOutput()).containsExactly(first);
        assertThat(response.getResults().get(1).getOutput()).isNotEqualTo(first);
        assertThat(response.getMetadata().getModel()).isEqualTo(Service.EMBEDDING);
    }

    /** A tool that remembers its calls. */
    static final class Weather {

        final List<String> cities = new CopyOnWriteArrayList<>();

        @Tool(description = "The current temperature in a city, in degrees Celsius")
        int currentTemperature(@ToolParam(description = "the name of the city") String city) {
            cities.add(city);
            return 21;
        }
    }

    /**
     * {@code tool_choice: "required"} makes even this random model call the tool (the service
     * constrains decoding to a call); Spring AI runs the tool, sends its result back in a
     * {@code tool} message, and the service answers that in text. The chat model hands the call
     * back and the test runs it with Spring AI's {@link ToolCallingManager} (user-controlled tool
     * execution): the ChatClient's tool-calling loop would send "required" on every round and so
     * ask for tool calls forever.
     */
    @Test
    void aToolRoundTripWithToolChoiceRequired() {
        Weather weather = new Weather();
        // options of a prompt replace the model's: the model's id must be named again
        OpenAiChatOptions required = OpenAiChatOptions.builder()
                .model(Service.TEXT)
                .toolCallbacks(ToolCallbacks.from(weather))
                .toolChoice("required")
                // one call, so "the tool ran once" is what OpenAI's API promises
                .parallelToolCalls(false)
                .maxTokens(200)
                .build();
        Prompt prompt = new Prompt(new UserMessage("What is the temperature in Paris?"), required);
        int mark = service.proxy().mark();

        ChatResponse first = chatModel.call(prompt);

        assertThat(first.hasToolCalls()).isTrue();
        AssistantMessage.ToolCall call =
                first.getResult().getOutput().getToolCalls().getFirst();
        assertThat(call.name()).isEqualTo("currentTemperature");
        assertThat(call.id()).isNotBlank();

        ToolExecutionResult executed = ToolCallingManager.builder().build().executeToolCalls(prompt, first);

        assertThat(weather.cities).hasSize(1).doesNotContainNull();
        assertThat(executed.conversationHistory().getLast()).isInstanceOf(ToolResponseMessage.class);

        OpenAiChatOptions answer = OpenAiChatOptions.builder()
                .model(Service.TEXT)
                .toolCallbacks(ToolCallbacks.from(weather))
                .toolChoice("none")
                .maxTokens(32)
                .build();
        ChatResponse second = chatModel.call(new Prompt(executed.conversationHistory(), answer));

        assertThat(second.hasToolCalls()).isFalse();
        assertThat(second.getResult().getOutput().getText()).isNotNull();
        // what went over the wire: the call, then the call's result under its id
        List<Exchange> sent = service.proxy().since(mark);
        assertThat(sent).hasSize(2).allSatisfy(e -> assertThat(e.status()).isEqualTo(200));
        assertThat(sent.get(0).body().get("tool_choice").asString()).isEqualTo("required");
        JsonNode messages = sent.get(1).body().get("messages");
        JsonNode assistant = messages.get(messages.size() - 2);
        JsonNode tool = messages.get(messages.size() - 1);
        assertThat(assistant.get("role").asString()).isEqualTo("assistant");
        assertThat(assistant.get("tool_calls").get(0).get("id").asString()).isEqualTo(call.id());
        assertThat(tool.get("role").asString()).isEqualTo("tool");
        assertThat(tool.get("tool_call_id").asString()).isEqualTo(call.id());
        assertThat(tool.get("content").asString()).isEqualTo("21");
    }

    /** The answer's shape, for {@code .entity(...)}. */
    record Story(String title, String hero, int chapters) {}

    /**
     * {@code .entity(...)} with the provider's structured output: Spring AI sends the record's JSON
     * schema as {@code response_format} ({@code json_schema}, strict) and parses the answer.
     */
    @Test
    void entityWithStructuredOutputFillsTheRecord() {
        int mark = service.proxy().mark();

        Story story = chat.prompt()
                .user("Write a story as JSON.")
                .call()
                .entity(Story.class, spec -> spec.useProviderStructuredOutput());

        assertThat(story).isNotNull();
        assertThat(story.title()).isNotNull();
        assertThat(story.hero()).isNotNull();
        JsonNode format = service.proxy().since(mark).getFirst().body().get("response_format");
        assertThat(format.get("type").asString()).isEqualTo("json_schema");
        assertThat(format.get("json_schema").get("strict").asBoolean()).isTrue();
        assertThat(format.get("json_schema").get("schema").get("properties").propertyNames())
                .containsExactlyInAnyOrder("title", "hero", "chapters");
    }
}
