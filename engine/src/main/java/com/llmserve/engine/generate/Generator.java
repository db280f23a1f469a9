package com.llmserve.engine.generate;

import com.llmserve.engine.backend.Batch;
import com.llmserve.engine.backend.KvStorage;
import com.llmserve.engine.kv.BlockPool;
import com.llmserve.engine.kv.BlockTable;
import com.llmserve.engine.model.LanguageModel;
import com.llmserve.engine.model.Logits;
import com.llmserve.engine.sampling.Sampler;
import com.llmserve.engine.sampling.TokenHistory;
import java.util.Arrays;

/**
 * Generates one sequence at a time over a model and its own paged KV cache: the whole prompt in
 * one batch (chunked by the model), then one token per step. For the command line, tests and
 * benchmarks; serving many requests at once is the scheduler's job.
 */
public final class Generator implements AutoCloseable {

    private final LanguageModel model;
    private final BlockPool pool;
    private final KvStorage kv;

    /** A generator whose cache holds one sequence of the model's full context. */
    public Generator(LanguageModel model, int blockSize) {
        this(model, new BlockPool(1 + (model.contextLength() + blockSize - 1) / blockSize, blockSize));
    }

    public Generator(LanguageModel model, BlockPool pool) {
        this.model = model;
        this.pool = pool;
        this.kv = model.newKvStorage(pool.capacity(), pool.blockSize());
    }

    public BlockPool pool() {
        return pool;
    }

    public Generation generate(GenerationRequest request, TokenSink sink) {
        int[] prompt = request.prompt();
        if (prompt.length >= model.contextLength()) {
            throw new IllegalArgumentException(
                    "prompt of " + prompt.length + " tokens does not fit the context of " + model.contextLength());
        }
        int maxTokens = Math.min(request.maxTokens(), model.contextLength() - prompt.length);
        BlockTable table = new BlockTable(pool);
        try {
            if (!table.ensureCapacity(prompt.length + (long) maxTokens)) {
                throw new IllegalStateException("the KV cache cannot hold " + (prompt.length + maxTokens) + " tokens");
            }
            Sampler sampler = new Sampler(request.sampling(), model.vocabSize());
            TokenHistory history = new TokenHistory(prompt);
            int[] out = new int[maxTokens];
            int count = 0;
            Generation.FinishReason finish =
                    maxTokens < request.maxTokens() ? Generation.FinishReason.CONTEXT : Generation.FinishReason.LENGTH;
            long start = System.nanoTime();
            long firstToken = start;
            int topK = request.sampling().choosesLargestLogit() ? 1 : 0; // then only the best token is read back
            Logits logits = maxTokens == 0
                    ? null
                    : model.forward(
                            Batch.builder(pool.blockSize())
                                    .add(table.blocks(), 0, prompt, Batch.Logits.LAST)
                                    .build(),
                            kv,
                            topK);
            int position = prompt.length;
            int[] one = new int[1];
            while (count < maxTokens) {
                int token = topK > 0 ? logits.best(0) : sampler.sample(logits.array(), logits.offset(0), history);
                if (count == 0) {
                    firstToken = System.nanoTime();
                }
                if (request.stopTokens().contains(token)) {
                    finish = Generation.FinishReason.STOP;
                    break;
                }
                out[count++] = token;
                history.accept(token);
                sink.accept(token);
                if (count == maxTokens) {
                    break;
                }
                one[0] = token;
                logits = model.forward(
                        Batch.builder(pool.blockSize())
                                .add(table.blocks(), position++, one, Batch.Logits.LAST)
                                .build(),
                        kv,
                        topK);
            }
            long end = System.nanoTime();
            return new Generation(
                    Arrays.copyOf(out, count), finish, prompt.length, firstToken - start, end - firstToken);
        } finally {
            table.release();
        }
    }

    @Override
    public void close() {
        kv.close();
    }
}
