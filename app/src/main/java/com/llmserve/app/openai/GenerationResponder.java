package com.llmserve.app.openai;

import com.llmserve.app.generation.Delta;
import com.llmserve.app.generation.Generation;
import com.llmserve.app.generation.OutputToken;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The one way a started generation is answered, in the shape of its endpoint: streamed as
 * server-sent events ({@link GenerationStream}), or collected whole while the client is watched
 * ({@link AnswerKeepAlive}). Closes the generation in every case.
 */
public final class GenerationResponder {

    private final Duration keepAliveInterval;
    private final JsonMapper json;

    public GenerationResponder(ApiProperties api, JsonMapper json) {
        this.keepAliveInterval = api.keepAliveInterval();
        this.json = json;
    }

    /**
     * The response to {@code generation}: the streaming body, the answer, or null when the answer
     * was written straight to {@code response} (after keep-alive spaces) or the client left.
     */
    public <C> Object respond(
            Generation generation,
            GenerationFields.Streaming streaming,
            GenerationShape<C> shape,
            HttpServletResponse response)
            throws InterruptedException, IOException {
        if (streaming.stream()) {
            return GenerationStream.body(
                    generation, shape, streaming.includeUsage(), keepAliveInterval, json, response);
        }
        try (generation) {
            AnswerKeepAlive keepAlive = new AnswerKeepAlive(response, keepAliveInterval);
            List<GenerationShape.Collected> choices = collect(generation, keepAlive);
            if (choices == null) {
                return null; // the client left: closing the generation cancels it
            }
            JsonNode usage = json.valueToTree(ApiUsage.of(generation.usage()));
            return keepAlive.respond(shape.answer(choices, usage), json);
        }
    }

    /** Every choice's output once all finished, or null when the client left first. */
    private static List<GenerationShape.Collected> collect(Generation generation, AnswerKeepAlive keepAlive)
            throws InterruptedException {
        int count = generation.choiceCount();
        StringBuilder[] texts = new StringBuilder[count];
        List<List<OutputToken>> tokens = new ArrayList<>(count);
        String[] finish = new String[count];
        for (int i = 0; i < count; i++) {
            texts[i] = new StringBuilder();
            tokens.add(new ArrayList<>());
        }
        while (!generation.done()) {
            Delta d = generation.next(keepAlive.untilDue());
            if (!keepAlive.ping()) {
                return null;
            }
            if (d == null) {
                continue;
            }
            texts[d.index()].append(d.text());
            tokens.get(d.index()).addAll(d.tokens());
            if (d.finished()) {
                finish[d.index()] = d.finishReason();
            }
        }
        List<GenerationShape.Collected> choices = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            choices.add(new GenerationShape.Collected(texts[i].toString(), List.copyOf(tokens.get(i)), finish[i]));
        }
        return choices;
    }
}
