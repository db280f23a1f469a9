package com.llmserve.app.openai.completions;

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
import com.llmserve.app.openai.InvalidRequestException;
import com.llmserve.app.openai.PromptLimits;
import com.llmserve.app.openai.SseSink;
import com.llmserve.engine.sampling.SamplingParams;
import com.llmserve.engine.tokenizer.Tokenizer;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.NullNode;

/** {@code POST /v1/completions}: text completion, plain or streamed. */
@RestController
class CompletionsController {

    private final ModelRegistry registry;
    private final ApiProperties api;
    private final JsonMapper json;

    CompletionsController(ModelRegistry registry, ApiProperties api, JsonMapper json) {
        this.registry = registry;
        this.api = api;
        this.json = json;
    }

    @PostMapping(path = "/v1/completions", consumes = MediaType.APPLICATION_JSON_VALUE)
    Object complete(@RequestBody JsonNode body, HttpServletResponse response) throws InterruptedException, IOException {
        CompletionRequest request = CompletionRequest.parse(body, api);
        ServedTextModel model = registry.textModel(request.model());
        List<int[]> prompts = new ArrayList<>();
        List<String> promptTexts = new ArrayList<>();
        for (CompletionRequest.Prompt p : request.prompts()) {
            int[] tokens = tokens(model, p);
            prompts.add(tokens);
            promptTexts.add(request.echo() ? promptText(model.tokenizer(), p) : "");
            PromptLimits.maxTokens(
                    tokens.length,
                    model.maxModelLen(),
                    request.maxTokens(),
                    CompletionRequest.DEFAULT_MAX_TOKENS,
                    p.param(),
                    "max_tokens");
        }
        // the engine caps each prompt's budget by what its context leaves (the default of 16 may not fit)
        int maxTokens = request.maxTokens().orElse(CompletionRequest.DEFAULT_MAX_TOKENS);
        SamplingParams sampling = request.sampling().toParams(model.tokenizer().vocabSize());
        String id = Ids.next("cmpl-");
        long created = Ids.now();
        // echo with logprobs scores the prompt: the model runs even for max_tokens 0
        boolean scorePrompt = request.echo() && request.logprobs().isPresent();
        if (maxTokens == 0 && !scorePrompt) {
            return ResponseEntity.ok(echoOnly(request, id, created, prompts, promptTexts));
        }
        GenerationParams params = new GenerationParams(
                request.n(),
                maxTokens,
                sampling,
                request.stop(),
                request.ignoreEos(),
                request.logprobs().orElse(-1),
                scorePrompt ? request.logprobs().getAsInt() : -1);
        Generation generation = Generation.start(model, prompts, params);
        if (request.streaming().stream()) {
            return GenerationStream.body(
                    generation, new Chunks(request, id, created, promptTexts), api.keepAliveInterval(), json, response);
        }
        try (generation) {
            AnswerKeepAlive keepAlive = new AnswerKeepAlive(response, api.keepAliveInterval());
            var answer = collect(request, model.tokenizer(), prompts, generation, id, created, promptTexts, keepAlive);
            return answer == null ? null : keepAlive.respond(answer, json);
        }
    }

    private static int[] tokens(ServedTextModel model, CompletionRequest.Prompt prompt) {
        return switch (prompt) {
            case CompletionRequest.TextPrompt t -> model.promptEncoder().encode(t.text());
            case CompletionRequest.TokenPrompt t -> {
                int vocab = model.tokenizer().vocabSize();
                for (int i = 0; i < t.tokens().length; i++) {
                    if (t.tokens()[i] >= vocab) {
                        throw new InvalidRequestException(
                                t.param() + "[" + i + "]",
                                "Invalid '" + t.param() + "[" + i + "]': token id " + t.tokens()[i]
                                        + " is outside the model's vocabulary of " + vocab + " tokens.",
                                "invalid_token");
                    }
                }
                yield t.tokens();
            }
        };
    }

    /** The prompt as {@code echo} returns it: the client's text, or the decoded token ids. */
    private static String promptText(Tokenizer tokenizer, CompletionRequest.Prompt prompt) {
        return switch (prompt) {
            case CompletionRequest.TextPrompt t -> t.text();
            case CompletionRequest.TokenPrompt t -> tokenizer.decode(t.tokens());
        };
    }

