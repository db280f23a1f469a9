package com.llmserve.engine.chat;

import static com.llmserve.engine.chat.ChatTemplateRenderingTests.ANSWER;
import static com.llmserve.engine.chat.ChatTemplateRenderingTests.HELLO;
import static com.llmserve.engine.chat.ChatTemplateRenderingTests.MARCH_4_2025;
import static com.llmserve.engine.chat.ChatTemplateRenderingTests.QUESTION;
import static com.llmserve.engine.chat.ChatTemplateRenderingTests.SYSTEM;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.llmserve.engine.TestData;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.tokenizer.Tokenizer;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Errors, context and Jinja2 semantics of {@link ChatTemplate}. */
class ChatTemplateBehaviourTests {

    private static String render(String source, List<ChatMessage> messages) {
        return ChatTemplate.of(source, "<s>", "</s>").withClock(MARCH_4_2025).render(messages, true);
    }

    private static String render(String source) {
        return render(source, List.of(HELLO, ANSWER));
    }

    @Test
    void aTemplateThatRaisesGivesItsMessageAsAClientError() throws IOException {
        ChatTemplate gemma = ChatTemplateRenderingTests.template("google-gemma-2-2b-it");
        assertThatThrownBy(() -> gemma.render(List.of(SYSTEM, HELLO), true))
                .isInstanceOf(ChatTemplateException.class)
                .hasMessage("System role not supported")
                .extracting(e -> ((ChatTemplateException) e).reason())
                .isEqualTo(ChatTemplateException.Reason.RAISED_BY_TEMPLATE);
        assertThatThrownBy(() -> gemma.render(List.of(ANSWER, HELLO), true))
                .hasMessage("Conversation roles must alternate user/assistant/user/assistant/...");

        // Gemma 3 takes a system turn (into the first user turn) but still wants turns to alternate.
        ChatTemplate gemma3 = ChatTemplateRenderingTests.template("google-gemma-3-it");
        assertThatThrownBy(() -> gemma3.render(List.of(SYSTEM, HELLO, QUESTION), true))
                .hasMessage("Conversation roles must alternate user/assistant/user/assistant/...");

        ChatTemplate nemo = ChatTemplateRenderingTests.template("mistralai-Mistral-Nemo-Instruct-2407");
        assertThatThrownBy(() -> nemo.render(List.of(HELLO, QUESTION), true))
                .hasMessage("After the optional system message, conversation roles must alternate "
                        + "user/assistant/user/assistant/...");
    }

    @Test
    void aTemplateMissingAVariableItNeedsFailsInsteadOfPrintingNull() throws IOException {
        // firefunction-v2 concatenates `functions` and `datetime`, which only its own server passes.
        ChatTemplate firefunction = ChatTemplateRenderingTests.template("fireworks-ai-llama-3-firefunction-v2");
        assertThatThrownBy(() -> firefunction.render(List.of(HELLO), true))
                .isInstanceOf(ChatTemplateException.class)
                .hasMessageContaining("undefined or none")
                .extracting(e -> ((ChatTemplateException) e).reason())
                .isEqualTo(ChatTemplateException.Reason.RENDER_FAILED);
    }

    @Test
    void aTemplateThatDoesNotParseIsRefusedWhenLoaded() {
        assertThatThrownBy(() -> ChatTemplate.of("{% for m in messages %}{{ m.content }}", "", ""))
                .isInstanceOf(ChatTemplateException.class)
                .hasMessageContaining("endfor")
                .extracting(e -> ((ChatTemplateException) e).reason())
                .isEqualTo(ChatTemplateException.Reason.INVALID_TEMPLATE);
        assertThatThrownBy(() -> ChatTemplate.of("{% frobnicate %}", "", "")).hasMessageContaining("frobnicate");
    }

    @Test
    void callingAnUnknownFunctionOrMethodFails() {
        assertThatThrownBy(() -> render("{{ no_such_function(1) }}"))
                .extracting(e -> ((ChatTemplateException) e).reason())
                .isEqualTo(ChatTemplateException.Reason.RENDER_FAILED);
        assertThatThrownBy(() -> render("{{ messages[0].content.no_such_method() }}"))
                .hasMessageContaining("no_such_method");
    }

