package com.llmserve.engine.tokenizer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The pre-tokenizers of byte-level BPE vocabularies, by the names that {@code tokenizer.ggml.pre}
 * uses. Each is a chain of regular expressions applied the way llama.cpp's
 * {@code unicode_regex_split} applies them: every expression splits each chunk that the previous
 * ones produced, and the text between two matches stays a chunk of its own. A chunk is a closed
 * world for the next expression: {@code $} and look-aheads see its end, not the text after it.
 */
enum BpePreTokenizer {
    DEFAULT(false, false, "[\\p{P}\\$\\+<=>\\^~\\|]+", Re.GPT2, "\\p{N}+", "[0-9][0-9][0-9]"),
    LLAMA3(true, true, Re.LLAMA3),
    DEEPSEEK_LLM(
            false,
            false,
            "[\r\n]",
            "\\s?[" + Re.DEEPSEEK_LETTERS + "]+",
            "\\s?[!-/:-~\\uFF01-\\uFF0F\\uFF1A-\\uFF5E\\u2018-\\u201F\\u3000-\\u3002]+",
            "\\s+\\z",
            "[\\u4E00-\\u9FA5\\u0800-\\u4E00\\uAC00-\\uD7FF]+",
            "\\p{N}+"),
    DEEPSEEK_CODER(
            false,
            false,
            "[\r\n]",
            "\\s?\\p{L}+",
            "\\s?\\p{P}+",
            "[\\u4E00-\\u9FA5\\u0800-\\u4E00\\uAC00-\\uD7FF]+",
            "\\p{N}"),
    DEEPSEEK3_LLM(
            false,
            false,
            "\\p{N}{1,3}",
            "[\\u4E00-\\u9FA5\\u3040-\\u309F\\u30A0-\\u30FF]+",
            "[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+|[^\r\n\\p{L}\\p{P}\\p{S}]?[\\p{L}\\p{M}]+"
                    + "| ?[\\p{P}\\p{S}]+[\r\n]*|\\s*[\r\n]+|\\s+(?!\\S)|\\s+"),
    FALCON(false, false, "[\\p{P}\\$\\+<=>\\^~\\|`]+", Re.GPT2, "[0-9][0-9][0-9]"),
    /** Digits one by one, then GPT-2's expression: StarCoder, Refact, Command-R, SmolLM and others. */
    STARCODER(false, false, "\\p{N}", Re.GPT2),
    GPT2(false, false, Re.GPT2),
    QWEN2(false, false, Re.QWEN2),
    /** Llama 3's expression without its ignore_merges and BOS (llama.cpp also has no default BOS id). */
    CHATGLM4(false, false, Re.LLAMA3),
    PORO(false, false, Re.PORO),
    VIKING(false, false, Re.PORO, "\\p{N}"),
    TEKKEN(
            true,
            true,
            "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+"
                    + "|[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*"
                    + "|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+"),
    CHAMELEON(
            false,
            true,
            "<sentinel:[0-9]+>",
            "(IMGIMG)((A|B|C|D|E|F|G|H|I){1,4})Z",
            "([\\t\\n]|    |  )",
            "\\p{N}",
            "[\\p{P}!-/:-@\\[-`{-~]",
            Re.GPT2),
    GPT4O(
            false,
            false,
            "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?"
                    + "|[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?"
                    + "|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+");

