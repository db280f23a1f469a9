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
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The Hugging Face chat templates in {@code shared/tokenizers/chat-templates} render fixed
 * conversations to the text their formats prescribe. The expected texts are written by hand, one
 * file per template and case, under {@code src/test/resources/.../chat/expected/TEMPLATE/}: the
 * file name is the conversation and whether the generation prompt is added ({@code gen}) or not
 * ({@code nogen}).
 */
class ChatTemplateRenderingTests {

    static final Clock MARCH_4_2025 = Clock.fixed(Instant.parse("2025-03-04T10:00:00Z"), ZoneOffset.UTC);

    static final ChatMessage SYSTEM = ChatMessage.system("You are a helpful assistant.");
    static final ChatMessage HELLO = ChatMessage.user("Hello!");
    static final ChatMessage ANSWER = ChatMessage.assistant("Hi! How can I help?");
    static final ChatMessage QUESTION = ChatMessage.user("What is 2+2?");
    static final ChatMessage THINKING_ANSWER =
            ChatMessage.assistant("<think>\nThe user greets me.\n</think>\n\nHi! How can I help?");

    static final Map<String, List<ChatMessage>> CONVERSATIONS = Map.of(
            "system-user-assistant-user", List.of(SYSTEM, HELLO, ANSWER, QUESTION),
            "user-assistant-user", List.of(HELLO, ANSWER, QUESTION),
            "user", List.of(HELLO),
            "thinking-history", List.of(HELLO, THINKING_ANSWER, QUESTION));

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

    static Path templateFile(String name) {
        return TestData.shared().resolve("tokenizers").resolve("chat-templates").resolve(name + ".jinja");
    }

    @TestFactory
    Stream<DynamicTest> everyTemplateRendersTheExpectedText() throws IOException, URISyntaxException {
        Path root =
                Path.of(ChatTemplateRenderingTests.class.getResource("expected").toURI());
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
                String conversation = caseName.substring(0, caseName.lastIndexOf('.'));
                boolean generationPrompt = caseName.endsWith(".gen");
                tests.add(DynamicTest.dynamicTest(name + " " + caseName, () -> {
                    String expected = Files.readString(file, StandardCharsets.UTF_8);
                    String rendered = template(name)
                            .render(
                                    CONVERSATIONS.get(conversation),
                                    generationPrompt,
                                    model(name).variables());
                    assertThat(rendered).isEqualTo(expected);
                }));
            }
        }
        // Every template in the shared folder has expectations.
        try (Stream<Path> templates = Files.list(templateFile("x").getParent())) {
            assertThat(dirs.stream().map(d -> d.getFileName().toString()))
                    .containsAll(templates
                            .map(p -> p.getFileName().toString().replace(".jinja", ""))
                            .toList());
        }
        return tests.stream();
    }
}
