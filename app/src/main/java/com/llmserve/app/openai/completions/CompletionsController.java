package com.llmserve.app.openai.completions;

import com.llmserve.app.generation.Generation;
import com.llmserve.app.generation.GenerationParams;
import com.llmserve.app.models.ModelRegistry;
import com.llmserve.app.models.ServedTextModel;
import com.llmserve.app.openai.AnswerGrammars;
import com.llmserve.app.openai.ApiProperties;
import com.llmserve.app.openai.ApiUsage;
import com.llmserve.app.openai.GenerationResponder;
import com.llmserve.app.openai.Ids;
import com.llmserve.app.openai.InvalidRequestException;
import com.llmserve.app.openai.PromptLimits;
import com.llmserve.engine.sampling.SamplingParams;
import com.llmserve.engine.tokenizer.Tokenizer;
import jakarta.servlet.http.HttpServletRequest;
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

/** {@code POST /v1/completions}: text completion, plain or streamed. */
@RestController
class CompletionsController {

    private final ModelRegistry registry;
    private final ApiProperties api;
    private final JsonMapper json;
    private final GenerationResponder responder;
    private final AnswerGrammars grammars;

    CompletionsController(ModelRegistry registry, ApiProperties api, JsonMapper json, AnswerGrammars grammars) {
        this.grammars = grammars;
        this.registry = registry;
        this.api = api;
        this.json = json;
        this.responder = new GenerationResponder(api, json);
    }

    @PostMapping(path = "/v1/completions", consumes = MediaType.APPLICATION_JSON_VALUE)
    Object complete(@RequestBody JsonNode body, HttpServletRequest http, HttpServletResponse response)
            throws InterruptedException, IOException {
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
                scorePrompt ? request.logprobs().getAsInt() : -1,
                grammars.of(model, request.format()));
        Generation generation = Generation.start(model, prompts, params);
        CompletionShape shape =
                new CompletionShape(request, id, created, model.tokenizer(), prompts, promptTexts, generation);
        return responder.respond(generation, request.streaming(), shape, http, response);
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
}
