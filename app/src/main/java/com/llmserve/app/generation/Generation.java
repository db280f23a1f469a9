package com.llmserve.app.generation;

import com.llmserve.app.models.ServedTextModel;
import com.llmserve.engine.sampling.TokenLogprobs;
import com.llmserve.engine.sched.AdmissionException;
import com.llmserve.engine.sched.FinishReason;
import com.llmserve.engine.sched.InferenceRequest;
import com.llmserve.engine.sched.RequestHandle;
import com.llmserve.engine.sched.TokenListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The generations of one API request: one engine request per prompt, each with {@code n}
 * choices. The engine's listener only queues what it hears (it runs on the engine loop, which
 * every sequence waits on); the request's own thread takes the events with {@link #next},
 * detokenizes, applies stop strings and tells the engine to stop a choice whose stop string
 * appeared. {@link #close()} cancels whatever is still running, so a client that goes away frees
 * its KV blocks at the engine's next step.
 */
public final class Generation implements AutoCloseable {

    private sealed interface Event {}

    private record Token(int prompt, int choice, int token, TokenLogprobs logprobs) implements Event {}

    private record Finish(int prompt, int choice, FinishReason reason) implements Event {}

    private record PromptToken(int prompt, int position, TokenLogprobs logprobs) implements Event {}

    private record Failure(Throwable error) implements Event {}

    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private final List<RequestHandle> handles = new ArrayList<>();
    private final ChoiceText[] choices;
    /** Per prompt, the scores of its tokens 1.. when asked (position 0 has none). */
    private final List<List<TokenLogprobs>> promptScores;

    private final int n;
    private final int promptTokens;
    private int unfinished;
    private boolean closed;

    private Generation(ServedTextModel model, List<int[]> prompts, GenerationParams params) {
        this.n = params.n();
        this.choices = new ChoiceText[prompts.size() * n];
        for (int i = 0; i < choices.length; i++) {
            choices[i] = new ChoiceText(i, model.tokenizer(), params.stop());
        }
        this.unfinished = choices.length;
        this.promptScores = new ArrayList<>();
        for (int p = 0; p < prompts.size(); p++) {
            promptScores.add(new ArrayList<>());
        }
        this.promptTokens = prompts.stream().mapToInt(p -> p.length).sum();
    }

    /**
     * Submits every prompt.
     *
     * @throws AdmissionException when the engine refuses one; those already submitted are cancelled
     */
    public static Generation start(ServedTextModel model, List<int[]> prompts, GenerationParams params) {
        Generation g = new Generation(model, prompts, params);
        Set<Integer> stopTokens = params.ignoreEos() ? Set.of() : model.endOfGeneration();
        try {
            for (int p = 0; p < prompts.size(); p++) {
                InferenceRequest request = new InferenceRequest(
                        prompts.get(p),
                        params.n(),
                        params.maxTokens(),
                        params.sampling(),
                        stopTokens,
                        params.topLogprobs(),
                        params.promptLogprobs(),
                        null,
                        params.grammar());
                g.handles.add(model.submit(request, g.listener(p)));
            }
        } catch (RuntimeException e) {
            g.close();
            throw e;
        }
        return g;
    }

    private TokenListener listener(int prompt) {
        return new TokenListener() {
            @Override
            public void onToken(int choice, int token, TokenLogprobs logprobs) {
                events.add(new Token(prompt, choice, token, logprobs));
            }

            @Override
            public void onPromptToken(int position, TokenLogprobs logprobs) {
                events.add(new PromptToken(prompt, position, logprobs));
            }

            @Override
            public void onFinish(int choice, FinishReason reason) {
                events.add(new Finish(prompt, choice, reason));
            }

            @Override
            public void onError(Throwable error) {
                events.add(new Failure(error));
            }
        };
    }

    /** Choices in the response: prompts times {@code n}. */
    public int choiceCount() {
        return choices.length;
    }

    /** Whether every choice has finished. */
    public boolean done() {
        return unfinished == 0;
    }

    /**
     * The next piece of output, waiting at most {@code wait}.
     *
     * @return a delta, or null when nothing came within {@code wait} (time for a keep-alive) or all is done
     * @throws GenerationFailedException when the engine failed, timed out or is stopping
     */
    public Delta next(Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (!done()) {
            Event e = events.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (e == null) {
                return null;
            }
            Delta d =
                    switch (e) {
                        case Token t -> {
                            Delta delta = choices[t.prompt() * n + t.choice()].onToken(t.token(), t.logprobs());
                            if (delta != null && delta.finished()) {
                                // a stop string: end the choice in the engine too (its later tokens are dropped)
                                handles.get(t.prompt()).stop(t.choice());
                            }
                            yield delta;
                        }
                        case Finish f -> {
                            ChoiceText choice = choices[f.prompt() * n + f.choice()];
                            // a choice already ended by its stop string may still hear the engine's own end: ignore it
                            yield choice.finished() ? null : choice.onFinish(finishReason(f.reason()));
                        }
                        case PromptToken t -> {
                            promptScores.get(t.prompt()).add(t.logprobs());
                            yield null;
                        }
                        case Failure x ->
                            throw new GenerationFailedException(
                                    GenerationFailedException.Reason.ENGINE_ERROR,
                                    "The model failed while generating",
                                    x.error());
                    };
            if (d != null) {
                if (d.finished()) {
                    unfinished--;
                }
                return d;
            }
        }
        return null;
    }

    private static String finishReason(FinishReason reason) {
        return switch (reason) {
            case STOP -> "stop";
            case LENGTH -> "length";
            case TIMEOUT ->
                throw new GenerationFailedException(
                        GenerationFailedException.Reason.TIMEOUT,
                        "The request timed out before generation finished",
                        null);
            case CANCELLED ->
                throw new GenerationFailedException(
                        GenerationFailedException.Reason.SHUTTING_DOWN,
                        "The request was cancelled: the service is shutting down",
                        null);
            case ERROR ->
                throw new GenerationFailedException(
                        GenerationFailedException.Reason.ENGINE_ERROR, "The model failed while generating", null);
        };
    }

    /**
     * The log-probabilities of prompt {@code prompt}'s tokens from the second on, in order, when
     * the parameters asked for them; complete once its choices produced output or {@link #done()}.
     */
    public List<TokenLogprobs> promptLogprobs(int prompt) {
        return List.copyOf(promptScores.get(prompt));
    }

    /** Token counts so far; final once {@link #done()}. */
    public Usage usage() {
        int completion = 0;
        for (ChoiceText c : choices) {
            completion += c.generated();
        }
        int cached = 0;
        for (RequestHandle h : handles) {
            cached += h.cachedPromptTokens();
        }
        return new Usage(promptTokens, completion, cached);
    }

    /** Cancels every unfinished choice (the client left, or the request failed). Safe to call twice. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (!done()) {
            handles.forEach(RequestHandle::cancel);
        }
    }

    /**
     * Token counts of a request.
     *
     * @param promptTokens     tokens of all prompts (each counted once, whatever {@code n})
     * @param completionTokens tokens generated over all choices
     * @param cachedTokens     prompt tokens whose KV came from the prefix cache
     */
    public record Usage(int promptTokens, int completionTokens, int cachedTokens) {

        public int totalTokens() {
            return promptTokens + completionTokens;
        }
    }
}
