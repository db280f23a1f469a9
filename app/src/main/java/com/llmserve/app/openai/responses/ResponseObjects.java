package com.llmserve.app.openai.responses;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.llmserve.app.generation.Generation;
import com.llmserve.app.openai.chat.ChatResponses.TokenLogprob;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * The JSON shapes of {@code /v1/responses}: the response, its output items, and the events of its
 * stream, with OpenAI's field names. Every event carries its {@code type} and a
 * {@code sequence_number} that counts from 0 over the stream.
 */
final class ResponseObjects {

    private ResponseObjects() {}

    /**
     * A response. The request's settings are echoed as OpenAI echoes them; {@code store} is always
     * false (nothing is kept) and {@code previous_response_id} always null.
     *
     * @param status {@code in_progress}, {@code completed}, {@code incomplete} or {@code failed}
     * @param usage  null until the response is over
     */
    record Response(
            String id,
            String object,
            @JsonProperty("created_at") long createdAt,
            String status,
            Error error,
            @JsonProperty("incomplete_details") IncompleteDetails incompleteDetails,
            String instructions,
            @JsonProperty("max_output_tokens") Integer maxOutputTokens,
            String model,
            List<OutputItem> output,
            @JsonProperty("parallel_tool_calls") boolean parallelToolCalls,
            @JsonProperty("previous_response_id") String previousResponseId,
            Reasoning reasoning,
            boolean store,
            double temperature,
            JsonNode text,
            @JsonProperty("tool_choice") JsonNode toolChoice,
            JsonNode tools,
            @JsonProperty("top_p") double topP,
            String truncation,
            Usage usage,
            String user,
            Map<String, String> metadata,
            boolean background) {}

    /** Why a response failed: OpenAI's {@code server_error} and the message. */
    record Error(String code, String message) {}

    /** Why a response is incomplete: {@code max_output_tokens}. */
    record IncompleteDetails(String reason) {}

    /** The request's {@code reasoning}, echoed. */
    record Reasoning(String effort, String summary) {}

    /**
     * Token counts in the Responses API's shape.
     *
     * @param outputTokensDetails the output tokens whose text was thinking
     */
    record Usage(
            @JsonProperty("input_tokens") int inputTokens,
            @JsonProperty("input_tokens_details") InputTokensDetails inputTokensDetails,
            @JsonProperty("output_tokens") int outputTokens,
            @JsonProperty("output_tokens_details") OutputTokensDetails outputTokensDetails,
            @JsonProperty("total_tokens") int totalTokens) {

        static Usage of(Generation.Usage u, int reasoningTokens) {
            return new Usage(
                    u.promptTokens(),
                    new InputTokensDetails(u.cachedTokens(), 0),
                    u.completionTokens(),
                    new OutputTokensDetails(reasoningTokens),
                    u.totalTokens());
        }
    }

    /**
     * @param cacheWriteTokens always 0: OpenAI counts the prompt tokens written to a cache it bills
     *                         for; the prefix cache here is automatic and bills nothing
     */
    record InputTokensDetails(
            @JsonProperty("cached_tokens") int cachedTokens,
            @JsonProperty("cache_write_tokens") int cacheWriteTokens) {}

    record OutputTokensDetails(
            @JsonProperty("reasoning_tokens") int reasoningTokens) {}

    /** An item of {@code output}: the assistant's message, its thinking, or a call of a function. */
    sealed interface OutputItem permits Message, ReasoningItem, FunctionCall {}

    /** @param status {@code in_progress} while streamed, then {@code completed}, or {@code incomplete} when cut off */
    record Message(String type, String id, String status, String role, List<OutputText> content)
            implements OutputItem {}

    /** @param logprobs the log-probabilities of the text's tokens when they were asked for, else empty */
    record OutputText(String type, String text, List<Object> annotations, List<TokenLogprob> logprobs) {}

    /**
     * A model's thinking, as its raw text ({@code reasoning_text} content, as vLLM returns it for
     * open models); there is no summary and nothing encrypted.
     */
    record ReasoningItem(
            String type,
            String id,
            List<Object> summary,
            List<ReasoningText> content,
            @JsonProperty("encrypted_content") String encryptedContent,
            String status)
            implements OutputItem {}

    record ReasoningText(String type, String text) {}

    /**
     * @param id     the item's id ({@code fc_...})
     * @param callId the id a {@code function_call_output} answers ({@code call_...})
     */
    record FunctionCall(
            String type,
            String id,
            @JsonProperty("call_id") String callId,
            String name,
            String arguments,
            String status)
            implements OutputItem {}

    /** An event of the stream: the SSE {@code event:} line names its {@code type}, which its payload carries too. */
    sealed interface Event
            permits ResponseEvent, ItemEvent, PartEvent, TextDelta, TextDone, ArgumentsDelta, ArgumentsDone {
        String type();
    }

    /** {@code response.created}, {@code response.in_progress}, {@code response.completed}, ... */
    record ResponseEvent(
            String type, @JsonProperty("sequence_number") int sequenceNumber, Response response) implements Event {}

    /** {@code response.output_item.added} and {@code response.output_item.done}. */
    record ItemEvent(
            String type,
            @JsonProperty("sequence_number") int sequenceNumber,
            @JsonProperty("output_index") int outputIndex,
            OutputItem item)
            implements Event {}

    /** {@code response.content_part.added} and {@code response.content_part.done}; the part is text or reasoning text. */
    record PartEvent(
            String type,
            @JsonProperty("sequence_number") int sequenceNumber,
            @JsonProperty("item_id") String itemId,
            @JsonProperty("output_index") int outputIndex,
            @JsonProperty("content_index") int contentIndex,
            Object part)
            implements Event {}

    /** {@code response.output_text.delta} (with logprobs) and {@code response.reasoning_text.delta} (without). */
    record TextDelta(
            String type,
            @JsonProperty("sequence_number") int sequenceNumber,
            @JsonProperty("item_id") String itemId,
            @JsonProperty("output_index") int outputIndex,
            @JsonProperty("content_index") int contentIndex,
            String delta,
            @JsonInclude(JsonInclude.Include.NON_NULL) List<TokenLogprob> logprobs)
            implements Event {}

    /** {@code response.output_text.done} (with logprobs) and {@code response.reasoning_text.done} (without). */
    record TextDone(
            String type,
            @JsonProperty("sequence_number") int sequenceNumber,
            @JsonProperty("item_id") String itemId,
            @JsonProperty("output_index") int outputIndex,
            @JsonProperty("content_index") int contentIndex,
            String text,
            @JsonInclude(JsonInclude.Include.NON_NULL) List<TokenLogprob> logprobs)
            implements Event {}

    /** {@code response.function_call_arguments.delta}. */
    record ArgumentsDelta(
            String type,
            @JsonProperty("sequence_number") int sequenceNumber,
            @JsonProperty("item_id") String itemId,
            @JsonProperty("output_index") int outputIndex,
            String delta)
            implements Event {}

    /** {@code response.function_call_arguments.done}. */
    record ArgumentsDone(
            String type,
            @JsonProperty("sequence_number") int sequenceNumber,
            @JsonProperty("item_id") String itemId,
            @JsonProperty("output_index") int outputIndex,
            String name,
            String arguments)
            implements Event {}
}
