package com.llmserve.app.openai.chat;

import com.llmserve.app.models.ServedTextModel;
import com.llmserve.app.openai.InvalidRequestException;
import com.llmserve.engine.chat.ChatMessage;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** A conversation rendered with the model's chat template and tokenized, as chat and {@code /tokenize} need it. */
public final class ChatPrompt {

    private ChatPrompt() {}

    /**
     * The prompt tokens of a conversation.
     *
     * @throws com.llmserve.engine.chat.ChatTemplateException when the template refuses or fails
     * @throws InvalidRequestException                         when a message's control-token text cannot be kept apart
     */
    public static int[] tokens(
            ServedTextModel model,
            List<ChatMessage> messages,
            boolean addGenerationPrompt,
            Map<String, Object> variables) {
        return render(model, messages, addGenerationPrompt, variables).tokens();
    }

    /** A rendered conversation: its text, and its tokens. */
    public record Rendered(String text, int[] tokens) {}

    /** The rendered text and the prompt tokens of a conversation; throws as {@link #tokens} does. */
    public static Rendered render(
            ServedTextModel model,
            List<ChatMessage> messages,
            boolean addGenerationPrompt,
            Map<String, Object> variables) {
        String rendered = model.chatTemplate().render(messages, addGenerationPrompt, variables);
        List<String> contents = messages.stream()
                .map(ChatMessage::content)
                .filter(Objects::nonNull)
                .toList();
        int[] tokens = model.promptEncoder().encodeChat(rendered, contents);
        if (tokens == null) {
            throw new InvalidRequestException(
                    "messages",
                    "A message contains the text of a control token, and the chat template"
                            + " changes that message's text, so it cannot be encoded safely. Remove the control-token text.",
                    "invalid_content");
        }
        return new Rendered(rendered, tokens);
    }
}
