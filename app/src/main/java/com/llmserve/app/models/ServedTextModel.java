package com.llmserve.app.models;

import com.llmserve.app.resilience.Failover;
import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.chat.ChatTemplate;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.model.LanguageModel;
import com.llmserve.engine.model.ModelKind;
import com.llmserve.engine.sampling.TokenLogprobs;
import com.llmserve.engine.sched.EngineStats;
import com.llmserve.engine.sched.FinishReason;
import com.llmserve.engine.sched.InferenceEngine;
import com.llmserve.engine.sched.InferenceRequest;
import com.llmserve.engine.sched.RequestHandle;
import com.llmserve.engine.sched.TokenListener;
import com.llmserve.engine.tokenizer.Tokenizer;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadFullException;
import io.github.resilience4j.timelimiter.TimeLimiter;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A text-generation model being served: its engine loop (two when a GPU model has a CPU copy),
 * tokenizer, chat template and prompt encoder.
 *
 * <p>Every request passes the {@code admission} bulkhead and gets the {@code generation} time
 * limiter's timeout, which the engine enforces (only the engine loop can free a request's KV
 * blocks at a step boundary). A model placed on a GPU routes each new request by its
 * {@link Failover}: the GPU while its breaker is closed, else the CPU copy or a 503.
 */
public final class ServedTextModel implements ServedModel {

    /**
     * One loaded copy of the model with its engine loop.
     *
     * @param device where it runs, as its backend names it ({@code cpu}, {@code cuda:0}); the meters' {@code device} tag
     */
    public record Replica(String device, Backend backend, LanguageModel model, InferenceEngine engine) {}

    private final String id;
    private final GgufFile file;
    private final Replica primary;
    private final Replica fallback;
    private final Failover failover;
    private final Bulkhead admission;
    private final TimeLimiter timeLimiter;
    private final Tokenizer tokenizer;
    private final ChatTemplate chatTemplate;
    private final String backendDescription;
    private final Set<Integer> endOfGeneration;
    private final PromptEncoder promptEncoder;

    /**
     * @param fallback the CPU copy of a GPU model, or null
     * @param failover the router of a GPU model, or null for a model on the CPU (which needs none)
     */
    ServedTextModel(
            String id,
            GgufFile file,
            Replica primary,
            Replica fallback,
            Failover failover,
            Bulkhead admission,
            TimeLimiter timeLimiter,
            Tokenizer tokenizer,
            ChatTemplate chatTemplate,
            String backendDescription) {
        this.id = id;
        this.file = file;
        this.primary = primary;
        this.fallback = fallback;
        this.failover = failover;
        this.admission = admission;
        this.timeLimiter = timeLimiter;
        this.tokenizer = tokenizer;
        this.chatTemplate = chatTemplate;
        this.backendDescription = backendDescription;
        Set<Integer> eog = new HashSet<>();
        for (int t = 0; t < tokenizer.vocabSize(); t++) {
            if (tokenizer.isEndOfGeneration(t)) {
                eog.add(t);
            }
        }
        this.endOfGeneration = Set.copyOf(eog);
        this.promptEncoder = new PromptEncoder(tokenizer);
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
        return primary.model().architecture();
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
        return (int) Math.min(primary.model().contextLength(), primary.engine().kvCapacityTokens());
    }

    @Override
    public String backendDescription() {
        return backendDescription;
    }

    /** How prompts become tokens, the same for every endpoint. */
    public PromptEncoder promptEncoder() {
        return promptEncoder;
    }

    /** Tokens that end a choice unless the client asks to ignore EOS. */
    public Set<Integer> endOfGeneration() {
        return endOfGeneration;
    }

    /** The copies of the model: the primary first, then the CPU fallback when there is one. */
    public List<Replica> replicas() {
        return fallback == null ? List.of(primary) : List.of(primary, fallback);
    }

    /** The router of a model placed on a GPU; empty for a model on the CPU. */
    public Optional<Failover> failover() {
        return Optional.ofNullable(failover);
    }

    /** The engines' state and totals, summed over the replicas. */
    public EngineStats stats() {
        EngineStats a = primary.engine().stats();
        if (fallback == null) {
            return a;
        }
        EngineStats b = fallback.engine().stats();
        return new EngineStats(
                a.waitingRequests() + b.waitingRequests(),
                a.runningSequences() + b.runningSequences(),
                a.kvBlocksUsed() + b.kvBlocksUsed(),
                a.kvBlocksTotal() + b.kvBlocksTotal(),
                a.prefixCacheHits() + b.prefixCacheHits(),
                a.prefixCacheQueries() + b.prefixCacheQueries(),
                a.promptTokens() + b.promptTokens(),
                a.generatedTokens() + b.generatedTokens(),
                a.steps() + b.steps(),
                a.preemptions() + b.preemptions());
    }

