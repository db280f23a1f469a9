package com.llmserve.engine.chat;

import com.hubspot.jinjava.interpret.JinjavaInterpreter;
import com.hubspot.jinjava.interpret.RenderResult;
import com.hubspot.jinjava.interpret.TemplateError;
import com.hubspot.jinjava.objects.collections.PyList;
import com.hubspot.jinjava.objects.collections.PyMap;
import com.llmserve.engine.gguf.GgufMetadata;
import com.llmserve.engine.tokenizer.Tokenizer;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A model's chat template: the Jinja2 source in {@code tokenizer.chat_template} that turns a
 * conversation into the prompt text the model was trained on. Rendered with Jinjava, set up to
 * behave like Hugging Face's {@code apply_chat_template}: {@code trim_blocks} and
 * {@code lstrip_blocks}, one trailing newline of the source dropped, Python operator precedence,
 * and in the context {@code messages}, {@code add_generation_prompt}, {@code bos_token},
 * {@code eos_token}, {@code raise_exception(msg)}, {@code strftime_now(fmt)}, a {@code tojson}
 * filter that writes JSON as Python does, Python's {@code str}/{@code dict} methods
 * ({@code strip}, {@code split}, {@code startswith}, {@code get}, {@code items}, ...),
 * {@code namespace()}, loop controls and {@code {% filter %}} blocks. {@code tools} and
 * {@code documents} are undefined (no tool calling yet).
 *
 * <p>Immutable and thread-safe. The rendered text contains the template's special tokens as text
 * (for example {@code <|im_start|>}), so encode it with {@code parseSpecial = true}. It contains
 * {@code bos_token} where the template writes one, so add BOS when encoding only if the model
 * wants one and the text does not already start with it:
 * {@code addSpecial = tokenizer.addsBos() && !prompt.startsWith(bosText)}.
 *
 * <p>Known differences from Jinja2: an unknown filter or test renders nothing instead of failing;
 * two closing braces of a dict literal inside an expression end the expression early (a space
 * between them avoids it); {@code ~} joins none as nothing where Python writes "None".
 */
public final class ChatTemplate {

    /**
     * The template for models without one: ChatML, the markup of Qwen2.5, SmolLM2 and many
     * fine-tunes, and llama.cpp's own fallback. Each message becomes
     * {@code <|im_start|>ROLE\nCONTENT<|im_end|>\n}; the generation prompt is
     * {@code <|im_start|>assistant\n}. No BOS is written. Tools are written the way Qwen2.5's
     * template writes them (Hermes style): their JSON signatures in a system turn inside
     * {@code <tools>}, the assistant's calls as {@code <tool_call>} JSON blocks, results as
     * {@code <tool_response>} blocks in a user turn; so tool calling works with this template.
     */
    public static final String CHATML = """
            {%- if tools -%}
            {{- '<|im_start|>system\\n' -}}
            {%- if messages[0]['role'] == 'system' -%}{{- messages[0]['content'] + '\\n\\n' -}}{%- endif -%}
            {{- '# Tools\\n\\nYou may call one or more functions to assist with the user query.\\n\\n' -}}
            {{- 'You are provided with function signatures within <tools></tools> XML tags:\\n<tools>' -}}
            {%- for tool in tools -%}{{- '\\n' + (tool | tojson) -}}{%- endfor -%}
            {{- '\\n</tools>\\n\\nFor each function call, return a json object with function name and arguments' -}}
            {{- ' within <tool_call></tool_call> XML tags:\\n<tool_call>\\n{"name": <function-name>, "arguments": <args-json-object>}' -}}
            {{- '\\n</tool_call><|im_end|>\\n' -}}
            {%- endif -%}
            {%- for message in messages -%}
            {%- if tools and loop.first and message['role'] == 'system' -%}
            {%- elif message['role'] == 'tool' -%}
            {{- '<|im_start|>user\\n<tool_response>\\n' + (message['content'] or '') + '\\n</tool_response><|im_end|>\\n' -}}
            {%- elif message['role'] == 'assistant' and message['tool_calls'] -%}
            {{- '<|im_start|>assistant\\n' + (message['content'] or '') -}}
            {%- for call in message['tool_calls'] -%}
            {%- if (loop.first and message['content']) or not loop.first -%}{{- '\\n' -}}{%- endif -%}
            {{- '<tool_call>\\n{"name": "' + call['function']['name'] + '", "arguments": ' -}}
            {%- if call['function']['arguments'] is string -%}{{- call['function']['arguments'] -}}
            {%- else -%}{{- call['function']['arguments'] | tojson -}}{%- endif -%}
            {{- '}\\n</tool_call>' -}}
            {%- endfor -%}
            {{- '<|im_end|>\\n' -}}
            {%- else -%}
            {{- '<|im_start|>' + message['role'] + '\\n' + (message['content'] or '') + '<|im_end|>\\n' -}}
            {%- endif -%}
            {%- endfor -%}
            {%- if add_generation_prompt -%}
            {{- '<|im_start|>assistant\\n' -}}
            {%- endif -%}""";

    private static final Jinja2Engine ENGINE = Jinja2Engine.create();