    /** Expressions shared by several pre-tokenizers. */
    private static final class Re {
        static final String GPT2 = "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)";
        // Hugging Face writes the contractions as (?i:'s|...); spelled out here as llama.cpp does.
        static final String LLAMA3 = "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])"
                + "|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";
        static final String QWEN2 = "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])"
                + "|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";
        static final String PORO = " ?[^(\\s|.,!?\\u2026\\u3002\\uFF0C\\u3001\\u0964\\u06D4\\u060C)]+";
        // The cased-letter ranges of DeepSeek LLM's tokenizer.json, as code points. Several of
        // them (U+1F7D, U+1FBE, U+1FD3, U+1FDB, U+2126, U+212A) change under NFC, so they are
        // written as escapes that no editor or copy can normalise.
        static final String DEEPSEEK_LETTERS = "A-Za-z\\u00B5\\u00C0-\\u00D6\\u00D8-\\u00F6\\u00F8-\\u01BA"
                + "\\u01BC-\\u01BF\\u01C4-\\u0293\\u0295-\\u02AF\\u0370-\\u0373\\u0376\\u0377\\u037B-\\u037D\\u037F"
                + "\\u0386\\u0388-\\u038A\\u038C\\u038E-\\u03A1\\u03A3-\\u03F5\\u03F7-\\u0481\\u048A-\\u052F"
                + "\\u0531-\\u0556\\u10A0-\\u10C5\\u13A0-\\u13F5\\u13F8-\\u13FD\\u1C90-\\u1CBA\\u1CBD-\\u1CBF"
                + "\\u1D00-\\u1D2B\\u1D6B-\\u1D77\\u1D79-\\u1D9A\\u1E00-\\u1F15\\u1F18-\\u1F1D\\u1F20-\\u1F45"
                + "\\u1F48-\\u1F4D\\u1F50-\\u1F57\\u1F59\\u1F5B\\u1F5D\\u1F5F-\\u1F7D\\u1F80-\\u1FB4\\u1FB6-\\u1FBC"
                + "\\u1FBE\\u1FC2-\\u1FC4\\u1FC6-\\u1FCC\\u1FD0-\\u1FD3\\u1FD6-\\u1FDB\\u1FE0-\\u1FEC\\u1FF2-\\u1FF4"
                + "\\u1FF6-\\u1FFC\\u2102\\u2107\\u210A-\\u2113\\u2115\\u2119-\\u211D\\u2124\\u2126\\u2128"
                + "\\u212A-\\u212D\\u212F-\\u2134\\u2139\\u213C-\\u213F\\u2145-\\u2149\\u214E\\u2183\\u2184"
                + "\\u2C00-\\u2C7B\\u2C7E-\\u2CE4\\u2CEB-\\u2CEE\\u2CF2\\u2CF3\\uA640-\\uA66D\\uA680-\\uA69B"
                + "\\uA722-\\uA76F\\uA771-\\uA787\\uA78B-\\uA78E\\uAB70-\\uABBF\\uFB00-\\uFB06\\uFB13-\\uFB17"
                + "\\uFF21-\\uFF3A\\uFF41-\\uFF5A\\x{10400}-\\x{1044F}\\x{104B0}-\\x{104D3}\\x{104D8}-\\x{104FB}"
                + "\\x{10C80}-\\x{10CB2}\\x{10CC0}-\\x{10CF2}\\x{118A0}-\\x{118DF}\\x{1E900}-\\x{1E943}";
    }

    private final boolean ignoreMerges;
    private final boolean addsBos;
    private final Pattern[] patterns;

    BpePreTokenizer(boolean ignoreMerges, boolean addsBos, String... expressions) {
        this.ignoreMerges = ignoreMerges;
        this.addsBos = addsBos;
        this.patterns = Arrays.stream(expressions).map(Pattern::compile).toArray(Pattern[]::new);
    }

    /** Whether a pre-token that is already in the vocabulary maps straight to its id (Llama 3). */
    boolean ignoreMerges() {
        return ignoreMerges;
    }

    /** llama.cpp's default for {@code add_bos} when {@code tokenizer.ggml.add_bos_token} is absent. */
    boolean addsBosByDefault() {
        return addsBos;
    }

