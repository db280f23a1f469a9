package com.llmserve.engine.sched;

import com.llmserve.engine.kv.KvPools;
import com.llmserve.engine.sampling.Sampler;
import java.util.ArrayList;
import java.util.List;

/** A submitted request and its choices, as the engine loop tracks it. */
final class Request implements RequestHandle {

    final long id;
    final InferenceRequest spec;
    final TokenListener listener;
    final int maxTokens;
    final long submittedNanos;
    final long deadlineNanos;
    final List<Sequence> choices = new ArrayList<>();
    /** Choices after the first, admitted once the first has computed the shared prompt (so they find it cached). */
    final List<Sequence> deferred = new ArrayList<>();

    long firstStepNanos;
    int finished;
    volatile boolean cancelRequested;
    volatile int cachedPromptTokens;

    Request(
            long id,
            InferenceRequest spec,
            TokenListener listener,
            int maxTokens,
            long submittedNanos,
            long deadlineNanos,
            KvPools pool,
            int vocabSize) {
        this.id = id;
        this.spec = spec;
        this.listener = listener;
        this.maxTokens = maxTokens;
        this.submittedNanos = submittedNanos;
        this.deadlineNanos = deadlineNanos;
        for (int i = 0; i < spec.n(); i++) {
            var sampling = spec.sampling().seed().isPresent()
                    ? spec.sampling().withSeed(spec.sampling().seed().getAsLong() + i)
                    : spec.sampling();
            Sequence s = new Sequence(this, i, pool, new Sampler(sampling, vocabSize));
            choices.add(s);
            if (i > 0) {
                deferred.add(s);
            }
        }
    }

    boolean done() {
        return finished == choices.size();
    }

    @Override
    public void cancel() {
        cancelRequested = true;
    }

    @Override
    public void stop(int choice) {
        if (choice < 0 || choice >= choices.size()) {
            throw new IndexOutOfBoundsException("choice " + choice + " of " + choices.size());
        }
        choices.get(choice).stopRequested = true;
    }

    @Override
    public int cachedPromptTokens() {
        return cachedPromptTokens;
    }
}