    /** How long one rendering may take: templates render in milliseconds, a model file's loop need not end. */
    static final Duration DEFAULT_RENDER_TIME_LIMIT = Duration.ofSeconds(5);

    private final String source;
    private final String bosToken;
    private final String eosToken;
    private final Clock clock;
    private final boolean fallback;
    private final Duration renderTimeLimit;

    private ChatTemplate(
            String source, String bosToken, String eosToken, Clock clock, boolean fallback, Duration renderTimeLimit) {
        this.source = source;
        this.bosToken = bosToken;
        this.eosToken = eosToken;
        this.clock = clock;
        this.fallback = fallback;
        this.renderTimeLimit = renderTimeLimit;
    }

    /**
     * Parses a template.
     *
     * @param bosToken the text of the model's BOS token ({@code bos_token}), empty if it has none
     * @param eosToken the text of the model's EOS token ({@code eos_token}), empty if it has none
     * @throws ChatTemplateException ({@link ChatTemplateException.Reason#INVALID_TEMPLATE}) when the
     *                               source does not parse
     */
    public static ChatTemplate of(String jinjaSource, String bosToken, String eosToken) {
        Objects.requireNonNull(jinjaSource, "jinjaSource");
        ChatTemplate template = new ChatTemplate(
                jinjaSource,
                Objects.requireNonNullElse(bosToken, ""),
                Objects.requireNonNullElse(eosToken, ""),
                Clock.systemDefaultZone(),
                false,
                DEFAULT_RENDER_TIME_LIMIT);
        template.checkSyntax();
        return template;
    }

    /** The {@link #CHATML} template, for models whose file has no chat template. */
    public static ChatTemplate fallback(String bosToken, String eosToken) {
        return new ChatTemplate(
                CHATML,
                Objects.requireNonNullElse(bosToken, ""),
                Objects.requireNonNullElse(eosToken, ""),
                Clock.systemDefaultZone(),
                true,
                DEFAULT_RENDER_TIME_LIMIT);
    }

    /**
     * The template of a GGUF model: {@code tokenizer.chat_template}, or {@link #fallback} when the
     * file has none; {@code bos_token} and {@code eos_token} are the texts of the tokenizer's
     * BOS and EOS tokens.
     */
    public static ChatTemplate fromGguf(GgufMetadata metadata, Tokenizer tokenizer) {
        String bos = tokenizer.bos().isPresent()
                ? tokenizer.tokenText(tokenizer.bos().getAsInt())
                : "";
        String eos = tokenizer.eos().isPresent()
                ? tokenizer.tokenText(tokenizer.eos().getAsInt())
                : "";
        return metadata.findString("tokenizer.chat_template")
                .map(src -> of(src, bos, eos))
                .orElseGet(() -> fallback(bos, eos));
    }

    /** The same template with another clock for {@code strftime_now} (Llama 3.x writes today's date). */
    public ChatTemplate withClock(Clock clock) {
        return new ChatTemplate(
                source, bosToken, eosToken, Objects.requireNonNull(clock, "clock"), fallback, renderTimeLimit);
    }

    /** The same template with another limit on the time one rendering may take. */
    public ChatTemplate withRenderTimeLimit(Duration limit) {
        if (limit.isNegative() || limit.isZero()) {
            throw new IllegalArgumentException("a render time limit must be positive: " + limit);
        }
        return new ChatTemplate(source, bosToken, eosToken, clock, fallback, limit);
    }

    /** Whether this is the {@link #CHATML} fallback rather than the model's own template. */
    public boolean isFallback() {
        return fallback;
    }

    public String source() {
        return source;
    }

    /**
     * Renders a conversation.
     *
     * @param addGenerationPrompt end with the header of an assistant turn, so the model answers
     * @throws ChatTemplateException when the template raises (the conversation is refused) or fails
     */
    public String render(List<ChatMessage> messages, boolean addGenerationPrompt) {
        return render(messages, addGenerationPrompt, Map.of());
    }

    /**
     * Renders a conversation with extra template variables, as the keyword arguments of Hugging
     * Face's {@code apply_chat_template} (for example {@code date_string} for Llama 3.1, or
     * {@code enable_thinking}). Maps and lists in the values become Jinja dicts and lists.
     */
    public String render(List<ChatMessage> messages, boolean addGenerationPrompt, Map<String, ?> variables) {
        long started = System.nanoTime();
        try {
            return render(messages, addGenerationPrompt, variables, false);
        } catch (ChatTemplateException e) {
            // Templates written for text content (Qwen3's tests `'</think>' in content`) fail on the
            // null content of an assistant turn that only calls tools, which OpenAI clients send;
            // such a turn renders again with empty content, as llama.cpp's templates polyfill it.
            boolean timeLeft = System.nanoTime() - started < renderTimeLimit.toNanos() / 2;
            if (e.reason() != ChatTemplateException.Reason.RENDER_FAILED
                    || !timeLeft
                    || messages.stream().noneMatch(m -> m.content() == null)) {
                throw e;
            }
            return render(messages, addGenerationPrompt, variables, true);
        }
    }

