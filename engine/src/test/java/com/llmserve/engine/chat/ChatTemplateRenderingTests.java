package com.llmserve.engine.chat;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.engine.TestData;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The Hugging Face chat templates in {@code shared/tokenizers/chat-templates}, and this module's own
 * in {@code src/test/resources/.../chat/templates} (families newer than the shared folder: Qwen3,
 * Gemma 3), render fixed conversations to the text their formats prescribe. The expected texts
 * are one file per template and case under {@code src/test/resources/.../chat/expected/TEMPLATE/}:
 * the file name is the conversation, whether the generation prompt is added ({@code gen}) or not
 * ({@code nogen}), and optionally a {@link #VARIANTS variant} of the template variables. The first
 * ones were written by hand; the module's own templates' were rendered by Python's jinja2 the way
 * transformers renders them ({@code bench/tools/render_chat_expected.py}, whose {@code --check}
 * also confirms the hand-written ones). That script mirrors {@link #CONVERSATIONS},
 * {@link #VARIANTS} and {@link #model}: change them together.
 */
class ChatTemplateRenderingTests {

    static final Clock MARCH_4_2025 = Clock.fixed(Instant.parse("2025-03-04T10:00:00Z"), ZoneOffset.UTC);

    static final ChatMessage SYSTEM = ChatMessage.system("You are a helpful assistant.");
    static final ChatMessage HELLO = ChatMessage.user("Hello!");
    static final ChatMessage ANSWER = ChatMessage.assistant("Hi! How can I help?");
    static final ChatMessage QUESTION = ChatMessage.user("What is 2+2?");
    static final ChatMessage THINKING_ANSWER =
            ChatMessage.assistant("<think>\nThe user greets me.\n</think>\n\nHi! How can I help?");

    static final ChatMessage REASONED_ANSWER =
            new ChatMessage("assistant", "Hi! How can I help?", Map.of("reasoning_content", "The user greets me."));
    static final ChatMessage PADDED_SYSTEM = ChatMessage.system("You are a helpful assistant.\n");
    static final ChatMessage PADDED_HELLO = ChatMessage.user("\n  Hello!  \n");

    static final Map<String, Object> WEATHER_TOOL = orderedMap(
            "type",
            "function",
            "function",
            orderedMap(
                    "name",
                    "get_weather",
                    "description",
                    "The current weather in a city.",
                    "parameters",
                    orderedMap(
                            "type",
                            "object",
                            "properties",
                            Map.of("city", Map.of("type", "string")),
                            "required",
                            List.of("city"))));
    static final ChatMessage WEATHER_QUESTION = ChatMessage.user("What is the weather in Paris?");
    static final ChatMessage WEATHER_CALL = new ChatMessage(
            "assistant",
            "<think>\nI should call the tool.\n</think>\n\n",
            Map.of(
                    "tool_calls",
                    List.of(orderedMap(
                            "id",
                            "call_1",
                            "type",
                            "function",
                            "function",
                            orderedMap("name", "get_weather", "arguments", Map.of("city", "Paris"))))));
    static final ChatMessage WEATHER_RESULT =
            new ChatMessage("tool", "{\"temperature\": 21}", Map.of("tool_call_id", "call_1"));

    /** A conversation and the template variables it needs (the tools it offers). */
    record Conversation(List<ChatMessage> messages, Map<String, Object> variables) {
        Conversation(ChatMessage... messages) {
            this(List.of(messages), Map.of());
        }
    }

    static final Map<String, Conversation> CONVERSATIONS = Map.of(
            "system-user-assistant-user", new Conversation(SYSTEM, HELLO, ANSWER, QUESTION),
            "user-assistant-user", new Conversation(HELLO, ANSWER, QUESTION),
            "user", new Conversation(HELLO),
            "thinking-history", new Conversation(HELLO, THINKING_ANSWER, QUESTION),
            "user-thinking-answer", new Conversation(HELLO, THINKING_ANSWER),
            "user-reasoned-answer", new Conversation(HELLO, REASONED_ANSWER),
            "padded-system-user", new Conversation(PADDED_SYSTEM, PADDED_HELLO),
            "tool-call-result",
                    new Conversation(
                            List.of(SYSTEM, WEATHER_QUESTION, WEATHER_CALL, WEATHER_RESULT),
                            Map.of("tools", List.of(WEATHER_TOOL))));

    /** More template variables, by the name a case file carries after gen/nogen. */
    static final Map<String, Map<String, Object>> VARIANTS = Map.of("nothink", Map.of("enable_thinking", false));

    /** A map that keeps its keys in order, as a JSON object does: templates write tools with tojson. */
    static Map<String, Object> orderedMap(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    /** The BOS and EOS texts of the models that ship each template, and extra variables it needs. */
    record Model(String bos, String eos, Map<String, Object> variables) {
        Model(String bos, String eos) {
            this(bos, eos, Map.of());
        }
    }

    static Model model(String template) {
        if (template.startsWith("meta-llama") || template.startsWith("meetkai")) {
            return new Model("<|begin_of_text|>", "<|eot_id|>");
        }
        if (template.startsWith("fireworks")) {
            return new Model("<|begin_of_text|>", "<|eot_id|>", Map.of("functions", "[]", "datetime", "2025-03-04"));
        }
        if (template.startsWith("NousResearch")) {
            return new Model("<|begin_of_text|>", "<|im_end|>");
        }
        if (template.startsWith("Qwen")) {
            return new Model("", "<|im_end|>");
        }
        if (template.startsWith("mistralai")) {
            return new Model("<s>", "</s>");
        }
        if (template.startsWith("google-gemma")) {
            return new Model("<bos>", "<eos>");
        }
        if (template.startsWith("microsoft-Phi")) {
            return new Model("<s>", "<|endoftext|>");
        }
        if (template.contains("deepseek") || template.contains("DeepSeek")) {
            return new Model("<｜begin▁of▁sentence｜>", "<｜end▁of▁sentence｜>");
        }
        if (template.startsWith("CohereForAI")) {
            return new Model("<BOS_TOKEN>", "<|END_OF_TURN_TOKEN|>");
        }
        if (template.equals("fallback-chatml")) {
            return new Model("", "");
        }
        throw new IllegalArgumentException("no model for " + template);
    }

    static ChatTemplate template(String name) throws IOException {
        Model m = model(name);
        ChatTemplate template = name.equals("fallback-chatml")
                ? ChatTemplate.fallback(m.bos(), m.eos())
                : ChatTemplate.of(Files.readString(templateFile(name)), m.bos(), m.eos());
        return template.withClock(MARCH_4_2025);
    }

    /** A template of this module's own {@code templates} folder, or else of the shared folder. */
    static Path templateFile(String name) {
        Path own = ownTemplates().resolve(name + ".jinja");
        return Files.exists(own) ? own : sharedTemplates().resolve(name + ".jinja");
    }

    static Path sharedTemplates() {
        return TestData.shared().resolve("tokenizers").resolve("chat-templates");
    }

    static Path ownTemplates() {
        return resource("templates");
    }

    private static Path resource(String folder) {
        try {
            return Path.of(ChatTemplateRenderingTests.class.getResource(folder).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @TestFactory
    Stream<DynamicTest> everyTemplateRendersTheExpectedText() throws IOException {
        Path root = resource("expected");
        List<DynamicTest> tests = new ArrayList<>();
        List<Path> dirs;
        try (Stream<Path> list = Files.list(root)) {
            dirs = list.sorted().toList();
        }
        for (Path dir : dirs) {
            String name = dir.getFileName().toString();
            List<Path> cases;
            try (Stream<Path> list = Files.list(dir)) {
                cases = list.sorted().toList();
            }
            for (Path file : cases) {
                String caseName = file.getFileName().toString().replaceAll("\\.txt$", "");
                tests.add(DynamicTest.dynamicTest(name + " " + caseName, () -> {
                    // CONVERSATION.gen|nogen[.VARIANT]
                    String[] parts = caseName.split("\\.");
                    Conversation conversation = CONVERSATIONS.get(parts[0]);
                    assertThat(conversation).as("conversation " + parts[0]).isNotNull();
                    assertThat(parts[1]).isIn("gen", "nogen");
                    Map<String, Object> variables = new HashMap<>(model(name).variables());
                    variables.putAll(conversation.variables());
                    if (parts.length > 2) {
                        assertThat(VARIANTS).containsKey(parts[2]);
                        variables.putAll(VARIANTS.get(parts[2]));
                    }
                    String expected = Files.readString(file, StandardCharsets.UTF_8);
                    String rendered = template(name).render(conversation.messages(), parts[1].equals("gen"), variables);
                    assertThat(rendered).isEqualTo(expected);
                }));
            }
        }
        // Every template, shared or the module's own, has expectations.
        for (Path folder : List.of(sharedTemplates(), ownTemplates())) {
            try (Stream<Path> templates = Files.list(folder)) {
                assertThat(dirs.stream().map(d -> d.getFileName().toString()))
                        .containsAll(templates
                                .map(p -> p.getFileName().toString())
                                .filter(n -> n.endsWith(".jinja"))
                                .map(n -> n.replace(".jinja", ""))
                                .toList());
            }
        }
        return tests.stream();
    }
}
