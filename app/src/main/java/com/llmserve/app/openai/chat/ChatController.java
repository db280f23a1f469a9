package com.llmserve.app.openai.chat;

import com.llmserve.app.generation.Delta;
import com.llmserve.app.generation.Generation;
import com.llmserve.app.generation.GenerationParams;
import com.llmserve.app.models.ModelRegistry;
import com.llmserve.app.models.ServedTextModel;
import com.llmserve.app.openai.AnswerKeepAlive;
import com.llmserve.app.openai.ApiProperties;
import com.llmserve.app.openai.ApiUsage;
import com.llmserve.app.openai.GenerationStream;
import com.llmserve.app.openai.Ids;
import com.llmserve.app.openai.PromptLimits;
import com.llmserve.app.openai.SseSink;
import com.llmserve.engine.sampling.SamplingParams;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.NullNode;

/** {@code POST /v1/chat/completions}: a conversation through the model's chat template, plain or streamed. */
@RestController
class ChatController {

    private final ModelRegistry registry;
    private final ApiProperties api;
    private final JsonMapper json;

    ChatController(ModelRegistry registry, ApiProperties api, JsonMapper json) {
        this.registry = registry;
        this.api = api;
        this.json = json;
    }

    @PostMapping(path = "/v1/chat/completions", consumes = MediaType.APPLICATION_JSON_VALUE)
    Object chat(@RequestBody JsonNode body, HttpServletResponse response) throws InterruptedException, IOException {
        ChatRequest request = ChatRequest.parse(body, api);
        ServedTextModel model = registry.textModel(request.model());
        int[] prompt = ChatPrompt.tokens(
                model, request.messages(), request.addGenerationPrompt(), request.templateVariables());
        // without max_tokens the answer may fill what the context leaves, as in OpenAI's API
        int maxTokens = PromptLimits.maxTokens(
                prompt.length,
                model.maxModelLen(),
                request.maxTokens(),
                model.maxModelLen(),
                "messages",
                request.maxTokens().isPresent() && body.has("max_completion_tokens")
                        ? "max_completion_tokens"
                        : "max_tokens");
        SamplingParams sampling = request.sampling().toParams(model.tokenizer().vocabSize());
        GenerationParams params = new GenerationParams(
                request.n(), maxTokens, sampling, request.stop(), request.ignoreEos(), request.topLogprobs(), -1);
        String id = Ids.next("chatcmpl-");
        long created = Ids.now();
        Generation generation = Generation.start(model, List.of(prompt), params);
        if (request.streaming().stream()) {
            return GenerationStream.body(
                    generation, new Chunks(request, id, created), api.keepAliveInterval(), json, response);
        }
        try (generation) {
            AnswerKeepAlive keepAlive = new AnswerKeepAlive(response, api.keepAliveInterval());
            var answer = collect(request, generation, id, created, keepAlive);
            return answer == null ? null : keepAlive.respond(answer, json);
        }
    }

    /** The answer once every choice finished, or null when the client left first. */
    private ChatResponses.ChatCompletion collect(
            ChatRequest request, Generation generation, String id, long created, AnswerKeepAlive keepAlive)
            throws InterruptedException {
        int count = generation.choiceCount();
        StringBuilder[] texts = new StringBuilder[count];
        ChatResponses.Logprobs[] logprobs = new ChatResponses.Logprobs[count];
        String[] finish = new String[count];
        for (int i = 0; i < count; i++) {
            texts[i] = new StringBuilder();
            if (request.topLogprobs() >= 0) {
                logprobs[i] = new ChatResponses.Logprobs(List.of(), null);
            }
        }
        while (!generation.done()) {
            Delta d = generation.next(keepAlive.untilDue());
            if (!keepAlive.ping()) {
                return null; // the caller's try-with-resources cancels the generation
            }
            if (d == null) {
                continue;
            }
            texts[d.index()].append(d.text());
            if (logprobs[d.index()] != null) {
                logprobs[d.index()] = logprobs[d.index()].plus(ChatResponses.Logprobs.of(d.tokens()));
            }
            if (d.finished()) {
                finish[d.index()] = d.finishReason();
            }
        }
        List<ChatResponses.Choice> choices = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            choices.add(new ChatResponses.Choice(
                    i, new ChatResponses.Message("assistant", texts[i].toString(), null), logprobs[i], finish[i]));
        }
        return new ChatResponses.ChatCompletion(
                id,
                ChatResponses.OBJECT,
                created,
                request.model(),
                choices,
                json.valueToTree(ApiUsage.of(generation.usage())));
    }

    /**
     * Stream chunks as OpenAI sends them: per choice a first delta with the role, then content
     * deltas, then an empty delta with the finish reason; the usage chunk has no choices.
     */
    private final class Chunks implements GenerationStream.Chunks {

        private final ChatRequest request;
        private final String id;
        private final long created;
        private final JsonNode usagePlaceholder;

        Chunks(ChatRequest request, String id, long created) {
            this.request = request;
            this.id = id;
            this.created = created;
            this.usagePlaceholder = request.streaming().includeUsage() ? NullNode.getInstance() : null;
        }

        @Override
        public void open(SseSink sink) throws IOException {
            for (int i = 0; i < request.n(); i++) {
                chunk(sink, new ChatResponses.ChunkChoice(i, new ChatResponses.Delta("assistant", ""), null, null));
            }
        }

        @Override
        public void delta(SseSink sink, Delta d) throws IOException {
            if (!d.text().isEmpty()
                    || (request.topLogprobs() >= 0 && !d.tokens().isEmpty())) {
                ChatResponses.Logprobs lp = request.topLogprobs() >= 0 ? ChatResponses.Logprobs.of(d.tokens()) : null;
                chunk(
                        sink,
                        new ChatResponses.ChunkChoice(d.index(), new ChatResponses.Delta(null, d.text()), lp, null));
            }
            if (d.finished()) {
                chunk(
                        sink,
                        new ChatResponses.ChunkChoice(
                                d.index(), new ChatResponses.Delta(null, null), null, d.finishReason()));
            }
        }

        @Override
        public void close(SseSink sink, Generation.Usage usage) throws IOException {
            if (request.streaming().includeUsage()) {
                sink.data(new ChatResponses.Chunk(
                        id,
                        ChatResponses.CHUNK_OBJECT,
                        created,
                        request.model(),
                        List.of(),
                        json.valueToTree(ApiUsage.of(usage))));
            }
        }

        private void chunk(SseSink sink, ChatResponses.ChunkChoice choice) throws IOException {
            sink.data(new ChatResponses.Chunk(
                    id, ChatResponses.CHUNK_OBJECT, created, request.model(), List.of(choice), usagePlaceholder));
        }
    }
}