    /**
     * Queues a generation on the replica its failover picks; see {@link InferenceEngine#submit}.
     *
     * @throws BulkheadFullException when the service already has its most requests in flight
     * @throws com.llmserve.app.resilience.DeviceUnavailableException when the model's GPU is shut off and it has no CPU copy
     * @throws com.llmserve.engine.sched.AdmissionException when the engine refuses it
     */
    public RequestHandle submit(InferenceRequest request, TokenListener listener) {
        if (!admission.tryAcquirePermission()) {
            throw BulkheadFullException.createBulkheadFullException(admission);
        }
        boolean guarded;
        Replica target;
        try {
            Failover.Route route = failover == null ? Failover.Route.PRIMARY : failover.route();
            guarded = failover != null && route == Failover.Route.PRIMARY;
            target = route == Failover.Route.PRIMARY ? primary : fallback;
        } catch (RuntimeException e) {
            admission.onComplete();
            throw e;
        }
        InferenceRequest timed = request.timeout() != null
                ? request
                : request.withTimeout(timeLimiter.getTimeLimiterConfig().getTimeoutDuration());
        try {
            return target.engine().submit(timed, new Settling(listener, request.n(), guarded));
        } catch (RuntimeException e) {
            admission.onComplete();
            if (guarded) {
                failover.refused(e);
            }
            throw e;
        }
    }

    /**
     * Passes a request's output on, and once it has ended settles its accounts: the admission
     * permit, the time limiter's outcome and, on a GPU, the breaker's. Settled before the last
     * event is passed on, so whoever sees the request end sees the accounts settled. Runs on the
     * engine thread, as every listener does.
     */
    private final class Settling implements TokenListener {

        private final TokenListener client;
        private final boolean guarded;
        private final long start = System.nanoTime();
        private int unfinished;
        private boolean generated;
        private boolean timedOut;
        private Throwable error;
        private boolean breakerSettled;

        Settling(TokenListener client, int choices, boolean guarded) {
            this.client = client;
            this.unfinished = choices;
            this.guarded = guarded;
        }

        @Override
        public void onToken(int choice, int token, TokenLogprobs logprobs) {
            client.onToken(choice, token, logprobs);
        }

        @Override
        public void onPromptToken(int position, TokenLogprobs logprobs) {
            client.onPromptToken(position, logprobs);
        }

        @Override
        public void onError(Throwable e) {
            error = e;
            if (guarded && !breakerSettled) {
                // before the client hears of it: its 500 must not race the breaker's count
                breakerSettled = true;
                failover.failed(System.nanoTime() - start, e);
            }
            client.onError(e);
        }

        @Override
        public void onFinish(int choice, FinishReason reason) {
            switch (reason) {
                case STOP, LENGTH -> generated = true;
                case TIMEOUT -> timedOut = true;
                case ERROR -> {
                    if (error == null) {
                        error = new IllegalStateException("the engine ended a choice with an error it did not report");
                    }
                }
                case CANCELLED -> {}
            }
            if (--unfinished == 0) {
                settle();
            }
            client.onFinish(choice, reason);
        }

        private void settle() {
            long elapsed = System.nanoTime() - start;
            if (guarded && !breakerSettled) {
                breakerSettled = true;
                if (error != null) {
                    failover.failed(elapsed, error);
                } else if (generated) {
                    failover.succeeded(elapsed);
                } else {
                    failover.noVerdict(); // timed out or cancelled before it said anything of the device
                }
            }
            if (timedOut) {
                timeLimiter.onError(TimeLimiter.createdTimeoutExceptionWithName(timeLimiter.getName(), null));
            } else if (error != null) {
                timeLimiter.onError(error);
            } else {
                timeLimiter.onSuccess();
            }
            admission.onComplete();
        }
    }

    @Override
    public void close() {
        if (failover != null) {
            failover.close();
        }
        // the loops first: they end what is running and stop touching the models, backends and mapping
        try {
            for (Replica r : replicas()) {
                r.engine().close();
            }
            for (Replica r : replicas()) {
                r.model().close();
                r.backend().close();
            }
        } finally {
            file.close();
        }
    }

    @Override
    public String toString() {
        return "ServedTextModel[" + id + ", " + architecture() + ", " + backendDescription + "]";
    }
}
