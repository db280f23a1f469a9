package com.llmserve.app.openai.embeddings;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.llmserve.app.models.ModelRegistry;
import com.llmserve.app.models.ServedEmbeddingModel;
import com.llmserve.app.openai.ApiProperties;
import com.llmserve.app.openai.InvalidRequestException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/**
 * {@code POST /v1/embeddings}: one vector per input. Text is tokenized with the model's special
 * tokens ({@code [CLS] ... [SEP]} for BERT); token arrays are taken as they are, so send them as
 * {@code /tokenize} returns them. An input longer than the model's context is refused (400),
 * not truncated.
 */
@RestController
class EmbeddingsController {

    private final ModelRegistry registry;
    private final ApiProperties api;

    EmbeddingsController(ModelRegistry registry, ApiProperties api) {
        this.registry = registry;
        this.api = api;
    }

    record EmbeddingList(String object, List<Embedding> data, String model, Usage usage) {}

    /**
     * @param embedding a float array, or a base64 string of little-endian float32 values
     */
    record Embedding(String object, int index, Object embedding) {}

    record Usage(
            @JsonProperty("prompt_tokens") int promptTokens,
            @JsonProperty("total_tokens") int totalTokens) {}

    @PostMapping(path = "/v1/embeddings", consumes = MediaType.APPLICATION_JSON_VALUE)
    EmbeddingList embed(@RequestBody JsonNode body) throws InterruptedException {
        EmbeddingRequest request = EmbeddingRequest.parse(body, api);
        String modelId = request.model();
        ServedEmbeddingModel model = registry.embeddingModel(modelId);
        if (request.dimensions().isPresent() && request.dimensions().getAsInt() != model.dimensions()) {
            throw new InvalidRequestException(
                    "dimensions",
                    "This model's vectors have " + model.dimensions()
                            + " dimensions and cannot be shortened; omit 'dimensions' or send " + model.dimensions()
                            + ".",
                    "unsupported_value");
        }
        List<int[]> tokenized = new ArrayList<>(request.inputs().size());
        int promptTokens = 0;
        for (EmbeddingRequest.Input in : request.inputs()) {
            int[] tokens =
                    in.tokens() != null ? checked(model, in) : model.tokenizer().encode(in.text(), true, false);
            if (tokens.length > model.maxModelLen()) {
                throw new InvalidRequestException(
                        in.param(),
                        "This model's maximum context length is " + model.maxModelLen()
                                + " tokens, however you requested " + tokens.length + " tokens in '" + in.param()
                                + "'. Please reduce your input.",
                        "context_length_exceeded");
            }
            tokenized.add(tokens);
            promptTokens += tokens.length;
            if (promptTokens > api.maxEmbeddingTokens()) {
                throw new InvalidRequestException(
                        "input",
                        "Requested more than " + api.maxEmbeddingTokens()
                                + " tokens in one request (the inputs up to '" + in.param() + "' have " + promptTokens
                                + "). Send the inputs in smaller requests.",
                        "max_tokens_per_request");
            }
        }
        float[][] vectors = model.embed(tokenized);
        List<Embedding> data = new ArrayList<>(vectors.length);
        for (int i = 0; i < vectors.length; i++) {
            data.add(new Embedding("embedding", i, request.base64() ? base64(vectors[i]) : vectors[i]));
        }
        return new EmbeddingList("list", data, modelId, new Usage(promptTokens, promptTokens));
    }

    private static int[] checked(ServedEmbeddingModel model, EmbeddingRequest.Input in) {
        int vocab = model.tokenizer().vocabSize();
        for (int i = 0; i < in.tokens().length; i++) {
            if (in.tokens()[i] >= vocab) {
                throw new InvalidRequestException(
                        in.param() + "[" + i + "]",
                        "Invalid '" + in.param() + "[" + i + "]': token id " + in.tokens()[i]
                                + " is outside the model's vocabulary of " + vocab + " tokens.",
                        "invalid_token");
            }
        }
        return in.tokens();
    }

    /** OpenAI's base64 encoding: the float32 values, little-endian, back to back. */
    private static String base64(float[] vector) {
        ByteBuffer bytes = ByteBuffer.allocate(vector.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        bytes.asFloatBuffer().put(vector);
        return Base64.getEncoder().encodeToString(bytes.array());
    }
}
