package com.llmserve.clients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.llmserve.clients.RecordingProxy.Exchange;
import com.openai.client.OpenAIClient;
import com.openai.core.http.StreamResponse;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.completions.CompletionCreateParams;
import com.openai.models.embeddings.EmbeddingCreateParams;
import com.openai.models.responses.ResponseCreateParams;
import com.openai.models.responses.ResponseStreamEvent;
import dev.langchain4j.model.openai.OpenAiLanguageModel;
import dev.langchain4j.model.openai.OpenAiResponsesChatModel;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.openai.OpenAiChatOptions;
import tools.jackson.databind.JsonNode;

/**
 * Every JSON field each client library sends when nothing but the model and the input is set: the
 * request bodies as the {@link RecordingProxy} saw them. Each must be answered 200 by the service
 * running with {@code llmserve.api.unknown-fields=reject}, so every default field is one the
 * service knows; the expected lists are the ones in docs/openai-api.md and change only with a
 * client's version. {@code target/default-fields.txt} gets the list.
 *
 * <p>A field is written {@code path} (with {@code []} for array elements), and
 * {@code path=value} where the client chose the value (not for the model, messages, prompt or
 * input, which are the caller's).
 */
@Service.Running
class DefaultFieldsIntegrationTests {

    private static final String PROMPT = "Once upon a time";
    private static final Map<String, String> SEEN = new ConcurrentSkipListMap<>();

    private final Service service;

    DefaultFieldsIntegrationTests(Service service) {
        this.service = service;
    }

    static Stream<Arguments> defaultRequests() {
        return Stream.of(
                arguments(
                        "openai-java chat",
                        (Consumer<Service>)
                                s -> openAiJava(s, c -> c.chat().completions().create(chat())),
                        Set.of("messages[].content", "messages[].role", "model")),
                arguments(
                        "openai-java streaming chat",
                        (Consumer<Service>) s -> openAiJava(s, c -> {
                            try (StreamResponse<ChatCompletionChunk> stream =
                                    c.chat().completions().createStreaming(chat())) {
                                stream.stream().forEach(chunk -> {});
                            }
                        }),
                        Set.of("messages[].content", "messages[].role", "model", "stream=true")),
                arguments(
                        "openai-java completions",
                        (Consumer<Service>) s -> openAiJava(s, c -> c.completions()
                                .create(CompletionCreateParams.builder()
                                        .model(Service.TEXT)
                                        .prompt(PROMPT)
                                        .build())),
                        Set.of("model", "prompt")),
                arguments(
                        "openai-java embeddings",
                        (Consumer<Service>) s -> openAiJava(s, c -> c.embeddings()
                                .create(EmbeddingCreateParams.builder()
                                        .model(Service.EMBEDDING)
                                        .input(PROMPT)
                                        .build())),
                        Set.of("encoding_format=\"base64\"", "input", "model")),
                arguments(
                        "openai-java responses",
                        (Consumer<Service>)
                                s -> openAiJava(s, c -> c.responses().create(responses())),
                        Set.of("input", "model")),
                arguments(
                        "openai-java streaming responses",
                        (Consumer<Service>) s -> openAiJava(s, c -> {
                            try (StreamResponse<ResponseStreamEvent> stream =
                                    c.responses().createStreaming(responses())) {
                                stream.stream().forEach(event -> {});
                            }
                        }),
                        Set.of("input", "model", "stream=true")),
                arguments(
                        "Spring AI chat",
                        (Consumer<Service>)
                                s -> springAi(s).prompt().user(PROMPT).call().content(),
                        Set.of("messages[].content", "messages[].role", "model")),
                arguments(
                        "Spring AI streaming chat",
                        (Consumer<Service>) s -> springAi(s).prompt().user(PROMPT).stream()
                                .content()
                                .blockLast(Duration.ofMinutes(1)),
                        Set.of(
                                "messages[].content",
                                "messages[].role",
                                "model",
                                "stream=true",
                                "stream_options.include_usage=true")),
                arguments(
                        "Spring AI embeddings",
                        (Consumer<Service>)
                                s -> SpringAiIntegrationTests.embeddingModel(s).embed(PROMPT),
                        Set.of("encoding_format=\"base64\"", "input[]", "model")),
                arguments(
                        "LangChain4j chat",
                        (Consumer<Service>) s ->
                                LangChain4jIntegrationTests.chatModel(s).build().chat(PROMPT),
                        Set.of("messages[].content", "messages[].role", "model", "stream=false")),
                arguments(
                        "LangChain4j streaming chat",
                        (Consumer<Service>) s -> streamLangChain4j(LangChain4jIntegrationTests.streamingChatModel(s)
                                .build()),
                        Set.of(
                                "messages[].content",
                                "messages[].role",
                                "model",
                                "stream=true",
                                "stream_options.include_usage=true")),
                arguments(
                        "LangChain4j completions",
                        (Consumer<Service>) s -> OpenAiLanguageModel.builder()
                                .baseUrl(s.baseUrl())
                                .apiKey("unused")
                                .modelName(Service.TEXT)
                                .maxRetries(0)
                                .build()
                                .generate(PROMPT),
                        Set.of("model", "prompt", "stream=false")),
                arguments(
                        "LangChain4j responses",
                        (Consumer<Service>) s -> OpenAiResponsesChatModel.builder()
                                .baseUrl(s.baseUrl())
                                .apiKey("unused")
                                .modelName(Service.TEXT)
                                .build()
                                .chat(PROMPT),
                        Set.of(
                                "input[].content[].text",
                                "input[].content[].type",
                                "input[].role",
                                "input[].type",
                                "model",
                                "store=false",
                                "stream=false")),
                arguments(
                        "LangChain4j embeddings",
                        (Consumer<Service>) s -> LangChain4jIntegrationTests.embeddingModel(s)
                                .build()
                                .embed(PROMPT),
                        Set.of("input[]", "model")));
    }

