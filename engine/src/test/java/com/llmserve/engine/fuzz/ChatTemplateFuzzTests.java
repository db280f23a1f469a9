package com.llmserve.engine.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.llmserve.engine.chat.ChatMessage;
import com.llmserve.engine.chat.ChatTemplate;
import com.llmserve.engine.chat.ChatTemplateException;
import java.time.Duration;
import java.util.List;

/**
 * Chat templates from a model file, and messages from a client, both hostile: a template parses
 * or is refused, renders or fails with {@link ChatTemplateException}, within its time limit; no
 * other exception and no error may come out.
 */
class ChatTemplateFuzzTests {

    @FuzzTest(maxDuration = "20s")
    void anyTemplateAndMessagesRenderOrFailAsDocumented(FuzzedDataProvider data) {
        String content = data.consumeString(200);
        String source = data.consumeRemainingAsString();
        ChatTemplate template;
        try {
            template = ChatTemplate.of(source, "<s>", "</s>").withRenderTimeLimit(Duration.ofMillis(200));
        } catch (ChatTemplateException refused) {
            return;
        }
        try {
            template.render(List.of(ChatMessage.system("Be brief."), ChatMessage.user(content)), true);
        } catch (ChatTemplateException failed) {
            // raised by the template, or failed while rendering: the documented outcome
        }
    }
}
