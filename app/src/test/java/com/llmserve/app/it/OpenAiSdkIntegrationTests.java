package com.llmserve.app.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.offset;

import com.llmserve.app.TestModels;
import com.llmserve.app.models.ModelRegistry;
import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.http.StreamResponse;
import com.openai.errors.NotFoundException;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.chat.completions.ChatCompletionStreamOptions;
import com.openai.models.completions.Completion;
import com.openai.models.completions.CompletionChoice;
import com.openai.models.completions.CompletionCreateParams;
import com.openai.models.embeddings.CreateEmbeddingResponse;
import com.openai.models.embeddings.EmbeddingCreateParams;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/** The official OpenAI Java SDK against the running service: what SDK users see. */
@ServiceTest
class OpenAiSdkIntegrationTests {

    @LocalServerPort
    int port;

    @Autowired
    ModelRegistry registry;

    OpenAIClient client;

    @BeforeEach
    void connect() throws InterruptedException {
        ModelsReady.await(registry);
        client = OpenAIOkHttpClient.builder()
                .baseUrl("http://localhost:" + port + "/v1")
                .apiKey("unused")
                .maxRetries(0)
                .build();
    }

    @AfterEach
    void close() {
        client.close();
    }

    @Test
    void completionReturnsTheGreedyStoryWithUsage() {
        Completion completion = client.completions()
                .create(CompletionCreateParams.builder()
                        .model(TestModels.TEXT)
                        .prompt("Once upon a time")
                        .maxTokens(12)
                        .temperature(0)
                        .build());

        assertThat(completion.choices()).hasSize(1);
        assertThat(completion.choices().getFirst().text()).startsWith(", there was a little girl named Lily");
        assertThat(completion.choices().getFirst().finishReason()).isEqualTo(CompletionChoice.FinishReason.LENGTH);
        assertThat(completion.usage().orElseThrow().completionTokens()).isEqualTo(12);
        assertThat(completion.model()).isEqualTo(TestModels.TEXT);
    }

    @Test
    void chatCompletionAnswersAsTheAssistant() {
        ChatCompletion chat = client.chat()
                .completions()
                .create(ChatCompletionCreateParams.builder()
                        .model(TestModels.TEXT)
                        .addUserMessage("Tell me a story")
                        .maxCompletionTokens(8)
                        .seed(7)
                        .build());

        assertThat(chat.choices()).hasSize(1);
        assertThat(chat.choices().getFirst().message().content()).isPresent();
        assertThat(chat.choices().getFirst().finishReason())
                .isIn(ChatCompletion.Choice.FinishReason.LENGTH, ChatCompletion.Choice.FinishReason.STOP);
        assertThat(chat.usage().orElseThrow().promptTokens()).isPositive();
    }

    @Test
    void streamingChatDeliversTheSameTextAsAPlainOneWithUsageLast() {
        ChatCompletionCreateParams plainParams = ChatCompletionCreateParams.builder()
                .model(TestModels.TEXT)
                .addUserMessage("Tell me a story")
                .maxCompletionTokens(16)
                .temperature(0)
                .build();
        ChatCompletionCreateParams params = plainParams.toBuilder()
                .streamOptions(
                        ChatCompletionStreamOptions.builder().includeUsage(true).build())
                .build();
        String plain = client.chat()
                .completions()
                .create(plainParams)
                .choices()
                .getFirst()
                .message()
                .content()
                .orElse("");

        StringBuilder streamed = new StringBuilder();
        List<ChatCompletionChunk> chunks = new ArrayList<>();
        try (StreamResponse<ChatCompletionChunk> stream =
                client.chat().completions().createStreaming(params)) {
            stream.stream().forEach(chunk -> {
                chunks.add(chunk);
                chunk.choices().forEach(c -> c.delta().content().ifPresent(streamed::append));
            });
        }

        assertThat(streamed.toString()).isEqualTo(plain);
        assertThat(chunks.getFirst().choices().getFirst().delta().role()).isPresent();
        ChatCompletionChunk last = chunks.getLast();
        assertThat(last.choices()).isEmpty();
        assertThat(last.usage().orElseThrow().completionTokens()).isEqualTo(16);
    }

    @Test
    void embeddingsAreUnitVectorsOfTheModelsDimensions() {
        CreateEmbeddingResponse response = client.embeddings()
                .create(EmbeddingCreateParams.builder()
                        .model(TestModels.EMBEDDING)
                        .inputOfArrayOfStrings(List.of("The weather is lovely today.", "It's so sunny outside!"))
                        .build());

        assertThat(response.data()).hasSize(2);
        List<Float> v = response.data().getFirst().embedding();
        assertThat(v).hasSize(384);
        double norm = Math.sqrt(v.stream().mapToDouble(x -> x * x).sum());
        assertThat(norm).isCloseTo(1.0, offset(1e-3));
        double cosine = 0;
        for (int i = 0; i < v.size(); i++) {
            cosine += v.get(i) * response.data().get(1).embedding().get(i);
        }
        // llama.cpp gives 0.6675 for this pair with this file (../shared/models/README.md)
        assertThat(cosine).isCloseTo(0.6675, offset(0.01));
        assertThat(response.usage().promptTokens()).isPositive();
    }

    @Test
    void anUnknownModelIsANotFoundErrorInTheSdk() {
        assertThatThrownBy(() -> client.completions()
                        .create(CompletionCreateParams.builder()
                                .model("no-such-model")
                                .prompt("x")
                                .build()))
                .isInstanceOf(NotFoundException.class)
                .hasMessageContaining("does not exist");
    }
}
