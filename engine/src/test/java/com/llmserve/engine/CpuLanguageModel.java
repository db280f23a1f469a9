package com.llmserve.engine;

import com.llmserve.engine.backend.cpu.CpuBackend;
import com.llmserve.engine.backend.cpu.CpuKernels;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.model.Architectures;
import com.llmserve.engine.model.LanguageModel;
import com.llmserve.engine.model.ModelOptions;
import com.llmserve.engine.tokenizer.Tokenizer;
import java.io.IOException;

/** A test model of {@code ../shared/models} loaded on a two-thread CPU backend, with its tokenizer; closes all three. */
public record CpuLanguageModel(CpuBackend backend, GgufFile file, LanguageModel model, Tokenizer tokenizer)
        implements AutoCloseable {

    public static CpuLanguageModel load(String fileName) throws IOException {
        return load(fileName, new CpuBackend(2));
    }

    /** On a batch-invariant backend ({@link CpuBackend#batchInvariant()}). */
    public static CpuLanguageModel loadBatchInvariant(String fileName) throws IOException {
        return load(fileName, new CpuBackend(2, true, true));
    }

    /** On a batch-invariant backend, loaded with {@code options} (a Q8_0 KV cache, say). */
    public static CpuLanguageModel loadBatchInvariant(String fileName, ModelOptions options) throws IOException {
        return load(fileName, new CpuBackend(2, true, true), options);
    }

    /** On a backend of the given kernels, not batch-invariant. */
    public static CpuLanguageModel load(String fileName, CpuKernels kernels) throws IOException {
        return load(fileName, new CpuBackend(2, true, false, kernels));
    }

    private static CpuLanguageModel load(String fileName, CpuBackend backend) throws IOException {
        return load(fileName, backend, ModelOptions.DEFAULT);
    }

    private static CpuLanguageModel load(String fileName, CpuBackend backend, ModelOptions options) throws IOException {
        GgufFile file = GgufFile.open(TestData.model(fileName));
        LanguageModel model = Architectures.loadLanguageModel(file, backend, options);
        return new CpuLanguageModel(backend, file, model, Tokenizer.fromGguf(file.metadata()));
    }

    @Override
    public void close() {
        model.close();
        file.close();
        backend.close();
    }
}
