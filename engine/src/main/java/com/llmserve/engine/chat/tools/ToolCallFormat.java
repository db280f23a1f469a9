package com.llmserve.engine.chat.tools;

import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Predicate;

/**
 * How a family of models writes function calls, told from the model's Jinja chat template: the
 * template renders earlier calls and tells the model how to write new ones, so it names the markers
 * the model was trained on.
 *
 * <p>For the formats whose calls are JSON objects, {@link #callPrefix()}, {@link #callSuffix()} and
 * {@link #argumentsKey()} describe the text of one call, so that a grammar can force it when a
 * request sets {@code tool_choice}: {@code prefix + {"name": NAME, "KEY": {...}} + suffix}.
 */
public enum ToolCallFormat {

    /**
     * Hermes: {@code <tool_call>\n{"name": "f", "arguments": {...}}\n</tool_call>}, one block per
     * call, content before the first (Qwen2.5, Qwen3, Hermes 2 Pro and 3, many fine-tunes).
     */
    HERMES("<tool_call>\n", "\n</tool_call>", "arguments"),

    /**
     * Llama 3.1, 3.2 and 3.3: the whole output is {@code {"name": "f", "parameters": {...}}},
     * optionally after {@code <|python_tag|>}, several separated by {@code ;}.
     */
    LLAMA3("", "", "parameters"),

    /**
     * Mistral: {@code [TOOL_CALLS][{"name": "f", "arguments": {...}}, ...]} or, with the tekken v11
     * tokenizers on, {@code [TOOL_CALLS]f[ARGS]{...}}. A forced call takes the array form, which
     * every version reads.
     */
    MISTRAL("[TOOL_CALLS][", "]", "arguments"),

    /**
     * gpt-oss's harmony: {@code <|channel|>commentary to=functions.f <|constrain|>json<|message|>{...}<|call|>},
     * reasoning on the {@code analysis} channel, the answer on {@code final}. Calls cannot be forced:
     * the markers are control tokens, which a grammar over text does not produce.
     */
    GPT_OSS(null, null, null);

    private static final String ALPHANUMERICS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

    private final String callPrefix;
    private final String callSuffix;
    private final String argumentsKey;

    ToolCallFormat(String callPrefix, String callSuffix, String argumentsKey) {
        this.callPrefix = callPrefix;
        this.callSuffix = callSuffix;
        this.argumentsKey = argumentsKey;
    }

    /**
     * The format that a chat template's model writes, from the markers in its source; HERMES when
     * it names none, since the server's fallback ChatML template offers tools the Qwen2.5 way.
     * Harmony and Mistral are checked first because their marks are the most specific; Hermes before
     * Llama 3 because Hermes fine-tunes of Llama 3 keep some of its template.
     *
     * @param templateSource the Jinja source, or null when the model has no template
     */
    public static ToolCallFormat detect(String templateSource) {
        if (templateSource == null) {
            return HERMES;
        }
        if (templateSource.contains(HarmonyScanner.CHANNEL)) {
            return GPT_OSS;
        }
        if (templateSource.contains(MistralScanner.TOOL_CALLS)) {
            return MISTRAL;
        }
        if (templateSource.contains(HermesScanner.OPEN)) {
            return HERMES;
        }
        boolean llamaHeaders = templateSource.contains("<|eom_id|>") || templateSource.contains("<|start_header_id|>");
        if (templateSource.contains(Llama3Scanner.PYTHON_TAG)
                || templateSource.contains("\"parameters\"") && llamaHeaders) {
            return LLAMA3;
        }
        return HERMES;
    }

    /** Whether a grammar can force a call: false for GPT_OSS, whose markers are control tokens. */
    public boolean supportsForcedCalls() {
        return argumentsKey != null;
    }

    /**
     * The text before a forced call's JSON object.
     *
     * @throws UnsupportedOperationException when the format does not {@link #supportsForcedCalls()}
     */
    public String callPrefix() {
        return forced(callPrefix);
    }

    /**
     * The text after a forced call's JSON object.
     *
     * @throws UnsupportedOperationException when the format does not {@link #supportsForcedCalls()}
     */
    public String callSuffix() {
        return forced(callSuffix);
    }

    /**
     * The key of the arguments in a call's JSON object: {@code "arguments"}, or {@code "parameters"}
     * for Llama 3.
     *
     * @throws UnsupportedOperationException when the format does not {@link #supportsForcedCalls()}
     */
    public String argumentsKey() {
        return forced(argumentsKey);
    }

    /**
     * A new call id: {@code call_} and 24 random letters and digits, as OpenAI writes them, except
     * for MISTRAL, whose templates refuse any id but 9 letters and digits when the call comes back
     * in the conversation (as vLLM gives them).
     */
    public String newCallId() {
        return this == MISTRAL ? randomAlphanumerics(9) : "call_" + randomAlphanumerics(24);
    }

    /** Reads one output of this format, calls to tools outside {@code knownTool} left as content. */
    Scanner scanner(Predicate<String> knownTool) {
        return switch (this) {
            case HERMES -> new HermesScanner(knownTool);
            case LLAMA3 -> new Llama3Scanner(knownTool);
            case MISTRAL -> new MistralScanner(knownTool);
            case GPT_OSS -> new HarmonyScanner(knownTool);
        };
    }

    private String forced(String text) {
        if (!supportsForcedCalls()) {
            throw new UnsupportedOperationException(
                    name() + " calls cannot be forced: their markers are control tokens, not text");
        }
        return text;
    }

    private static String randomAlphanumerics(int length) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        StringBuilder id = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            id.append(ALPHANUMERICS.charAt(random.nextInt(ALPHANUMERICS.length())));
        }
        return id.toString();
    }
}
