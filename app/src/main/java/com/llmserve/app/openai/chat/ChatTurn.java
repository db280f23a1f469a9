package com.llmserve.app.openai.chat;

import com.llmserve.app.models.ServedTextModel;
import com.llmserve.app.openai.AnswerGrammars;
import com.llmserve.app.openai.OutputFormat;
import com.llmserve.app.openai.RequestFields;
import com.llmserve.engine.chat.ChatMessage;
import com.llmserve.engine.chat.ReasoningSplitter;
import com.llmserve.engine.chat.tools.ToolCallFormat;
import com.llmserve.engine.grammar.TokenAutomaton;
import java.util.List;
import java.util.Map;

/**
 * A conversation made ready for a model, the same way for chat completions and the Responses
 * API: the prompt rendered with the model's template (the tools included), the grammar the answer
 * must follow (forced tool calls, else the output format), and how the answer is to be read.
 *
 * @param grammar the language of the answer, or null for free text
 */
public record ChatTurn(ChatPrompt.Rendered prompt, TokenAutomaton grammar, AnswerReader.Options reading) {

    /**
     * @param variables         the template's extra variables (the tools are added to them)
     * @param separateReasoning whether {@code <think>} text is read apart from the answer
     * @throws com.llmserve.app.openai.InvalidRequestException naming the schema or grammar that cannot be compiled,
     *                                                         or a message that cannot be encoded
     * @throws com.llmserve.engine.chat.ChatTemplateException  when the template refuses or fails
     */
    public static ChatTurn prepare(
            AnswerGrammars grammars,
            ServedTextModel model,
            List<ChatMessage> messages,
            boolean addGenerationPrompt,
            Map<String, Object> variables,
            ToolUse tools,
            OutputFormat format,
            boolean separateReasoning) {
        String template = model.chatTemplate().source();
        ToolCallFormat calls = ToolCallFormat.detect(template);
        TokenAutomaton grammar =
                tools.forced() ? ToolGrammars.forcedCalls(grammars, model, tools, calls) : grammars.of(model, format);
        ChatPrompt.Rendered prompt =
                ChatPrompt.render(model, messages, addGenerationPrompt, tools.templateVariables(variables));
        return new ChatTurn(prompt, grammar, reading(tools, separateReasoning, template, calls, prompt, grammar));
    }

    /**
     * How the answers are read. Thinking is separated for templates that think; an answer held to a
     * grammar has none (the grammar leaves no room for it). Forced calls are read in the format the
     * grammar wrote them in.
     */
    private static AnswerReader.Options reading(
            ToolUse tools,
            boolean separateReasoning,
            String template,
            ToolCallFormat format,
            ChatPrompt.Rendered prompt,
            TokenAutomaton grammar) {
        boolean reasoning = separateReasoning && grammar == null && template.contains("<think>");
        ToolCallFormat calls = !tools.active() ? null : tools.forced() ? ToolGrammars.reading(format) : format;
        return new AnswerReader.Options(
                reasoning, reasoning && ReasoningSplitter.opensThinking(prompt.text()), calls, tools.names());
    }

    /** llama.cpp's {@code reasoning_format}: {@code none} keeps thinking inline; {@code auto}/{@code deepseek} separate it. */
    public static boolean separateReasoning(RequestFields f) {
        String v = f.optString("reasoning_format").orElse("auto");
        return switch (v) {
            case "none" -> false;
            case "auto", "deepseek", "deepseek-legacy" -> true;
            default ->
                throw f.invalid(
                        "reasoning_format",
                        "Invalid value for 'reasoning_format': '" + v
                                + "'. Supported values are: 'auto', 'deepseek' and 'none'.",
                        "invalid_value");
        };
    }
}
