package com.llmserve.app.models;

import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.chat.ChatTemplate;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.model.LanguageModel;
import com.llmserve.engine.model.ModelKind;
import com.llmserve.engine.sched.EngineStats;
import com.llmserve.engine.sched.InferenceEngine;
import com.llmserve.engine.sched.InferenceRequest;
import com.llmserve.engine.sched.RequestHandle;
import com.llmserve.engine.sched.TokenListener;
import com.llmserve.engine.tokenizer.Tokenizer;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A text-generation model being served: its engine loop, tokenizer and chat template, and the
 * prompt encoding rules every endpoint shares.
 */
public final class ServedTextModel implements ServedModel {

    private final String id;
    private final GgufFile file;
    private final Backend backend;
    private final LanguageModel model;
    private final InferenceEngine engine;
    private final Tokenizer tokenizer;
    private final ChatTemplate chatTemplate;
    private final String backendDescription;
    private final Set<Integer> endOfGeneration;
    private final List<String> controlTexts;
    private final String bosText;

    ServedTextModel(String id, GgufFile file, Backend backend, LanguageModel model, InferenceEngine engine,
                    Tokenizer tokenizer, ChatTemplate chatTemplate, String backendDescription) {
        this.id = id;
        this.file = file;
        this.backend = backend;
        this.model = model;
        this.engine = engine;
        this.tokenizer = tokenizer;
        this.chatTemplate = chatTemplate;
        this.backendDescription = backendDescription;
        Set<Integer> eog = new HashSet<>();
        List<String> control = new ArrayList<>();
        for (int t = 0; t < tokenizer.vocabSize(); t++) {
            if (tokenizer.isEndOfGeneration(t)) {
                eog.add(t);
            }
            if (tokenizer.isControl(t) && !tokenizer.tokenText(t).isEmpty()) {
                control.add(tokenizer.tokenText(t));
            }
        }
        this.endOfGeneration = Set.copyOf(eog);
        this.controlTexts = List.copyOf(control);
        this.bosText = tokenizer.bos().isPresent() ? tokenizer.tokenText(tokenizer.bos().getAsInt()) : "";
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    public ModelKind kind() {
        return ModelKind.COMPLETION;
    }

    @Override
    public String architecture() {
        return model.architecture();
    }

    @Override
    public Tokenizer tokenizer() {
        return tokenizer;
    }

    public ChatTemplate chatTemplate() {
        return chatTemplate;
    }

    /** Prompt and output together never exceed this: the context window, or the KV cache if smaller. */
    @Override
    public int maxModelLen() {
        return (int) Math.min(model.contextLength(), engine.kvCapacityTokens());
    }

    @Override
    public String backendDescription() {
        return backendDescription;
    }

    /** Tokens that end a choice unless the client asks to ignore EOS. */
    public Set<Integer> endOfGeneration() {
        return endOfGeneration;
    }

    public EngineStats stats() {
        return engine.stats();
    }

    /** Queues a generation; see {@link InferenceEngine#submit}. */
    public RequestHandle submit(InferenceRequest request, TokenListener listener) {
        return engine.submit(request, listener);
    }

    /**
     * Encodes a raw completion prompt as llama.cpp's and vLLM's servers do: BOS as the model
     * wants it, control tokens written as text recognised (the client writes the whole prompt,
     * markup included; token arrays are the other way to send them).
     */
    public int[] encodePrompt(String text) {
        return tokenizer.encode(text, tokenizer.addsBos() && !startsWithBos(text), true);
    }

    /** Whether {@code text} holds the text of a control token, such as {@code <|im_start|>} or {@code </s>}. */
    public boolean containsControlText(String text) {
        for (String c : controlTexts) {
            if (text.contains(c)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Encodes a rendered chat prompt. The template's own markup is parsed for control tokens;
     * the messages' text never is, so a user cannot forge a turn. When no message holds
     * control-token text (the usual case) the whole prompt is encoded at once, exactly as
     * llama.cpp does; otherwise each message's text is encoded apart, found in the prompt in
     * order (SentencePiece may then put a word-start marker where the text begins).
     *
     * @param contents the messages' texts, in conversation order
     * @return the tokens, or null when a message holding control-token text does not appear
     *         verbatim in the prompt (the template rewrote it), so it cannot be kept apart safely
     */
    public int[] encodeChat(String rendered, List<String> contents) {
        boolean addBos = tokenizer.addsBos() && !startsWithBos(rendered);
        if (contents.stream().noneMatch(this::containsControlText)) {
            return tokenizer.encode(rendered, addBos, true);
        }
        IntBuilder out = new IntBuilder();
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

    private boolean startsWithBos(String text) {
        return !bosText.isEmpty() && text.startsWith(bosText);
    }

    @Override
    public void close() {
        // the loop first: it ends what is running and stops touching the model, backend and mapping
        engine.close();
        try {
            model.close();
            backend.close();
        } finally {
            file.close();
        }
    }

    @Override
    public String toString() {
        return "ServedTextModel[" + id + ", " + architecture() + ", " + backendDescription + "]";
    }

    /** A growable int array. */
    private static final class IntBuilder {
        private int[] data = new int[64];
        private int size;

        void add(int v) {
            if (size == data.length) {
                data = java.util.Arrays.copyOf(data, size * 2);
            }
            data[size++] = v;
        }

        void add(int[] values) {
            for (int v : values) {
                add(v);
            }
        }

        int[] toArray() {
            return java.util.Arrays.copyOf(data, size);
        }
    }
}
