package com.llmserve.app.models;

import com.llmserve.engine.tokenizer.Tokenizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * How a text model's prompts become tokens, the same for every endpoint. BOS is added as the
 * model wants it, unless the text already starts with BOS's text. A raw completion prompt is the
 * client's own markup, so its control-token text is recognised as control tokens; a chat prompt's
 * control tokens come only from the template's markup, never from the messages' text, so a user
 * cannot forge a turn.
 */
public final class PromptEncoder {

    private final Tokenizer tokenizer;
    private final List<String> controlTexts;
    private final String bosText;

    /** Reads the tokenizer's control tokens once: a model keeps one encoder. */
    public PromptEncoder(Tokenizer tokenizer) {
        this.tokenizer = tokenizer;
        List<String> control = new ArrayList<>();
        for (int t = 0; t < tokenizer.vocabSize(); t++) {
            if (tokenizer.isControl(t) && !tokenizer.tokenText(t).isEmpty()) {
                control.add(tokenizer.tokenText(t));
            }
        }
        this.controlTexts = List.copyOf(control);
        this.bosText = tokenizer.bos().isPresent()
                ? tokenizer.tokenText(tokenizer.bos().getAsInt())
                : "";
    }

    /**
     * Encodes a raw completion prompt as llama.cpp's and vLLM's servers do: BOS as the model
     * wants it, control tokens written as text recognised (the client writes the whole prompt,
     * markup included; token arrays are the other way to send them).
     */
    public int[] encode(String prompt) {
        return tokenizer.encode(prompt, addsBos(prompt), true);
    }

    /**
     * Encodes a rendered chat prompt. The template's own markup is parsed for control tokens;
     * the messages' text never is. When no message holds control-token text (the usual case) the
     * whole prompt is encoded at once, exactly as llama.cpp does; otherwise each message's text is
     * encoded apart, found in the prompt in order (SentencePiece may then put a word-start marker
     * where the text begins).
     *
     * @param contents the messages' texts, in conversation order
     * @return the tokens, or null when a message holding control-token text does not appear
     *         verbatim in the prompt (the template rewrote it), so it cannot be kept apart safely
     */
    public int[] encodeChat(String rendered, List<String> contents) {
        boolean addBos = addsBos(rendered);
        if (contents.stream().noneMatch(this::containsControlText)) {
            return tokenizer.encode(rendered, addBos, true);
        }
        IntList out = new IntList();
        if (addBos && tokenizer.bos().isPresent()) {
            out.add(tokenizer.bos().getAsInt());
        }
        int position = 0;
        for (String content : contents) {
            if (content.isEmpty()) {
                continue;
            }
            int at = rendered.indexOf(content, position);
            if (at < 0) {
                if (containsControlText(content)) {
                    return null;
                }
                continue;
            }
            out.add(tokenizer.encode(rendered.substring(position, at), false, true));
            out.add(tokenizer.encode(content, false, false));
            position = at + content.length();
        }
        out.add(tokenizer.encode(rendered.substring(position), false, true));
        return out.toArray();
    }

    /** Whether {@code text} holds the text of a control token, such as {@code <|im_start|>} or {@code </s>}. */
    boolean containsControlText(String text) {
        for (String c : controlTexts) {
            if (text.contains(c)) {
                return true;
            }
        }
        return false;
    }

    /** BOS goes first when the model wants it and the text does not already start with it. */
    private boolean addsBos(String text) {
        return tokenizer.addsBos() && (bosText.isEmpty() || !text.startsWith(bosText));
    }

    /** A growable int array. */
    private static final class IntList {
        private int[] data = new int[64];
        private int size;

        void add(int v) {
            if (size == data.length) {
                data = Arrays.copyOf(data, size * 2);
            }
            data[size++] = v;
        }

        void add(int[] values) {
            for (int v : values) {
                add(v);
            }
        }

        int[] toArray() {
            return Arrays.copyOf(data, size);
        }
    }
}
