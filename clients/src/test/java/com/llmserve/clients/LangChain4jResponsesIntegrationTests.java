package com.llmserve.clients;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.clients.RecordingProxy.Exchange;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ToolChoice;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.openai.OpenAiResponsesChatModel;
import dev.langchain4j.model.openai.OpenAiResponsesStreamingChatModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.Result;
import dev.langchain4j.service.tool.ToolExecution;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * LangChain4j's Responses API models ({@code OpenAiResponsesChatModel} and its streaming twin)
 * against the service, with the defaults they send: a call, the same answer streamed, and an AI
 * service whose tool is called through {@code function_call} and {@code function_call_output} items.
 */
@Service.Running
class LangChain4jResponsesIntegrationTests {

    private final Service service;

    LangChain4jResponsesIntegrationTests(Service service) {
        this.service = service;
    }

    private OpenAiResponsesChatModel.Builder chatModel() {
        return OpenAiResponsesChatModel.builder()
                .baseUrl(service.baseUrl())
                .apiKey("unused")
                .modelName(Service.TEXT);
    }

    @Test
    void aCallAndAStreamGiveTheSameGreedyAnswer() throws Exception {
        int mark = service.proxy().mark();
        ChatResponse called =
                chatModel().maxOutputTokens(24).temperature(0.0).build().chat(UserMessage.from("Once upon a time"));
        OpenAiResponsesStreamingChatModel streaming = OpenAiResponsesStreamingChatModel.builder()
                .baseUrl(service.baseUrl())
                .apiKey("unused")
                .modelName(Service.TEXT)
                .maxOutputTokens(24)
                .temperature(0.0)
                .build();
        LangChain4jIntegrationTests.Streamed stream = LangChain4jIntegrationTests.stream(streaming, "Once upon a time");
        List<String> pieces = stream.pieces();
        ChatResponse streamed = stream.response();

        assertThat(called.aiMessage().text()).isNotBlank();
        assertThat(pieces).hasSizeGreaterThan(1);
        assertThat(String.join("", pieces)).isEqualTo(called.aiMessage().text());
        assertThat(streamed.aiMessage().text()).isEqualTo(called.aiMessage().text());
        assertThat(called.metadata().tokenUsage().outputTokenCount()).isBetween(1, 24);
        List<Exchange> sent = service.proxy().since(mark);
        assertThat(sent).hasSize(2).allSatisfy(e -> {
            assertThat(e.path()).isEqualTo("/v1/responses");
            assertThat(e.status()).isEqualTo(200);
        });
    }

    interface Assistant {
        Result<String> chat(String message);
    }

    /** As with chat ({@code LangChain4jIntegrationTests}): required on the first round, none once the result is in. */
    @Test
    void anAiServiceCallsItsToolThroughFunctionCallItems() {
        LangChain4jIntegrationTests.Weather weather = new LangChain4jIntegrationTests.Weather();
        OpenAiResponsesChatModel model = chatModel()
                .toolChoice(ToolChoice.REQUIRED)
                .parallelToolCalls(false)
                .maxOutputTokens(200)
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
        assertThat(result.content()).isNotNull();
        List<Exchange> sent = service.proxy().since(mark);
        assertThat(sent).hasSize(2).allSatisfy(e -> assertThat(e.status()).isEqualTo(200));
        JsonNode input = sent.get(1).body().get("input");
        JsonNode output = input.get(input.size() - 1);
        assertThat(output.get("type").asString()).isEqualTo("function_call_output");
        assertThat(output.get("call_id").asString())
                .isEqualTo(execution.request().id());
    }
}
