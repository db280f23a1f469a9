package com.llmserve.app.openai.chat;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.llmserve.app.generation.OutputToken;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/** The JSON shapes of {@code /v1/chat/completions}: the completion, its stream chunks, log-probabilities. */
public final class ChatResponses {

    static final String OBJECT = "chat.completion";
    static final String CHUNK_OBJECT = "chat.completion.chunk";

    private ChatResponses() {}

    record ChatCompletion(String id, String object, long created, String model, List<Choice> choices, JsonNode usage) {}

    record Choice(
            int index,
            Message message,
            Logprobs logprobs,
            @JsonProperty("finish_reason") String finishReason) {}

    /**
     * The assistant's answer; {@code refusal} is always null (the model does not refuse by API).
     * {@code reasoning_content} (vLLM's and llama.cpp's name) holds a reasoning model's thinking and
     * is left out when there was none; {@code tool_calls} is left out when no tool was called.
     */
    record Message(
            String role,
            String content,
            String refusal,

            @JsonProperty("reasoning_content") @JsonInclude(JsonInclude.Include.NON_NULL)
            String reasoningContent,

            @JsonProperty("tool_calls") @JsonInclude(JsonInclude.Include.NON_EMPTY)
            List<ToolCall> toolCalls) {}

    /** A call of a function: its arguments are JSON text, as in OpenAI's API. */
    record ToolCall(String id, String type, Function function) {
        static ToolCall of(String id, String name, String arguments) {
            return new ToolCall(id, "function", new Function(name, arguments));
        }
    }

    record Function(String name, String arguments) {}

    /**
     * A piece of a streamed call: the first for each call carries its index, id, type and name (and
     * empty arguments), later ones only the index and a fragment of the arguments.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ToolCallDelta(int index, String id, String type, FunctionDelta function) {}

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record FunctionDelta(String name, String arguments) {}

    /**
     * One event of a stream: a choice's delta, or (with {@code stream_options.include_usage}) the
     * usage with no choices. {@code usage} is absent unless usage was asked for, then null until the end.
     */
    record Chunk(
            String id,
            String object,
            long created,
            String model,
            List<ChunkChoice> choices,
            @JsonInclude(JsonInclude.Include.NON_NULL) JsonNode usage) {}

    record ChunkChoice(
            int index,
            Delta delta,
            Logprobs logprobs,
            @JsonProperty("finish_reason") String finishReason) {}

    /** New text of the assistant's message; the first delta of a choice carries the role. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Delta(
            String role,
            String content,
            @JsonProperty("reasoning_content") String reasoningContent,
            @JsonProperty("tool_calls") List<ToolCallDelta> toolCalls) {

        Delta(String role, String content) {
            this(role, content, null, null);
        }
    }

    /** Log-probabilities of a choice's tokens, as chat reports them (the Responses API reports the {@code content} list). */
    public record Logprobs(List<TokenLogprob> content, List<TokenLogprob> refusal) {

        public static Logprobs of(List<OutputToken> tokens) {
            List<TokenLogprob> content = new ArrayList<>(tokens.size());
            for (OutputToken t : tokens) {
                List<TopLogprob> top = new ArrayList<>(t.top().size());
                for (OutputToken.Alternative a : t.top()) {
                    top.add(new TopLogprob(a.text(), finite(a.logprob()), unsigned(a.bytes())));
                }
                content.add(new TokenLogprob(t.text(), finite(t.logprob()), unsigned(t.bytes()), top));
            }
            return new Logprobs(content, null);
        }
    }

    /** A token: its text, log-probability, UTF-8 bytes (a character may span tokens) and the most likely alternatives. */
    public record TokenLogprob(
            String token,
            float logprob,
            int[] bytes,
            @JsonProperty("top_logprobs") List<TopLogprob> topLogprobs) {}

    public record TopLogprob(String token, float logprob, int[] bytes) {}

    /** JSON has no infinity: a token the model rules out gets OpenAI's floor of -9999. */
    static float finite(float logprob) {
        return Float.isFinite(logprob) ? logprob : -9999f;
    }

    private static int[] unsigned(byte[] bytes) {
        int[] out = new int[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            out[i] = bytes[i] & 0xff;
        }
        return out;
    }
}
