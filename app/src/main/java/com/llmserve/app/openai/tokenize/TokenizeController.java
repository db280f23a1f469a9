package com.llmserve.app.openai.tokenize;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.llmserve.app.models.ModelRegistry;
import com.llmserve.app.models.ServedEmbeddingModel;
import com.llmserve.app.models.ServedModel;
import com.llmserve.app.models.ServedTextModel;
import com.llmserve.app.openai.InvalidRequestException;
import com.llmserve.app.openai.chat.ChatPrompt;
import com.llmserve.engine.tokenizer.Tokenizer;
import java.util.ArrayList;
import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/**
 * {@code POST /tokenize} and {@code POST /detokenize}, shaped as vLLM's: the tokens an endpoint
 * would feed the model for a prompt or a conversation, and the text of token ids.
 */
@RestController
class TokenizeController {

    private final ModelRegistry registry;

    TokenizeController(ModelRegistry registry) {
        this.registry = registry;
    }

    /**
     * @param tokenStrs each token's text as the vocabulary stores it, when {@code return_token_strs} is true
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Tokenized(
            int count,
            @JsonProperty("max_model_len") int maxModelLen,
            List<Integer> tokens,
            @JsonProperty("token_strs") List<String> tokenStrs) {}

    record Detokenized(String prompt) {}

    @PostMapping(path = "/tokenize", consumes = MediaType.APPLICATION_JSON_VALUE)
    Tokenized tokenize(@RequestBody JsonNode body) {
        TokenizeRequest request = TokenizeRequest.parse(body);
        String modelId = request.model();
        boolean addSpecial = request.addSpecialTokens();
        String prompt = request.prompt();
        ServedModel model = registry.get(modelId);
        int[] tokens;
        if (prompt != null) {
            tokens = switch (model) {
                case ServedTextModel text ->
                    addSpecial
                            ? text.promptEncoder().encode(prompt)
                            : text.tokenizer().encode(prompt, false, true);
                case ServedEmbeddingModel embedding -> embedding.tokenizer().encode(prompt, addSpecial, false);
            };
        } else {
            if (!(model instanceof ServedTextModel text)) {
                throw new InvalidRequestException(
                        "messages",
                        "The model '" + modelId + "' is an embedding model; it has no chat template.",
                        "model_not_supported");
            }
            tokens = ChatPrompt.tokens(text, request.messages(), request.addGenerationPrompt(), request.variables());
        }
        List<Integer> list = new ArrayList<>(tokens.length);
        List<String> strs = request.returnTokenStrs() ? new ArrayList<>(tokens.length) : null;
        for (int t : tokens) {
            list.add(t);
            if (strs != null) {
                strs.add(model.tokenizer().tokenText(t));
            }
        }
        return new Tokenized(tokens.length, model.maxModelLen(), list, strs);
    }

    @PostMapping(path = "/detokenize", consumes = MediaType.APPLICATION_JSON_VALUE)
    Detokenized detokenize(@RequestBody JsonNode body) {
        DetokenizeRequest request = DetokenizeRequest.parse(body);
        Tokenizer tokenizer = registry.get(request.model()).tokenizer();
        int[] ids = request.ids(tokenizer.vocabSize());
        return new Detokenized(tokenizer.decode(ids));
    }
}
