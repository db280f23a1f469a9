package com.llmserve.app;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import com.llmserve.app.models.PromptEncoder;
import com.llmserve.app.models.ServedTextModel;
import com.llmserve.engine.chat.ChatTemplate;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.sampling.TokenLogprobs;
import com.llmserve.engine.sched.FinishReason;
import com.llmserve.engine.sched.InferenceRequest;
import com.llmserve.engine.sched.RequestHandle;
import com.llmserve.engine.sched.TokenListener;
import com.llmserve.engine.tokenizer.Tokenizer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A completion model for controller slice tests: the real stories260K tokenizer and prompt encoder,
 * the ChatML fallback template, and an "engine" that plays a script on its own thread, as the real
 * engine calls listeners from its loop. Records what the controller asked of it.
 */
public final class ScriptedModel {

    /** One step of the script. */
    public sealed interface Step {}

    /**
     * Emits the tokens of {@code text} for a choice. Start it with a space: SentencePiece marks the
     * start of a word with one, and encoding adds it to the first word itself.
     */
    public record Text(int choice, String text) implements Step {}

    public record Finish(int choice, FinishReason reason) implements Step {}

    public record Fail(Throwable error) implements Step {}

    public record Pause(Duration duration) implements Step {}

    public static final Tokenizer TOKENIZER = tokenizer();

    private final ServedTextModel model = mock(ServedTextModel.class);
    private final List<InferenceRequest> requests = new CopyOnWriteArrayList<>();
    private final AtomicBoolean cancelled = new AtomicBoolean();
    private final List<Integer> stopped = new CopyOnWriteArrayList<>();
    private volatile List<Step> script = List.of();

    public ScriptedModel(String id) {
        when(model.id()).thenReturn(id);
        when(model.tokenizer()).thenReturn(TOKENIZER);
        when(model.maxModelLen()).thenReturn(2048);
        when(model.endOfGeneration()).thenReturn(Set.of(2));
        when(model.chatTemplate()).thenReturn(ChatTemplate.fallback("<s>", "</s>"));
        when(model.promptEncoder()).thenReturn(new PromptEncoder(TOKENIZER));
        when(model.submit(any(), any())).thenAnswer(inv -> submit(inv.getArgument(0), inv.getArgument(1)));
    }

    public ServedTextModel model() {
        return model;
    }

    /** The steps the next submitted request plays. */
    public ScriptedModel play(Step... steps) {
        script = List.of(steps);
        return this;
    }

    public List<InferenceRequest> requests() {
        return requests;
    }

    public boolean cancelled() {
        return cancelled.get();
    }

    public List<Integer> stopped() {
        return stopped;
    }

    private RequestHandle submit(InferenceRequest request, TokenListener listener) {
        requests.add(request);
        List<Step> steps = script;
        Thread.ofVirtual().start(() -> {
            try {
                for (Step step : steps) {
                    if (cancelled.get()) {
                        for (int c = 0; c < request.n(); c++) {
                            listener.onFinish(c, FinishReason.CANCELLED);
                        }
                        return;
                    }
                    switch (step) {
                        case Text t -> {
                            String text = t.text().startsWith(" ") ? t.text().substring(1) : t.text();
                            for (int id : TOKENIZER.encode(text, false, false)) {
                                listener.onToken(
                                        t.choice(),
                                        id,
                                        request.topLogprobs() < 0
                                                ? null
                                                : new TokenLogprobs(id, -0.5f, new int[] {id}, new float[] {-0.5f}));
                            }
                        }
                        case Finish f -> listener.onFinish(f.choice(), f.reason());
                        case Fail f -> listener.onError(f.error());
                        case Pause p -> Thread.sleep(p.duration());
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        return new RequestHandle() {
            @Override
            public void cancel() {
                cancelled.set(true);
            }

            @Override
            public void stop(int choice) {
                stopped.add(choice);
            }

            @Override
            public int cachedPromptTokens() {
                return 0;
            }
        };
    }

    private static Tokenizer tokenizer() {
        try (GgufFile file = GgufFile.open(TestModels.file(TestModels.TEXT))) {
            return Tokenizer.fromGguf(file.metadata());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
