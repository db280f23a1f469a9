package com.llmserve.engine.model;

import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.model.bert.Bert;
import com.llmserve.engine.model.llama.DecoderArchitecture;
import com.llmserve.engine.model.llama.Gemma2;
import com.llmserve.engine.model.llama.Gemma3;
import com.llmserve.engine.model.llama.GptOss;
import com.llmserve.engine.model.llama.Llama;
import com.llmserve.engine.model.llama.Mistral;
import com.llmserve.engine.model.llama.Phi3;
import com.llmserve.engine.model.llama.Qwen2;
import com.llmserve.engine.model.llama.Qwen3;
import com.llmserve.engine.model.llama.Qwen3Moe;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The model families this engine implements, chosen by {@code general.architecture}. */
public final class Architectures {

    private static final Map<String, DecoderArchitecture> DECODERS = List.of(
                    new Llama(),
                    new Mistral(),
                    new Qwen2(),
                    new Qwen3(),
                    new Qwen3Moe(),
                    new Gemma2(),
                    new Gemma3(),
                    new Phi3(),
                    new GptOss())
            .stream()
            .collect(Collectors.toUnmodifiableMap(DecoderArchitecture::name, Function.identity()));

    /** How an embedding architecture is loaded. */
    @FunctionalInterface
    private interface EncoderLoader {
        EmbeddingModel load(GgufFile file, Backend backend, ModelOptions options);
    }

    private static final Map<String, EncoderLoader> ENCODERS = Map.of(Bert.NAME, Bert::load);

    private Architectures() {}

    /** Names of the supported text-generation architectures, sorted. */
    public static List<String> languageModels() {
        return DECODERS.keySet().stream().sorted().toList();
    }

    /** Names of the supported embedding architectures, sorted. */
    public static List<String> embeddingModels() {
        return ENCODERS.keySet().stream().sorted().toList();
    }

    /**
     * What {@code file} serves, from its {@code general.architecture}: bert files give embeddings,
     * llama-family files completions.
     *
     * @throws UnsupportedArchitectureException naming every supported architecture
     */
    public static ModelKind kindOf(GgufFile file) {
        String name = file.metadata().getString("general.architecture");
        if (DECODERS.containsKey(name)) {
            return ModelKind.COMPLETION;
        }
        if (ENCODERS.containsKey(name)) {
            return ModelKind.EMBEDDING;
        }
        throw new UnsupportedArchitectureException(
                file.path(),
                name,
                Stream.concat(languageModels().stream(), embeddingModels().stream())
                        .sorted()
                        .toList());
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

    /**
     * Loads the embedding model of {@code file} onto {@code backend}. Its scratch buffers hold
     * {@code max(options.maxBatchTokens(), context length)} rows.
     *
     * @throws UnsupportedArchitectureException naming the supported embedding architectures
     * @throws InvalidModelException            for inconsistent metadata or tensors of the wrong shape, or a
     *                                          backend split over GPUs
     */
    public static EmbeddingModel loadEmbeddingModel(GgufFile file, Backend backend, ModelOptions options) {
        String name = file.metadata().getString("general.architecture");
        EncoderLoader loader = ENCODERS.get(name);
        if (loader == null) {
            throw new UnsupportedArchitectureException(file.path(), name, embeddingModels());
        }
        if (backend.shards().size() > 1) {
            throw new InvalidModelException(
                    file.path(),
                    "embedding models are not split over GPUs: " + backend.name() + " has "
                            + backend.shards().size() + " shards (tensor-parallel-size)");
        }
        return loader.load(file, backend, options);
    }
}
