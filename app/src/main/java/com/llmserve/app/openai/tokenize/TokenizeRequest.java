package com.llmserve.app.openai.tokenize;

import com.llmserve.app.openai.InvalidRequestException;
import com.llmserve.app.openai.RequestFields;
import com.llmserve.app.openai.chat.ChatMessages;
import com.llmserve.engine.chat.ChatMessage;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * A parsed {@code POST /tokenize} body (vLLM's): exactly one of a prompt and a conversation.
 * Whether the model has a chat template, and the tokens themselves, come later from the model.
 *
 * @param prompt    the text, or null when {@code messages} is given
 * @param messages  the conversation, or null when {@code prompt} is given
 * @param variables {@code chat_template_kwargs}
 */
record TokenizeRequest(
        String model,
        boolean addSpecialTokens,
        boolean returnTokenStrs,
        String prompt,
        List<ChatMessage> messages,
        boolean addGenerationPrompt,
        Map<String, Object> variables) {

    static TokenizeRequest parse(JsonNode body) {
        RequestFields f = RequestFields.of(body);
        String model = f.requiredString("model");
        boolean addSpecial = f.optBoolean("add_special_tokens").orElse(true);
        boolean returnStrs = f.optBoolean("return_token_strs").orElse(false);
        boolean hasPrompt = f.has("prompt");
        boolean hasMessages = f.has("messages");
        if (hasPrompt == hasMessages) {
            throw new InvalidRequestException(
                    hasPrompt ? "messages" : "prompt",
                    "Send exactly one of 'prompt' and 'messages'.",
                    hasPrompt ? "conflicting_parameters" : "missing_required_parameter");
        }
        String prompt = f.optString("prompt").orElse(null);
        List<ChatMessage> messages = hasMessages ? ChatMessages.parse(f) : null;
        boolean addGenerationPrompt = f.optBoolean("add_generation_prompt").orElse(true);
        Map<String, Object> variables = ChatMessages.templateVariables(f);
        f.rejectUnknown();
        return new TokenizeRequest(model, addSpecial, returnStrs, prompt, messages, addGenerationPrompt, variables);
    }
}
