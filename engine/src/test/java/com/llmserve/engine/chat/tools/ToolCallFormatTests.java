package com.llmserve.engine.chat.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.llmserve.engine.TestData;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link ToolCallFormat}: telling the format from a template, and what forcing a call needs. */
class ToolCallFormatTests {

    private static final String QWEN25_EXCERPT = """
            {%- if tools %}
                {{- '<|im_start|>system\\n' }}
                {{- "\\n\\n# Tools\\n\\nYou may call one or more functions to assist with the user query.\\n\\n" }}
                {{- "For each function call, return a json object with function name and arguments within \
            <tool_call></tool_call> XML tags:\\n<tool_call>\\n{\\"name\\": <function-name>, \\"arguments\\": \
            <args-json-object>}\\n</tool_call><|im_end|>\\n" }}
            {%- endif %}""";

    private static final String LLAMA31_EXCERPT = """
            {{- '<|start_header_id|>assistant<|end_header_id|>\\n\\n' -}}
            {%- if builtin_tools is defined and tool_call.name in builtin_tools %}
                {{- "<|python_tag|>" + tool_call.name + ".call(" }}
            {%- endif %}
            {%- if builtin_tools is defined %}
                {{- "<|eom_id|>" }}
            {%- endif %}""";

    private static final String LLAMA32_EXCERPT = """
            {{- "<|start_header_id|>user<|end_header_id|>\\n\\n" -}}
            {{- 'Respond in the format {"name": function name, "parameters": dictionary of argument name and its value}.' }}
            {{- "Do not use variables.\\n\\n" }}""";

    private static final String MISTRAL_EXCERPT = """
            {%- elif message.tool_calls is defined and message.tool_calls is not none %}
                {{- "[TOOL_CALLS][" }}
                {%- for tool_call in message.tool_calls %}
                    {{- '{"name": "' + tool_call.function.name + '", "arguments": ' + tool_call.function.arguments|tojson }}
                {%- endfor %}
                {{- "]" + eos_token }}""";

    private static final String GPT_OSS_EXCERPT = """
            {%- if message.tool_calls %}
                {{- "<|start|>assistant<|channel|>commentary to=functions." + tool_call.name }}
                {{- " <|constrain|>json<|message|>" + tool_call.arguments|tojson + "<|call|>" }}
            {%- endif %}
            {%- if add_generation_prompt %}<|start|>assistant{%- endif %}""";

    private static final String CHATML = """
            {%- for message in messages -%}
            {{- '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>\\n' -}}
            {%- endfor -%}""";

    @Test
    void eachFamilyIsToldFromItsTemplate() {
        assertThat(ToolCallFormat.detect(QWEN25_EXCERPT)).isEqualTo(ToolCallFormat.HERMES);
        assertThat(ToolCallFormat.detect(LLAMA31_EXCERPT)).isEqualTo(ToolCallFormat.LLAMA3);
        assertThat(ToolCallFormat.detect(LLAMA32_EXCERPT)).isEqualTo(ToolCallFormat.LLAMA3);
        assertThat(ToolCallFormat.detect(MISTRAL_EXCERPT)).isEqualTo(ToolCallFormat.MISTRAL);
        assertThat(ToolCallFormat.detect(GPT_OSS_EXCERPT)).isEqualTo(ToolCallFormat.GPT_OSS);
    }

    @Test
    void aTemplateThatNamesNoFormatGetsHermesLikeTheFallbackTemplate() {
        assertThat(ToolCallFormat.detect(CHATML)).isEqualTo(ToolCallFormat.HERMES);
        assertThat(ToolCallFormat.detect(null)).isEqualTo(ToolCallFormat.HERMES);
        // "parameters" alone (Cohere's templates say it) is not Llama 3's.
        assertThat(ToolCallFormat.detect("{{ tool.parameters }} \"parameters\" <|START_OF_TURN_TOKEN|>"))
                .isEqualTo(ToolCallFormat.HERMES);
    }

    @Test
    void hermesFineTunesOfLlamaAreHermes() {
        assertThat(ToolCallFormat.detect(QWEN25_EXCERPT + LLAMA32_EXCERPT)).isEqualTo(ToolCallFormat.HERMES);
    }

