package com.llmserve.app.models;

import com.llmserve.engine.backend.KvCacheType;
import com.llmserve.engine.chat.ChatTemplate;
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
import io.github.resilience4j.bulkhead.BulkheadFullException;
import io.github.resilience4j.timelimiter.TimeLimiter;
import java.util.HashSet;
import java.util.Set;

/**
 * A text-generation model being served: its replicas (two when a GPU model has a CPU copy),
 * tokenizer, chat template and prompt encoder.
 *
 * <p>Every request passes the {@code admission} bulkhead and gets the {@code generation} time
 * limiter's timeout, which the engine enforces (only the engine loop can free a request's KV
 * blocks at a step boundary).
 */
public final class ServedTextModel extends ReplicatedModel<LanguageModel, InferenceEngine> {

    private final ChatTemplate chatTemplate;
    private final Set<Integer> endOfGeneration;
    private final PromptEncoder promptEncoder;

    ServedTextModel(
            String id,
            ReplicaSet<LanguageModel, InferenceEngine> replicas,
            Tokenizer tokenizer,
            ChatTemplate chatTemplate) {
        super(id, replicas, tokenizer, replicas.primary().model().architecture());
        this.chatTemplate = chatTemplate;
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
    public ModelKind kind() {
        return ModelKind.COMPLETION;
    }

    public ChatTemplate chatTemplate() {
        return chatTemplate;
    }

    /** How prompts become tokens, the same for every endpoint. */
    public PromptEncoder promptEncoder() {
        return promptEncoder;
    }

    /** Prompt and output together never exceed this: the context window, or the KV cache if smaller. */
    /** How its KV cache stores keys and values ({@code llmserve.engine.kv-cache-type}). */
    public KvCacheType kvCacheType() {
        return replicas.primary().model().kvCacheType();
    }

    @Override
    public int maxModelLen() {
        Replica<LanguageModel, InferenceEngine> primary = replicas.primary();
        return (int) Math.min(primary.model().contextLength(), primary.engine().kvCapacityTokens());
    }

    /** Tokens that end a choice unless the client asks to ignore EOS. */
    public Set<Integer> endOfGeneration() {
        return endOfGeneration;
    }

    /** Ends every generation of every replica now, with finish reason length (the drain limit at shutdown). */
    public void endAll() {
        replicas().forEach(r -> r.engine().endAll());
    }

    /** The engines' state and totals, summed over the replicas. */
    public EngineStats stats() {
        return replicas.all().stream()
                .map(r -> r.engine().stats())
                .reduce(ServedTextModel::plus)
                .orElseThrow();
    }

    private static EngineStats plus(EngineStats a, EngineStats b) {
        return new EngineStats(
                a.waitingRequests() + b.waitingRequests(),
                a.waitingCapacity() + b.waitingCapacity(),
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
        ReplicaSet<LanguageModel, InferenceEngine>.Ticket ticket = replicas.admit();
        InferenceRequest timed = request.timeout() != null ? request : request.withTimeout(replicas.timeout());
        return ticket.submit(engine -> engine.submit(timed, new Settling(listener, request.n(), ticket)));
    }

    /**
     * Passes a request's output on, and once it has ended settles its ticket and the time
     * limiter's outcome. Settled before the last event is passed on, so whoever sees the request
     * end sees the accounts settled. Runs on the engine thread, as every listener does.
     */
    private final class Settling implements TokenListener {

        private final TokenListener client;
        private final ReplicaSet<LanguageModel, InferenceEngine>.Ticket ticket;
        private int unfinished;
        private boolean generated;
        private boolean timedOut;
        private Throwable error;

        Settling(TokenListener client, int choices, ReplicaSet<LanguageModel, InferenceEngine>.Ticket ticket) {
            this.client = client;
            this.unfinished = choices;
            this.ticket = ticket;
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
            ticket.failed(e); // before the client hears of it: its 500 must not race the breaker's count
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
            if (error != null) {
                ticket.failed(error);
            } else if (generated) {
                ticket.succeeded();
            } else {
                ticket.noVerdict(); // timed out or cancelled before it said anything of the device
            }
            // the engine enforces the timeout, so the limiter only hears how the request ended
            TimeLimiter limiter = replicas.timeLimiter();
            if (timedOut) {
                limiter.onError(TimeLimiter.createdTimeoutExceptionWithName(limiter.getName(), null));
            } else if (error != null) {
                limiter.onError(error);
            } else {
                limiter.onSuccess();
            }
            ticket.close();
        }
    }
}
