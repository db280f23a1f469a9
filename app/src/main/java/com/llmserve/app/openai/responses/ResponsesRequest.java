package com.llmserve.app.openai.responses;

import com.llmserve.app.openai.ApiProperties;
import com.llmserve.app.openai.GenerationFields;
import com.llmserve.app.openai.InvalidRequestException;
import com.llmserve.app.openai.OutputFormat;
import com.llmserve.app.openai.RequestFields;
import com.llmserve.app.openai.SamplingOptions;
import com.llmserve.app.openai.chat.ChatMessages;
import com.llmserve.app.openai.chat.ChatTurn;
import com.llmserve.app.openai.chat.ToolUse;
import com.llmserve.engine.chat.ChatMessage;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A parsed {@code POST /v1/responses} body. The server keeps no state: {@code store: true},
 * {@code previous_response_id}, {@code conversation} and {@code background} are refused with a
 * 400 that says so, and the whole conversation comes in {@code input}.
 *
 * @param messages          {@code instructions} and {@code input} as chat messages
 * @param instructions      the system message, or null
 * @param maxOutputTokens   {@code max_output_tokens}, if set
 * @param topLogprobs       -1 without log-probabilities; else how many alternatives per token
 * @param templateVariables {@code chat_template_kwargs} (vLLM's extension), with {@code reasoning_effort} from
 *                          {@code reasoning.effort} for templates that read it
 * @param separateReasoning whether {@code <think>} text becomes a reasoning item (the default) or stays in the
 *                          message ({@code reasoning_format: "none"}, as on chat)
 * @param echo              what the response repeats of the request
 */
record ResponsesRequest(
        String model,
        List<ChatMessage> messages,
        String instructions,
        OptionalInt maxOutputTokens,
        SamplingOptions sampling,
        boolean stream,
        int topLogprobs,
        boolean ignoreEos,
        Map<String, Object> templateVariables,
        ToolUse tools,
        OutputFormat format,
        boolean separateReasoning,
        Echo echo) {

    /** What {@code include} may ask for. Only the message's log-probabilities change the answer here. */
    private static final Set<String> INCLUDABLE = Set.of(
            "message.output_text.logprobs",
            // the thinking is returned as plain text in the reasoning item's content, never encrypted
            "reasoning.encrypted_content",
            // outputs of tools that OpenAI runs; there are none here
            "code_interpreter_call.outputs",
            "computer_call_output.output.image_url",
            "file_search_call.results",
            "message.input_image.image_url",
            "web_search_call.action.sources",
            "web_search_call.results");

    /**
     * The request's settings that a response repeats.
     *
     * @param text       {@code text} as sent, or {@code {"format": {"type": "text"}}}
     * @param toolChoice {@code tool_choice} as sent, or {@code "auto"}
     * @param tools      {@code tools} as sent, or an empty array
     */
    record Echo(
            JsonNode text,
            JsonNode toolChoice,
            JsonNode tools,
            boolean parallelToolCalls,
            ResponseObjects.Reasoning reasoning,
            Map<String, String> metadata,
            String user) {}

    static ResponsesRequest parse(JsonNode body, ApiProperties limits) {
        RequestFields f = RequestFields.of(body);
        String model = f.requiredString("model");
        stateless(f);
        String instructions = f.optString("instructions").orElse(null);
        List<ChatMessage> messages = ResponseInput.parse(f, instructions);
        OptionalInt maxOutputTokens = f.optInt("max_output_tokens", 1, Integer.MAX_VALUE);
        SamplingOptions sampling = SamplingOptions.read(f);
        boolean stream = stream(f);
        int topLogprobs = logprobs(f, limits);
        boolean ignoreEos = GenerationFields.ignoreEos(f);
        OutputFormat format = OutputFormat.parseText(f);
        ToolUse tools = ToolUse.parse(f, ToolUse.Shape.FLAT);
        GenerationFields.unsupported(
                f, "max_tool_calls", "'max_tool_calls' is not supported; use 'parallel_tool_calls' to allow one call.");
        boolean separateReasoning = ChatTurn.separateReasoning(f);
        ResponseObjects.Reasoning reasoning = reasoning(f);
        Map<String, Object> variables = new LinkedHashMap<>(ChatMessages.templateVariables(f));
        if (reasoning.effort() != null) {
            variables.putIfAbsent("reasoning_effort", reasoning.effort());
        }
        String truncation = f.optString("truncation").orElse("disabled");
        if (!truncation.equals("disabled")) {
            throw f.invalid(
                    "truncation",
                    "Only 'truncation': 'disabled' is supported: a conversation longer than the context is refused"
                            + " with a 400 rather than shortened.",
                    "unsupported_parameter");
        }
        Map<String, String> metadata = GenerationFields.metadata(f);
        String user = GenerationFields.user(f).orElse(null);
        // accepted and without effect here: OpenAI's billing, caching and safety hints
        f.optString("service_tier");
        f.optString("safety_identifier");
        f.optString("prompt_cache_key");
        f.optString("prompt_cache_retention");
        GenerationFields.unsupported(f, "prompt", "Stored prompt templates are not supported; send 'input'.");
        f.rejectUnknown();
        Echo echo = new Echo(
                orDefault(body.get("text"), defaultText()),
                orDefault(body.get("tool_choice"), JsonNodeFactory.instance.stringNode("auto")),
                orDefault(body.get("tools"), JsonNodeFactory.instance.arrayNode()),
                tools.parallel(),
                reasoning,
                metadata,
                user);
        return new ResponsesRequest(
                model,
                messages,
                instructions,
                maxOutputTokens,
                sampling,
                stream,
                topLogprobs,
                ignoreEos,
                Map.copyOf(variables),
                tools,
                format,
                separateReasoning,
                echo);
    }

    /** Refuses what would need responses kept between requests. */
    private static void stateless(RequestFields f) {
        if (f.optBoolean("store").orElse(false)) {
            throw f.invalid(
                    "store",
                    "This server does not store responses: send 'store': false (or leave it out) and the whole"
                            + " conversation in 'input'.",
                    "unsupported_parameter");
        }
        GenerationFields.unsupported(
                f,
                "previous_response_id",
                "This server does not store responses, so 'previous_response_id' cannot be used: send the whole"
                        + " conversation in 'input' (earlier output items can be sent back as they came).");
        GenerationFields.unsupported(
                f, "conversation", "This server does not store conversations: send the whole conversation in 'input'.");
        if (f.optBoolean("background").orElse(false)) {
            throw f.invalid(
                    "background",
                    "Background responses are not supported: they are kept for retrieval, and this server stores"
                            + " no responses. Use 'stream': true for long answers.",
                    "unsupported_parameter");
        }
    }

    /** {@code stream}, and {@code stream_options} (whose one option, obfuscation padding, is never sent here). */
    private static boolean stream(RequestFields f) {
        boolean stream = f.optBoolean("stream").orElse(false);
        JsonNode options = f.raw("stream_options");
        if (options != null) {
            if (!stream) {
                throw f.invalid(
                        "stream_options", "The 'stream_options' parameter is only allowed when 'stream' is true.");
            }
            RequestFields o = RequestFields.nested(options, f.path("stream_options"));
            o.optBoolean("include_obfuscation");
            o.rejectUnknown();
        }
        return stream;
    }

    /**
     * {@code include} and {@code top_logprobs}: the message's log-probabilities come with
     * {@code message.output_text.logprobs} (or with {@code top_logprobs} alone), with that many
     * alternatives per token.
     */
    private static int logprobs(RequestFields f, ApiProperties limits) {
        boolean asked = false;
        JsonNode include = f.raw("include");
        if (include != null) {
            if (!include.isArray()) {
                throw RequestFields.typeError(f.path("include"), "an array of strings", include);
            }
            for (int i = 0; i < include.size(); i++) {
                JsonNode v = include.get(i);
                String path = f.path("include") + "[" + i + "]";
                if (!v.isString()) {
                    throw RequestFields.typeError(path, "a string", v);
                }
                if (!INCLUDABLE.contains(v.stringValue())) {
                    throw new InvalidRequestException(
                            path,
                            "Invalid value for '" + path + "': '" + v.stringValue() + "'. Supported values are: "
                                    + String.join(
                                            ", ", INCLUDABLE.stream().sorted().toList()) + ".",
                            "invalid_value");
                }
                asked |= v.stringValue().equals("message.output_text.logprobs");
            }
        }
        OptionalInt top = f.optInt("top_logprobs", 0, limits.maxLogprobs());
        return asked || top.isPresent() ? top.orElse(0) : -1;
    }

    /** {@code reasoning}: the effort (for templates that take one) and the summary setting, echoed. */
    private static ResponseObjects.Reasoning reasoning(RequestFields f) {
        JsonNode node = f.raw("reasoning");
        if (node == null) {
            return new ResponseObjects.Reasoning(null, null);
        }
        RequestFields r = RequestFields.nested(node, f.path("reasoning"));
        String effort = r.optString("effort").orElse(null);
        String summary = r.optString("summary").orElse(null);
        r.optString("generate_summary");
        r.rejectUnknown();
        return new ResponseObjects.Reasoning(effort, summary);
    }

    private static ObjectNode defaultText() {
        ObjectNode text = JsonNodeFactory.instance.objectNode();
        text.putObject("format").put("type", "text");
        return text;
    }

    private static JsonNode orDefault(JsonNode sent, JsonNode otherwise) {
        return sent == null || sent.isNull() ? otherwise : sent;
    }
}