    private String render(
            List<ChatMessage> messages, boolean addGenerationPrompt, Map<String, ?> variables, boolean nullAsEmpty) {
        Map<String, Object> context = new HashMap<>();
        variables.forEach((k, v) -> context.put(k, toJinja(v)));
        List<Object> list = new ArrayList<>(messages.size());
        for (ChatMessage m : messages) {
            Map<String, Object> map = new LinkedHashMap<>();
            map.put("role", m.role());
            map.put("content", m.content() == null && nullAsEmpty ? "" : m.content());
            m.fields().forEach((k, v) -> map.put(k, toJinja(v)));
            list.add(new PyMap(map));
        }
        context.put("messages", new PyList(list));
        context.put("add_generation_prompt", addGenerationPrompt);
        context.put("bos_token", bosToken);
        context.put("eos_token", eosToken);
        // Functions are not variables in Jinjava; these make "strftime_now is defined" true, as
        // in Hugging Face, where Llama 3.2 then writes today's date instead of its fixed default.
        context.put("strftime_now", TemplateFunctions.DEFINED);
        context.put("raise_exception", TemplateFunctions.DEFINED);

        RenderResult result;
        boolean expired;
        try (RenderDeadline deadline = new RenderDeadline(renderTimeLimit)) {
            result = ScopedValue.where(TemplateFunctions.CLOCK, clock)
                    .call(() -> ENGINE.renderForResult(jinja2Source(), context));
            expired = deadline.expired();
        } catch (TemplateFunctions.Raised raised) {
            throw raisedByTemplate(raised);
        } catch (RuntimeException e) {
            // what Jinjava throws instead of reporting an error (a parse that checkSyntax passed will not)
            throw new ChatTemplateException(ChatTemplateException.Reason.RENDER_FAILED, "chat template failed: " + e);
        }
        List<TemplateError> fatal =
                result.getErrors().stream().filter(ChatTemplate::isFatal).toList();
        if (!fatal.isEmpty() && expired) {
            throw new ChatTemplateException(
                    ChatTemplateException.Reason.RENDER_FAILED,
                    "chat template did not finish rendering within " + renderTimeLimit.toMillis() + " ms");
        }
        for (TemplateError error : fatal) {
            TemplateFunctions.Raised raised = findRaised(error.getException());
            if (raised != null) {
                throw raisedByTemplate(raised);
            }
        }
        if (!fatal.isEmpty()) {
            throw new ChatTemplateException(
                    ChatTemplateException.Reason.RENDER_FAILED, "chat template failed: " + describe(fatal));
        }
        return result.getOutput();
    }

    private void checkSyntax() {
        JinjavaInterpreter interpreter = ENGINE.newInterpreter();
        try {
            interpreter.parse(jinja2Source());
        } catch (RuntimeException e) {
            // Jinjava's scanner throws on some malformed sources (found by ChatTemplateFuzzTests)
            throw new ChatTemplateException(
                    ChatTemplateException.Reason.INVALID_TEMPLATE, "chat template does not parse: " + e);
        }
        List<TemplateError> fatal =
                interpreter.getErrors().stream().filter(ChatTemplate::isFatal).toList();
        if (!fatal.isEmpty()) {
            throw new ChatTemplateException(
                    ChatTemplateException.Reason.INVALID_TEMPLATE, "chat template does not parse: " + describe(fatal));
        }
    }

    private static boolean isFatal(TemplateError e) {
        return e.getSeverity() == TemplateError.ErrorType.FATAL;
    }

    /** Jinja2 drops a single trailing newline of the source (keep_trailing_newline=False). */
    private String jinja2Source() {
        if (source.endsWith("\r\n")) {
            return source.substring(0, source.length() - 2);
        }
        return source.endsWith("\n") ? source.substring(0, source.length() - 1) : source;
    }

    private static ChatTemplateException raisedByTemplate(TemplateFunctions.Raised raised) {
        return new ChatTemplateException(ChatTemplateException.Reason.RAISED_BY_TEMPLATE, raised.getMessage());
    }

    private static TemplateFunctions.Raised findRaised(Throwable t) {
        for (int depth = 0; t != null && depth < 16; depth++, t = t.getCause()) {
            if (t instanceof TemplateFunctions.Raised raised) {
                return raised;
            }
        }
        return null;
    }

    /** The first error, which the others usually follow from, with its line. */
    private static String describe(List<TemplateError> errors) {
        TemplateError first = errors.getFirst();
        String message = first.getMessage() + (first.getLineno() > 0 ? " (line " + first.getLineno() + ")" : "");
        return errors.size() == 1 ? message : message + " (and " + (errors.size() - 1) + " more errors)";
    }

    private static Object toJinja(Object value) {
        return switch (value) {
            case Map<?, ?> map -> {
                Map<String, Object> copy = new LinkedHashMap<>();
                map.forEach((k, v) -> copy.put(String.valueOf(k), toJinja(v)));
                yield new PyMap(copy);
            }
            case List<?> list ->
                new PyList(
                        new ArrayList<>(list.stream().map(ChatTemplate::toJinja).toList()));
            case null -> null;
            default -> value;
        };
    }
}