    @Test
    void theSharedTemplatesAreToldApart() throws IOException {
        Map<String, ToolCallFormat> expected = Map.of(
                "Qwen-Qwen2.5-7B-Instruct", ToolCallFormat.HERMES,
                "NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use", ToolCallFormat.HERMES,
                "NousResearch-Hermes-3-Llama-3.1-8B-tool_use", ToolCallFormat.HERMES,
                "meta-llama-Llama-3.1-8B-Instruct", ToolCallFormat.LLAMA3,
                "meta-llama-Llama-3.2-3B-Instruct", ToolCallFormat.LLAMA3,
                "meta-llama-Llama-3.3-70B-Instruct", ToolCallFormat.LLAMA3,
                "mistralai-Mistral-Nemo-Instruct-2407", ToolCallFormat.MISTRAL,
                "google-gemma-2-2b-it", ToolCallFormat.HERMES,
                "CohereForAI-c4ai-command-r7b-12-2024-tool_use", ToolCallFormat.HERMES);
        for (Map.Entry<String, ToolCallFormat> template : expected.entrySet()) {
            String source = Files.readString(TestData.shared()
                    .resolve("tokenizers")
                    .resolve("chat-templates")
                    .resolve(template.getKey() + ".jinja"));
            assertThat(ToolCallFormat.detect(source)).as(template.getKey()).isEqualTo(template.getValue());
        }
    }

    @Test
    void theModulesOwnTemplatesAreToldApart() throws IOException {
        // Qwen3 writes Hermes blocks; Gemma 3's template has no tools, so the server's default holds.
        Map<String, ToolCallFormat> expected = Map.of(
                "Qwen-Qwen3-0.6B", ToolCallFormat.HERMES,
                "google-gemma-3-it", ToolCallFormat.HERMES);
        for (Map.Entry<String, ToolCallFormat> template : expected.entrySet()) {
            String source;
            try (var in = ToolCallFormatTests.class.getResourceAsStream(
                    "/com/llmserve/engine/chat/templates/" + template.getKey() + ".jinja")) {
                assertThat(in).as(template.getKey()).isNotNull();
                source = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            assertThat(ToolCallFormat.detect(source)).as(template.getKey()).isEqualTo(template.getValue());
        }
    }

    @Test
    void aForcedCallIsReadBackAsTheCall() {
        for (ToolCallFormat format : List.of(ToolCallFormat.HERMES, ToolCallFormat.LLAMA3, ToolCallFormat.MISTRAL)) {
            assertThat(format.supportsForcedCalls()).isTrue();
            String forced = format.callPrefix() + "{\"name\": \"get_weather\", \"" + format.argumentsKey()
                    + "\": {\"city\": \"Paris\"}}" + format.callSuffix();
            ParsedOutput parsed = new ToolCallParser(format, new SequentialIds()).parse(forced);
            assertThat(parsed.content()).as(format.name()).isNull();
            assertThat(parsed.calls())
                    .as(format.name())
                    .containsExactly(new ToolCall("call_0", "get_weather", "{\"city\":\"Paris\"}"));
        }
        assertThat(ToolCallFormat.HERMES.callPrefix()).isEqualTo("<tool_call>\n");
        assertThat(ToolCallFormat.HERMES.callSuffix()).isEqualTo("\n</tool_call>");
        assertThat(ToolCallFormat.LLAMA3.argumentsKey()).isEqualTo("parameters");
        assertThat(ToolCallFormat.MISTRAL.callPrefix()).isEqualTo("[TOOL_CALLS][");
    }

    @Test
    void gptOssCallsAreNotForcedBecauseTheirMarkersAreControlTokens() {
        assertThat(ToolCallFormat.GPT_OSS.supportsForcedCalls()).isFalse();
        assertThatThrownBy(ToolCallFormat.GPT_OSS::callPrefix)
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("control tokens");
        assertThatThrownBy(ToolCallFormat.GPT_OSS::callSuffix).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(ToolCallFormat.GPT_OSS::argumentsKey).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void callIdsAreOpenAisExceptMistralsWhichItsTemplatesCheck() {
        for (ToolCallFormat format : List.of(ToolCallFormat.HERMES, ToolCallFormat.LLAMA3, ToolCallFormat.GPT_OSS)) {
            assertThat(format.newCallId()).matches("call_[A-Za-z0-9]{24}");
        }
        assertThat(ToolCallFormat.MISTRAL.newCallId()).matches("[A-Za-z0-9]{9}");
        assertThat(ToolCallFormat.HERMES.newCallId()).isNotEqualTo(ToolCallFormat.HERMES.newCallId());
        assertThat(new ToolCallParser(ToolCallFormat.HERMES)
                        .parse("<tool_call>{\"name\": \"f\", \"arguments\": {}}</tool_call>")
                        .calls())
                .singleElement()
                .extracting(ToolCall::id)
                .asString()
                .matches("call_[A-Za-z0-9]{24}");
    }
}