    @Test
    void variablesAreTheKeywordArgumentsOfApplyChatTemplate() throws IOException {
        ChatTemplate llama31 = ChatTemplateRenderingTests.template("meta-llama-Llama-3.1-8B-Instruct");
        String rendered = llama31.render(List.of(HELLO), true, Map.of("date_string", "01 Jan 2026"));
        assertThat(rendered).contains("Today Date: 01 Jan 2026\n\n");
        assertThat(render("{{ tools is defined }}|{{ extra.k }}|{{ extra.l[1] }}", List.of(HELLO)))
                .isEqualTo("false||");
        assertThat(ChatTemplate.of("{{ extra.k }}|{{ extra.l[1] }}|{{ extra.l | length }}", "", "")
                        .render(List.of(HELLO), false, Map.of("extra", Map.of("k", "v", "l", List.of(1, 2)))))
                .isEqualTo("v|2|2");
    }

    @Test
    void strftimeNowIsDefinedAndUsesTheTemplatesClock() {
        assertThat(render("{{ strftime_now is defined }} {{ strftime_now('%d %B %Y, %A') }}"))
                .isEqualTo("true 04 March 2025, Tuesday");
    }

    @Test
    void notBindsLooserThanTestsAndComparisonsAsInJinja2() {
        assertThat(render("{{ not add_generation_prompt is defined }}|{{ not 1 == 2 }}|{{ not messages | length }}"
                        + "|{{ not 'x' in 'abc' }}|{% if not messages[0].tool_calls %}no calls{% endif %}"))
                .isEqualTo("false|true|false|true|no calls");
    }

    @Test
    void filtersBindTighterThanPlusAsInJinja2() {
        assertThat(render("{{ '[' + '  x  ' | trim + ']' }}")).isEqualTo("[x]");
    }

    @Test
    void pythonStringMethodsBehaveAsInPython() {
        assertThat(render("{{ '  a b  '.strip() }}|{{ '  a b  '.lstrip() }}|{{ '  a b  '.rstrip() }}"
                        + "|{{ 'xxaxx'.strip('x') }}|{{ 'a.b..c'.split('.') }}|{{ ' a  b '.split() }}"
                        + "|{{ 'a/b/c'.split('/')[-1] }}|{{ 'a/b/c'.rsplit('/', 1)[0] }}|{{ 'abc'.startswith('ab') }}"
                        + "|{{ 'abc'.endswith(('x', 'c')) }}|{{ 'Ab'.upper() }}{{ 'Ab'.lower() }}|{{ 'hello world'.title() }}"
                        + "|{{ 'aaa'.replace('a', 'b', 2) }}|{{ ', '.join(['x', 'y']) }}|{{ 'abcabc'.count('bc') }}"
                        + "|{{ 'abc'.find('c') }}"))
                .isEqualTo("a b|a b  |  a b|a|['a', 'b', '', 'c']|['a', 'b']|c|a/b|true|true|ABab|Hello World"
                        + "|bba|x, y|2|2");
    }

    @Test
    void dictionaryMethodsAndLoopsBehaveAsInPython() {
        assertThat(render("{% set d = {'b': 1, 'a': 2} %}{% for k, v in d.items() %}{{ k }}={{ v }};{% endfor %}"
                        + "|{% for k in d %}{{ k }}{% endfor %}|{{ d.get('a') }}{{ d.get('z', 9) }}{{ d.get('z') }}"
                        + "|{{ 'a' in d }}|{{ d.keys() | list }}"))
                .isEqualTo("b=1;a=2;|ba|29|true|['b', 'a']");
    }

    @Test
    void namespacesLoopControlsAndBlocksWork() {
        assertThat(render("{% set ns = namespace(n=0, last='') %}"
                        + "{% for m in messages %}{% set ns.n = ns.n + 1 %}{% set ns.last = m.role %}{% endfor %}"
                        + "{{ ns.n }} {{ ns.last }}|"
                        + "{% for i in [1, 2, 3, 4] %}{% if i == 2 %}{% continue %}{% endif %}{% if i == 4 %}{% break %}{% endif %}"
                        + "{{ loop.index0 }}{{ i }}{% if loop.first %}F{% endif %}{% endfor %}|"
                        + "{% filter upper %}{{ messages[0].content }}{% endfilter %}|"
                        + "{% generation %}kept{% endgeneration %}|"
                        + "{{ messages[1:] | map(attribute='role') | join(',') }}|{{ messages[-1].content }}|"
                        + "{{ 'ab' * 2 }}|{{ messages | selectattr('role', 'equalto', 'user') | list | length }}"))
                .isEqualTo("2 assistant|01F23|HELLO!|kept|assistant|Hi! How can I help?|abab|1");
    }