    private static void openAiJava(Service s, Consumer<OpenAIClient> request) {
        OpenAIClient client = OpenAiJavaIntegrationTests.client(s);
        try {
            request.accept(client);
        } finally {
            client.close();
        }
    }

    private static ChatCompletionCreateParams chat() {
        return ChatCompletionCreateParams.builder()
                .model(Service.TEXT)
                .addUserMessage(PROMPT)
                .build();
    }

    private static ResponseCreateParams responses() {
        return ResponseCreateParams.builder().model(Service.TEXT).input(PROMPT).build();
    }

    private static ChatClient springAi(Service s) {
        return ChatClient.create(SpringAiIntegrationTests.chatModel(s, OpenAiChatOptions.builder()));
    }

    private static void streamLangChain4j(OpenAiStreamingChatModel model) {
        try {
            LangChain4jIntegrationTests.stream(model, PROMPT);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("defaultRequests")
    void everyFieldAClientSendsByDefaultIsAccepted(String client, Consumer<Service> request, Set<String> expected) {
        int mark = service.proxy().mark();

        request.accept(service);

        List<Exchange> sent = service.proxy().since(mark);
        assertThat(sent).hasSize(1);
        Exchange exchange = sent.getFirst();
        Set<String> fields = fields(exchange.body());
        SEEN.put(client, exchange.method() + " " + exchange.path() + ": " + String.join(", ", fields));
        assertThat(exchange.status()).isEqualTo(200);
        assertThat(fields).isEqualTo(new TreeSet<>(expected));
    }

    /** Without this the test above would prove nothing: the service must refuse what it does not know. */
    @Test
    void theServiceUnderTestRejectsUnknownFields() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(service.baseUrl() + "/embeddings"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(
                        "{\"model\":\"" + Service.EMBEDDING + "\",\"input\":\"x\",\"not_a_field\":1}"))
                .build();
        try (HttpClient http = HttpClient.newHttpClient()) {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());

            assertThat(response.statusCode()).isEqualTo(400);
            assertThat(response.body()).contains("\"param\":\"not_a_field\"", "\"code\":\"unknown_parameter\"");
        }
    }

    @AfterAll
    static void writeTable() throws IOException {
        List<String> lines = new ArrayList<>();
        SEEN.forEach((client, fields) -> lines.add(client + " -> " + fields));
        Files.write(Path.of("target", "default-fields.txt"), lines);
    }

    /** The body's fields as paths, with the values the client chose. */
    static Set<String> fields(JsonNode body) {
        Set<String> fields = new TreeSet<>();
        collect(body, "", fields);
        return fields;
    }

    private static void collect(JsonNode node, String path, Set<String> out) {
        if (node.isObject()) {
            for (Map.Entry<String, JsonNode> e : node.properties()) {
                collect(e.getValue(), path.isEmpty() ? e.getKey() : path + "." + e.getKey(), out);
            }
        } else if (node.isArray()) {
            for (JsonNode element : node) {
                collect(element, path + "[]", out);
            }
            if (node.isEmpty()) {
                out.add(path + "=[]");
            }
        } else if (callersValue(path)) {
            out.add(path);
        } else {
            out.add(path + "=" + node);
        }
    }

    private static boolean callersValue(String path) {
        return path.equals("model")
                || path.startsWith("messages")
                || path.startsWith("prompt")
                || path.startsWith("input");
    }
}
