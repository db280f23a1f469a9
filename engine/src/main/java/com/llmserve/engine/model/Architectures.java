package com.llmserve.engine.model;

import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.model.llama.DecoderArchitecture;
import com.llmserve.engine.model.llama.Llama;
import com.llmserve.engine.model.llama.Mistral;
import com.llmserve.engine.model.llama.Qwen2;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/** The model families this engine implements, chosen by {@code general.architecture}. */
public final class Architectures {

    private static final Map<String, DecoderArchitecture> DECODERS = List.of(new Llama(), new Mistral(), new Qwen2())
            .stream().collect(Collectors.toUnmodifiableMap(DecoderArchitecture::name, Function.identity()));

    private Architectures() {
    }

    /** Names of the supported text-generation architectures, sorted. */
    public static List<String> languageModels() {
        return DECODERS.keySet().stream().sorted().toList();
    }

    /**
     * Loads the text-generation model of {@code file} onto {@code backend}.
     *
     * @throws UnsupportedArchitectureException naming the supported ones
     */
    public static LanguageModel loadLanguageModel(GgufFile file, Backend backend, ModelOptions options) {
        String name = file.metadata().getString("general.architecture");
        DecoderArchitecture arch = DECODERS.get(name);
        if (arch == null) {
            throw new UnsupportedArchitectureException(file.path(), name, languageModels());
        }
        return arch.load(file, backend, options);
    }
}