    /**
     * Resolves a {@code tokenizer.ggml.pre} value; an absent or empty one means llama.cpp's
     * default expressions.
     */
    static BpePreTokenizer forName(String pre) {
        if (pre == null || pre.isEmpty()) {
            return DEFAULT;
        }
        return switch (pre) {
            case "default" -> DEFAULT;
            case "llama3", "llama-v3", "llama-bpe", "falcon3", "pixtral", "dbrx", "smaug-bpe" -> LLAMA3;
            case "deepseek-llm" -> DEEPSEEK_LLM;
            case "deepseek-coder" -> DEEPSEEK_CODER;
            case "deepseek-v3" -> DEEPSEEK3_LLM;
            case "falcon" -> FALCON;
            case "starcoder", "refact", "command-r", "smollm", "codeshell", "exaone", "minerva-7b" -> STARCODER;
            case "gpt-2",
                    "phi-2",
                    "jina-es",
                    "jina-de",
                    "gigachat",
                    "jina-v1-en",
                    "jina-v2-es",
                    "jina-v2-de",
                    "jina-v2-code",
                    "roberta-bpe",
                    "mpt",
                    "olmo",
                    "jais" -> GPT2;
            case "qwen2", "deepseek-r1-qwen", "megrez", "stablelm2" -> QWEN2;
            case "chatglm-bpe", "glm4" -> CHATGLM4;
            case "poro-chat", "bloom", "gpt3-finnish" -> PORO;
            case "viking" -> VIKING;
            case "tekken" -> TEKKEN;
            case "chameleon" -> CHAMELEON;
            case "gpt-4o", "llama4" -> GPT4O;
            default ->
                throw new TokenizerException("unsupported tokenizer.ggml.pre '" + pre + "'; supported: " + KNOWN_NAMES);
        };
    }

    static final String KNOWN_NAMES = "default, llama3 (llama-bpe, llama-v3, falcon3, pixtral, dbrx, smaug-bpe), "
            + "deepseek-llm, deepseek-coder, deepseek-v3, deepseek-r1-qwen, qwen2, megrez, stablelm2, falcon, "
            + "starcoder, refact, command-r, smollm, codeshell, exaone, minerva-7b, gpt-2, phi-2, mpt, olmo, jais, "
            + "roberta-bpe, jina-*, gigachat, chatglm-bpe, glm4, poro-chat, bloom, gpt3-finnish, viking, tekken, "
            + "chameleon, gpt-4o, llama4";

    /**
     * Splits text into pre-tokens (still Unicode text; byte-level encoding comes later). Empty
     * text gives no pre-tokens.
     */
    List<String> split(String text) {
        // llama.cpp matches \s on Unicode White_Space by turning every non-ASCII whitespace code
        // point into U+000B before matching; doing the same keeps classes such as [\u3000-\u3002]
        // from seeing U+3000, exactly as there.
        String view = asciiWhitespaceView(text);
        List<int[]> chunks = new ArrayList<>();
        chunks.add(new int[] {0, text.length()});
        for (Pattern pattern : patterns) {
            List<int[]> next = new ArrayList<>(chunks.size() * 2);
            Matcher m = pattern.matcher(view);
            for (int[] chunk : chunks) {
                int start = chunk[0];
                int end = chunk[1];
                m.region(start, end);
                int pos = start;
                while (m.find()) {
                    if (m.start() > pos) {
                        next.add(new int[] {pos, m.start()});
                    }
                    if (m.end() > m.start()) {
                        next.add(new int[] {m.start(), m.end()});
                    }
                    pos = m.end();
                }
                if (pos < end) {
                    next.add(new int[] {pos, end});
                }
            }
            chunks = next;
        }
        List<String> words = new ArrayList<>(chunks.size());
        for (int[] chunk : chunks) {
            words.add(text.substring(chunk[0], chunk[1]));
        }
        return words;
    }

    private static String asciiWhitespaceView(String text) {
        char[] chars = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c > 0x7F && Unicode.isWhiteSpace(c)) {
                if (chars == null) {
                    chars = text.toCharArray();
                }
                chars[i] = '\u000B';
            }
        }
        return chars == null ? text : new String(chars);
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
