package com.llmserve.app.openai.chat;

import com.llmserve.app.openai.ApiProperties;
import com.llmserve.app.openai.GenerationFields;
import com.llmserve.app.openai.RequestFields;
import com.llmserve.app.openai.SamplingOptions;
import com.llmserve.engine.chat.ChatMessage;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import tools.jackson.databind.JsonNode;

/**
 * A parsed {@code POST /v1/chat/completions} body. Tool calling and structured output are not
 * built yet: a request that needs them is refused with a 400 naming the parameter rather than
 * answered as if they had been honoured.
 *
 * @param maxTokens           {@code max_completion_tokens} or {@code max_tokens}, if set
 * @param topLogprobs         -1 without {@code logprobs}; else {@code top_logprobs} (0 by default)
 * @param templateVariables   {@code chat_template_kwargs}: extra variables for the chat template (vLLM's extension)
 * @param addGenerationPrompt end the prompt with the assistant header (vLLM's extension; true by default)
 */
record ChatRequest(
        String model,
        List<ChatMessage> messages,
        OptionalInt maxTokens,
        SamplingOptions sampling,
        int n,
        GenerationFields.Streaming streaming,
        List<String> stop,
        int topLogprobs,
        boolean ignoreEos,
        Map<String, Object> templateVariables,
        boolean addGenerationPrompt) {

    static ChatRequest parse(JsonNode body, ApiProperties limits) {
        RequestFields f = RequestFields.of(body);
        String model = f.requiredString("model");
        List<ChatMessage> messages = ChatMessages.parse(f);
        OptionalInt maxTokens = maxTokens(f);
        SamplingOptions sampling = SamplingOptions.read(f);
        int n = GenerationFields.n(f, limits);
        GenerationFields.Streaming streaming = GenerationFields.streaming(f);
        List<String> stop = GenerationFields.stop(f, limits);
        boolean logprobs = f.optBoolean("logprobs").orElse(false);
        OptionalInt top = f.optInt("top_logprobs", 0, limits.maxLogprobs());
        if (top.isPresent() && !logprobs) {
            throw f.invalid("top_logprobs", "'top_logprobs' requires 'logprobs' to be true.");
        }
        boolean ignoreEos = GenerationFields.ignoreEos(f);
        responseFormat(f);
        tools(f);
        Map<String, Object> variables = ChatMessages.templateVariables(f);
        boolean addGenerationPrompt = f.optBoolean("add_generation_prompt").orElse(true);
        JsonNode modalities = f.raw("modalities");
        if (modalities != null
                && !(modalities.isArray()
                        && modalities.size() == 1
                        && "text".equals(modalities.get(0).asString()))) {
            throw f.invalid("modalities", "Only the text modality is supported.", "unsupported_parameter");
        }
        // accepted and without effect here: they concern OpenAI's storage, billing and tool routing
        f.ignore("metadata", "store", "service_tier", "parallel_tool_calls");
        GenerationFields.user(f);
        f.rejectUnknown();
        return new ChatRequest(
                model,
                messages,
                maxTokens,
                sampling,
                n,
                streaming,
                stop,
                logprobs ? top.orElse(0) : -1,
                ignoreEos,
                variables,
                addGenerationPrompt);
    }

    /** {@code max_completion_tokens} (current) or {@code max_tokens} (deprecated); both must agree if both are sent. */
    private static OptionalInt maxTokens(RequestFields f) {
        OptionalInt completion = f.optInt("max_completion_tokens", 1, Integer.MAX_VALUE);
        OptionalInt legacy = f.optInt("max_tokens", 1, Integer.MAX_VALUE);
        if (completion.isPresent() && legacy.isPresent() && completion.getAsInt() != legacy.getAsInt()) {
            throw f.invalid(
                    "max_tokens",
                    "'max_tokens' and 'max_completion_tokens' disagree; send only 'max_completion_tokens'.");
        }
        return completion.isPresent() ? completion : legacy;
    }

    /** Only plain text output exists; JSON modes would need constrained decoding. */
    private static void responseFormat(RequestFields f) {
        JsonNode node = f.raw("response_format");
        if (node == null) {
            return;
        }
        RequestFields rf = RequestFields.nested(node, "response_format");
        String type = rf.requiredString("type");
        if (!"text".equals(type)) {
            throw rf.invalid(
                    "type",
                    "response_format of type '" + type + "' is not supported yet; only 'text' is.",
                    "unsupported_parameter");
        }
        rf.rejectUnknown();
    }

    private static void tools(RequestFields f) {
        JsonNode tools = f.raw("tools");
        if (tools != null && !(tools.isArray() && tools.isEmpty())) {
            throw f.invalid("tools", "Tool calling is not supported yet.", "unsupported_parameter");
        }
        JsonNode choice = f.raw("tool_choice");
        if (choice != null
                && !(choice.isString()
                        && ("none".equals(choice.stringValue()) || "auto".equals(choice.stringValue())))) {
            throw f.invalid(
                    "tool_choice",
                    "Tool calling is not supported yet; 'tool_choice' may only be 'none' or 'auto'.",
                    "unsupported_parameter");
        }
        GenerationFields.unsupported(f, "functions", "Function calling is not supported yet.");
        GenerationFields.unsupported(f, "function_call", "Function calling is not supported yet.");
    }
}