    @Test
    void keywordArgumentsTakeAWholeExpressionAsInJinja2() {
        // Qwen3: namespace(multi_step_tool=true, last_query_index=messages|length - 1)
        assertThat(render("{% set ns = namespace(n=messages|length - 1, s='a' ~ 'b', t=1 if false else 2) %}"
                        + "{{ ns.n }}|{{ ns.s }}|{{ ns.t }}"))
                .isEqualTo("1|ab|2");
    }

    @Test
    void slicesWithAStepBehaveAsInPython() {
        // Expected texts from Python's jinja2; Qwen3 walks messages[::-1] to find the last query.
        assertThat(render("{{ [1, 2, 3, 4, 5][::-1] }}|{{ [1, 2, 3, 4, 5][::2] }}|{{ [1, 2, 3, 4, 5][3:0:-1] }}"
                        + "|{{ [1, 2, 3, 4, 5][-2::-2] }}|{{ [1, 2, 3][10:0:-1] }}|{{ 'abcdef'[::-1] }}"
                        + "|{{ 'abcdef'[1:5:2] }}|{{ 'héllo'[::-1] }}"
                        + "|{% for m in messages[::-1] %}{{ loop.index0 }}{{ m.role }},{% endfor %}"
                        + "|{{ messages[1:] | length }}|{{ [1, 2, 3][:2:] }}"))
                .isEqualTo("[5, 4, 3, 2, 1]|[1, 3, 5]|[4, 3, 2]|[4, 2]|[3, 2]|fedcba|bd|olléh"
                        + "|0assistant,1user,|1|[1, 2]");
        assertThatThrownBy(() -> render("{{ messages[::0] }}"))
                .isInstanceOf(ChatTemplateException.class)
                .hasMessageContaining("slice step cannot be zero");
    }

    @Test
    void tojsonWritesJsonAsPythonDoes() {
        assertThat(
                        render(
                                "{{ {'s': 'q\"é\\n', 'f': 0.5, 'g': 1e20, 'i': 3, 'b': true, 'n': none, 'l': [1, 'x']} | tojson }}"))
                .isEqualTo(
                        "{\"s\": \"q\\\"é\\n\", \"f\": 0.5, \"g\": 1e+20, \"i\": 3, \"b\": true, \"n\": null, \"l\": [1, \"x\"]}");
        assertThat(render("{{ {'a': [1, {'b': []}]} | tojson(indent=2) }}"))
                .isEqualTo("{\n  \"a\": [\n    1,\n    {\n      \"b\": []\n    }\n  ]\n}");
        assertThat(render("{{ {'b': 1, 'a': 2} | tojson(sort_keys=true) }}")).isEqualTo("{\"a\": 2, \"b\": 1}");
    }

    @Test
    void pythonFloatReprMatchesPython() {
        assertThat(PythonJson.floatRepr(1.0)).isEqualTo("1.0");
        assertThat(PythonJson.floatRepr(0.1)).isEqualTo("0.1");
        assertThat(PythonJson.floatRepr(12345678.5)).isEqualTo("12345678.5");
        assertThat(PythonJson.floatRepr(1e16)).isEqualTo("1e+16");
        assertThat(PythonJson.floatRepr(0.0001)).isEqualTo("0.0001");
        assertThat(PythonJson.floatRepr(0.00001)).isEqualTo("1e-05");
        assertThat(PythonJson.floatRepr(-2.5e-7)).isEqualTo("-2.5e-07");
    }

    @Test
    void onlyOneTrailingNewlineOfTheSourceIsDropped() {
        assertThat(ChatTemplate.of("x\n", "", "").render(List.of(), false)).isEqualTo("x");
        assertThat(ChatTemplate.of("x\n\n", "", "").render(List.of(), false)).isEqualTo("x\n");
        assertThat(ChatTemplate.of("{{ 'x\\n' }}", "", "").render(List.of(), false))
                .isEqualTo("x\n");
    }

