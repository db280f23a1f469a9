package com.llmserve.app.openai.chat;

import com.llmserve.app.generation.Generation;
import com.llmserve.app.generation.GenerationParams;
import com.llmserve.app.models.ModelRegistry;
import com.llmserve.app.models.ServedTextModel;
import com.llmserve.app.openai.AnswerGrammars;
import com.llmserve.app.openai.ApiProperties;
import com.llmserve.app.openai.GenerationResponder;
import com.llmserve.app.openai.Ids;
import com.llmserve.app.openai.PromptLimits;
import com.llmserve.engine.sampling.SamplingParams;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** {@code POST /v1/chat/completions}: a conversation through the model's chat template, plain or streamed. */
@RestController
class ChatController {

    private final ModelRegistry registry;
    private final ApiProperties api;
    private final GenerationResponder responder;
    private final AnswerGrammars grammars;

    ChatController(ModelRegistry registry, ApiProperties api, JsonMapper json, AnswerGrammars grammars) {
        this.registry = registry;
        this.api = api;
        this.responder = new GenerationResponder(api, json);
        this.grammars = grammars;
    }

    @PostMapping(path = "/v1/chat/completions", consumes = MediaType.APPLICATION_JSON_VALUE)
    Object chat(@RequestBody JsonNode body, HttpServletRequest http, HttpServletResponse response)
            throws InterruptedException, IOException {
        ChatRequest request = ChatRequest.parse(body, api);
        ServedTextModel model = registry.textModel(request.model());
        ChatTurn turn = ChatTurn.prepare(
                grammars,
                model,
                request.messages(),
                request.addGenerationPrompt(),
                request.templateVariables(),
                request.tools(),
                request.format(),
                request.separateReasoning());
        int[] prompt = turn.prompt().tokens();
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
                request.n(),
                maxTokens,
                sampling,
                request.stop(),
                request.ignoreEos(),
                request.topLogprobs(),
                -1,
                turn.grammar());
        ChatShape shape = new ChatShape(request, Ids.next("chatcmpl-"), Ids.now(), turn.reading());
        Generation generation = Generation.start(model, List.of(prompt), params);
        return responder.respond(generation, request.streaming(), shape, http, response);
    }
}
