package com.llmserve.app.openai.responses;

import com.llmserve.app.generation.Delta;
import com.llmserve.app.generation.Generation;
import com.llmserve.app.generation.GenerationParams;
import com.llmserve.app.models.ModelRegistry;
import com.llmserve.app.models.ServedTextModel;
import com.llmserve.app.openai.AnswerGrammars;
import com.llmserve.app.openai.ApiProperties;
import com.llmserve.app.openai.ErrorEnvelope;
import com.llmserve.app.openai.GenerationResponder;
import com.llmserve.app.openai.GenerationShape;
import com.llmserve.app.openai.Ids;
import com.llmserve.app.openai.PromptLimits;
import com.llmserve.app.openai.chat.ChatTurn;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code POST /v1/responses}: OpenAI's Responses API over the same conversation machinery as
 * chat (template, tools, structured output, reasoning), whole or streamed. Stateless: nothing is
 * stored, so a stored response can be neither retrieved nor deleted.
 */
@RestController
class ResponsesController {

    private final ModelRegistry registry;
    private final ApiProperties api;
    private final GenerationResponder responder;
    private final AnswerGrammars grammars;

    ResponsesController(ModelRegistry registry, ApiProperties api, JsonMapper json, AnswerGrammars grammars) {
        this.registry = registry;
        this.api = api;
        this.responder = new GenerationResponder(api, json);
        this.grammars = grammars;
    }

    @PostMapping(path = "/v1/responses", consumes = MediaType.APPLICATION_JSON_VALUE)
    Object create(@RequestBody JsonNode body, HttpServletRequest http, HttpServletResponse response)
            throws InterruptedException, IOException {
        ResponsesRequest request = ResponsesRequest.parse(body, api);
        ServedTextModel model = registry.textModel(request.model());
        ChatTurn turn = ChatTurn.prepare(
                grammars,
                model,
                request.messages(),
                true,
                request.templateVariables(),
                request.tools(),
                request.format(),
                request.separateReasoning());
        int[] prompt = turn.prompt().tokens();
        int maxTokens = PromptLimits.maxTokens(
                prompt.length,
                model.maxModelLen(),
                request.maxOutputTokens(),
                model.maxModelLen(),
                "input",
                "max_output_tokens");
        GenerationParams params = new GenerationParams(
                1,
                maxTokens,
                request.sampling().toParams(model.tokenizer().vocabSize()),
                List.of(),
                request.ignoreEos(),
                request.topLogprobs(),
                -1,
                turn.grammar());
        ResponseSnapshots snapshots = new ResponseSnapshots(Ids.next("resp_"), Ids.now(), request);
        ResponseOutput output = new ResponseOutput(turn.reading(), request.topLogprobs() >= 0);
        Generation generation = Generation.start(model, List.of(prompt), params);
        if (request.stream()) {
            return responder.stream(generation, new ResponseEvents(snapshots, output), response);
        }
        return responder.answer(
                generation,
                (choices, usage) -> {
                    GenerationShape.Collected c = choices.getFirst();
                    output.feed(new Delta(0, c.text(), c.tokens(), c.finishReason()));
                    return snapshots.finished(output, ResponseObjects.Usage.of(usage, output.reasoningTokens()));
                },
                http,
                response);
    }

    @GetMapping("/v1/responses/{id}")
    ResponseEntity<Object> retrieve(@PathVariable String id) {
        return notStored(id);
    }

    @DeleteMapping("/v1/responses/{id}")
    ResponseEntity<Object> delete(@PathVariable String id) {
        return notStored(id);
    }

    private static ResponseEntity<Object> notStored(String id) {
        return ResponseEntity.status(HttpStatus.NOT_FOUND)
                .body(ErrorEnvelope.of(
                        "No response with id '" + id + "' is stored: this server keeps no responses"
                                + " (requests with 'store': true are refused).",
                        ErrorEnvelope.INVALID_REQUEST,
                        null,
                        "response_not_found"));
    }
}
