package com.llmserve.app.openai.embeddings;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.llmserve.app.models.ModelRegistry;
import com.llmserve.app.models.ServedEmbeddingModel;
import com.llmserve.app.openai.ApiProperties;
import com.llmserve.app.openai.InvalidRequestException;
import com.llmserve.app.openai.RequestFields;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.OptionalInt;
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

    /** One input: text or token ids, with its place in the request for error messages. */
    private record Input(String text, int[] tokens, String param) {}

    @PostMapping(path = "/v1/embeddings", consumes = MediaType.APPLICATION_JSON_VALUE)
    EmbeddingList embed(@RequestBody JsonNode body) throws InterruptedException {
        RequestFields f = RequestFields.of(body);
        String modelId = f.requiredString("model");
        List<Input> inputs = inputs(f);
        String format = f.optString("encoding_format").orElse("float");
        if (!format.equals("float") && !format.equals("base64")) {
            throw f.invalid(
                    "encoding_format",
                    "Invalid value for 'encoding_format': '" + format
                            + "'. Supported values are: 'float' and 'base64'.",
                    "invalid_value");
        }
        OptionalInt dimensions = f.optInt("dimensions", 1, Integer.MAX_VALUE);
        f.optString("user");
        f.rejectUnknown();

        ServedEmbeddingModel model = registry.embeddingModel(modelId);
        if (dimensions.isPresent() && dimensions.getAsInt() != model.dimensions()) {
            throw f.invalid(
                    "dimensions",
                    "This model's vectors have " + model.dimensions()
                            + " dimensions and cannot be shortened; omit 'dimensions' or send " + model.dimensions()
                            + ".",
                    "unsupported_value");
        }
        List<int[]> tokenized = new ArrayList<>(inputs.size());
        int promptTokens = 0;
        for (Input in : inputs) {
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
            data.add(new Embedding("embedding", i, format.equals("base64") ? base64(vectors[i]) : vectors[i]));
        }
        return new EmbeddingList("list", data, modelId, new Usage(promptTokens, promptTokens));
    }

    /** {@code input}: a string, an array of strings, an array of token ids, or an array of such arrays. */
    private List<Input> inputs(RequestFields f) {
        JsonNode node = f.raw("input");
        if (node == null) {
            throw f.missing("input");
        }
        List<Input> inputs = new ArrayList<>();
        if (node.isString()) {
            inputs.add(text(node.stringValue(), "input"));
        } else if (node.isArray()) {
            if (node.isEmpty()) {
                throw new InvalidRequestException("input", "Invalid 'input': it must not be empty.", "empty_array");
            }
            JsonNode first = node.get(0);
            if (first.isIntegralNumber()) {
                inputs.add(new Input(null, tokens(node, "input"), "input"));
            } else {
                for (int i = 0; i < node.size(); i++) {
                    JsonNode e = node.get(i);
                    String param = "input[" + i + "]";
                    if (e.isString() && first.isString()) {
                        inputs.add(text(e.stringValue(), param));
                    } else if (e.isArray() && first.isArray()) {
                        if (e.isEmpty()) {
                            throw new InvalidRequestException(
                                    param, "Invalid '" + param + "': it must not be empty.", "empty_array");
                        }
                        inputs.add(new Input(null, tokens(e, param), param));
                    } else {
                        throw RequestFields.typeError(
                                param,
                                first.isString()
                                        ? "a string (like the first input)"
                                        : "an array of token ids (like the first input)",
                                e);
                    }
                }
            }
        } else {
            throw RequestFields.typeError(
                    "input", "a string, an array of strings, an array of token ids or an array of such arrays", node);
        }
        if (inputs.size() > api.maxEmbeddingInputs()) {
            throw new InvalidRequestException(
                    "input",
                    "Invalid 'input': at most " + api.maxEmbeddingInputs() + " inputs are allowed per request, but got "
                            + inputs.size() + ".",
                    "array_above_max_length");
        }
        return inputs;
    }

    private static Input text(String text, String param) {
        if (text.isEmpty()) {
            throw new InvalidRequestException(
                    param, "Invalid '" + param + "': the input must not be an empty string.", "empty_string");
        }
        return new Input(text, null, param);
    }

    private static int[] tokens(JsonNode array, String param) {
        int[] ids = new int[array.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = RequestFields.intValue(array.get(i), param + "[" + i + "]", 0, Integer.MAX_VALUE);
        }
        return ids;
    }

    private static int[] checked(ServedEmbeddingModel model, Input in) {
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
