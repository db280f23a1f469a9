package com.llmserve.engine.chat;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The ChatML fallback writes tools, calls and results the way Qwen2.5's template does. */
class FallbackToolsTemplateTests {

    private static final ChatTemplate TEMPLATE = ChatTemplate.fallback("", "");

    private static final Map<String, Object> WEATHER = Map.of(
            "type",
            "function",
            "function",
            Map.of(
                    "name",
                    "get_weather",
                    "parameters",
                    Map.of("type", "object", "properties", Map.of("city", Map.of("type", "string")))));

    @Test
    void withoutToolsItIsPlainChatMl() {
        String out = TEMPLATE.render(List.of(ChatMessage.system("Be brief."), ChatMessage.user("Hi")), true);
        assertThat(out)
                .isEqualTo(
                        "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n");
    }

    @Test
    void toolsGoIntoTheSystemTurnAndCallsAndResultsAreWrittenAsBlocks() {
        ChatMessage call = new ChatMessage(
                "assistant",
                null,
                Map.of(
                        "tool_calls",
                        List.of(Map.of(
                                "id",
                                "call_1",
                                "type",
                                "function",
                                "function",
                                Map.of("name", "get_weather", "arguments", Map.of("city", "Paris"))))));
        ChatMessage result = new ChatMessage("tool", "{\"temp\": 21}", Map.of("tool_call_id", "call_1"));
        String out = TEMPLATE.render(
                List.of(ChatMessage.system("Be brief."), ChatMessage.user("Weather in Paris?"), call, result),
                true,
                Map.of("tools", List.of(WEATHER)));
        assertThat(out).startsWith("<|im_start|>system\nBe brief.\n\n# Tools\n");
        assertThat(out).containsPattern("<tools>\\n\\{.*\"name\": \"get_weather\".*\\}\\n</tools>");
        assertThat(out).contains("<|im_start|>user\nWeather in Paris?<|im_end|>\n");
        assertThat(out)
                .contains(
                        "<|im_start|>assistant\n<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}\n</tool_call><|im_end|>\n");
        assertThat(out).contains("<|im_start|>user\n<tool_response>\n{\"temp\": 21}\n</tool_response><|im_end|>\n");
        assertThat(out).endsWith("<|im_start|>assistant\n");
        assertThat(out).containsOnlyOnce("Be brief.");
    }
}