    /** The answer once every choice finished, or null when the client left first. */
    private CompletionResponses.Completion collect(
            CompletionRequest request,
            Tokenizer tokenizer,
            List<int[]> prompts,
            Generation generation,
            String id,
            long created,
            List<String> promptTexts,
            AnswerKeepAlive keepAlive)
            throws InterruptedException {
        int count = generation.choiceCount();
        StringBuilder[] texts = new StringBuilder[count];
        CompletionResponses.Logprobs[] logprobs = new CompletionResponses.Logprobs[count];
        String[] finish = new String[count];
        for (int i = 0; i < count; i++) {
            texts[i] = new StringBuilder(promptTexts.get(i / request.n()));
            if (request.logprobs().isPresent()) {
                logprobs[i] = new CompletionResponses.Logprobs(List.of(), List.of(), List.of(), List.of());
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
                logprobs[d.index()] = logprobs[d.index()].plus(CompletionResponses.Logprobs.of(
                        d.tokens(), promptTexts.get(d.index() / request.n()).length()));
            }
            if (d.finished()) {
                finish[d.index()] = d.finishReason();
            }
        }
        List<CompletionResponses.Choice> choices = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            CompletionResponses.Logprobs lp = logprobs[i];
            if (lp != null && request.echo()) {
                // the echoed prompt's tokens come first, as the text does
                int p = i / request.n();
                lp = CompletionResponses.Logprobs.ofPrompt(tokenizer, prompts.get(p), generation.promptLogprobs(p))
                        .plus(lp);
            }
            choices.add(new CompletionResponses.Choice(i, texts[i].toString(), lp, finish[i]));
        }
        return new CompletionResponses.Completion(
                id,
                CompletionResponses.OBJECT,
                created,
                request.model(),
                choices,
                json.valueToTree(ApiUsage.of(generation.usage())));
    }

    /** {@code max_tokens: 0} with {@code echo}: the prompt back, nothing generated. */
    private CompletionResponses.Completion echoOnly(
            CompletionRequest request, String id, long created, List<int[]> prompts, List<String> promptTexts) {
        if (request.streaming().stream()) {
            throw new InvalidRequestException(
                    "max_tokens", "'max_tokens' 0 (echo only) cannot be streamed.", "unsupported_parameter");
        }
        List<CompletionResponses.Choice> choices = new ArrayList<>();
        int promptTokens = 0;
        for (int p = 0; p < prompts.size(); p++) {
            promptTokens += prompts.get(p).length;
            for (int c = 0; c < request.n(); c++) {
                choices.add(new CompletionResponses.Choice(choices.size(), promptTexts.get(p), null, "length"));
            }
        }
        ApiUsage usage = ApiUsage.of(new Generation.Usage(promptTokens, 0, 0));
        return new CompletionResponses.Completion(
                id, CompletionResponses.OBJECT, created, request.model(), choices, json.valueToTree(usage));
    }

    /** Stream chunks: one choice each, as OpenAI sends them; the usage chunk has no choices. */
    private final class Chunks implements GenerationStream.Chunks {

        private final CompletionRequest request;
        private final String id;
        private final long created;
        private final List<String> promptTexts;
        private final JsonNode usagePlaceholder;

        Chunks(CompletionRequest request, String id, long created, List<String> promptTexts) {
            this.request = request;
            this.id = id;
            this.created = created;
            this.promptTexts = promptTexts;
            // with include_usage every chunk carries "usage": null until the last one
            this.usagePlaceholder = request.streaming().includeUsage() ? NullNode.getInstance() : null;
        }

        @Override
        public void open(SseSink sink) throws IOException {
            if (!request.echo()) {
                return;
            }
            for (int i = 0; i < promptTexts.size() * request.n(); i++) {
                chunk(sink, new CompletionResponses.Choice(i, promptTexts.get(i / request.n()), null, null));
            }
        }

        @Override
        public void delta(SseSink sink, Delta d) throws IOException {
            CompletionResponses.Logprobs lp = request.logprobs().isPresent()
                    ? CompletionResponses.Logprobs.of(
                            d.tokens(), promptTexts.get(d.index() / request.n()).length())
                    : null;
            chunk(sink, new CompletionResponses.Choice(d.index(), d.text(), lp, d.finishReason()));
        }

        @Override
        public void close(SseSink sink, Generation.Usage usage) throws IOException {
            if (request.streaming().includeUsage()) {
                sink.data(new CompletionResponses.Completion(
                        id,
                        CompletionResponses.OBJECT,
                        created,
                        request.model(),
                        List.of(),
                        json.valueToTree(ApiUsage.of(usage))));
            }
        }

        private void chunk(SseSink sink, CompletionResponses.Choice choice) throws IOException {
            sink.data(new CompletionResponses.Completion(
                    id, CompletionResponses.OBJECT, created, request.model(), List.of(choice), usagePlaceholder));
        }
    }
}