    @Test
    void anAssistantTurnThatOnlyCallsToolsRendersWithEmptyContentWhereTheTemplateNeedsText() throws IOException {
        // OpenAI clients send content null beside tool_calls; Qwen3's template tests '</think>' in it
        ChatTemplate qwen3 = ChatTemplateRenderingTests.template("Qwen-Qwen3-0.6B");
        Map<String, Object> calls = ChatTemplateRenderingTests.WEATHER_CALL.fields();
        List<ChatMessage> withNull = List.of(
                ChatTemplateRenderingTests.WEATHER_QUESTION,
                new ChatMessage("assistant", null, calls),
                ChatTemplateRenderingTests.WEATHER_RESULT);
        List<ChatMessage> withEmpty = List.of(
                ChatTemplateRenderingTests.WEATHER_QUESTION,
                new ChatMessage("assistant", "", calls),
                ChatTemplateRenderingTests.WEATHER_RESULT);
        assertThat(qwen3.render(withNull, true))
                .isEqualTo(qwen3.render(withEmpty, true))
                .contains("<tool_call>\n{\"name\": \"get_weather\"");
        // a template that tells none from text still sees none
        ChatTemplate noneAware = ChatTemplate.of("{% if messages[0].content is none %}none{% endif %}", "", "");
        assertThat(noneAware.render(List.of(new ChatMessage("assistant", null)), false))
                .isEqualTo("none");
        // and a template that fails for another reason still fails
        assertThatThrownBy(() -> ChatTemplate.of("{{ messages[0].content }}{{ no_such_function(1) }}", "", "")
                        .render(List.of(new ChatMessage("assistant", null)), false))
                .isInstanceOf(ChatTemplateException.class);
    }

    @Test
    void theFallbackIsChatMlAndRendersMissingContentAsEmpty() {
        ChatTemplate chatml = ChatTemplate.fallback("", "");
        assertThat(chatml.isFallback()).isTrue();
        assertThat(chatml.render(List.of(new ChatMessage("assistant", null)), false))
                .isEqualTo("<|im_start|>assistant\n<|im_end|>\n");
    }

    @Test
    void aModelWithoutTemplateGetsTheFallbackAndOneWithATemplateGetsItsOwn() throws IOException {
        try (GgufFile stories = GgufFile.open(TestData.model("stories260K.gguf"))) {
            Tokenizer tokenizer = Tokenizer.fromGguf(stories.metadata());
            assertThat(ChatTemplate.fromGguf(stories.metadata(), tokenizer).isFallback())
                    .isTrue();
        }
        try (GgufFile phi3 =
                GgufFile.open(TestData.shared().resolve("tokenizers/llama.cpp-vocab/ggml-vocab-phi-3.gguf"))) {
            Tokenizer tokenizer = Tokenizer.fromGguf(phi3.metadata());
            ChatTemplate template = ChatTemplate.fromGguf(phi3.metadata(), tokenizer);
            assertThat(template.isFallback()).isFalse();
            String prompt = template.render(List.of(SYSTEM, HELLO, ANSWER, QUESTION), true);
            // Phi-3 mini's own template drops the system turn and opens each answer after the question.
            assertThat(prompt)
                    .isEqualTo("<s><|user|>\nHello!<|end|>\n<|assistant|>\nHi! How can I help?<|end|>\n"
                            + "<|user|>\nWhat is 2+2?<|end|>\n<|assistant|>\n");
            // The rendered markers become the control tokens when encoded with special tokens parsed.
            int[] ids = tokenizer.encode(prompt, false, true);
            assertThat(ids[0]).isEqualTo(1); // <s>
            assertThat(ids).contains(32010, 32007, 32001); // <|user|>, <|end|>, <|assistant|>
            assertThat(tokenizer.decode(ids)).doesNotContain("<|user|>");
        }
    }

    @Test
    void aMessageNeedsARole() {
        assertThatIllegalArgumentException().isThrownBy(() -> new ChatMessage(" ", "x"));
    }

    @Test
    void templatesAreSafeToShareBetweenThreads() throws Exception {
        ChatTemplate qwen = ChatTemplate.of(
                Files.readString(ChatTemplateRenderingTests.templateFile("Qwen-Qwen2.5-7B-Instruct")),
                "",
                "<|im_end|>");
        String expected = qwen.render(List.of(HELLO), true);
        try (var executor = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            var futures = new java.util.ArrayList<java.util.concurrent.Future<String>>();
            for (int i = 0; i < 32; i++) {
                futures.add(executor.submit(() -> qwen.render(List.of(HELLO), true)));
            }
            for (var f : futures) {
                assertThat(f.get()).isEqualTo(expected);
            }
        }
    }
}
