package com.llmserve.app.openai;

import com.llmserve.app.generation.Delta;
import com.llmserve.app.generation.Generation;
import com.llmserve.app.generation.OutputToken;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;
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
     * The response to {@code generation} in the chunks of chat and completions: the streaming
     * body, the answer, or null when the answer was written straight to {@code response} (after
     * keep-alive spaces) or the client left.
     */
    public <C> Object respond(
            Generation generation,
            GenerationFields.Streaming streaming,
            GenerationShape<C> shape,
            HttpServletRequest http,
            HttpServletResponse response)
            throws InterruptedException, IOException {
        if (streaming.stream()) {
            return stream(generation, new ChunkEvents<>(shape, streaming.includeUsage(), json), response);
        }
        return answer(
                generation,
                (choices, usage) -> shape.answer(choices, json.valueToTree(ApiUsage.of(usage))),
                http,
                response);
    }

    /** The body of a 200 response that streams {@code generation} as {@code events}; it closes the generation. */
    public StreamingResponseBody stream(Generation generation, StreamEvents events, HttpServletResponse response) {
        return GenerationStream.body(generation, events, keepAliveInterval, json, response);
    }

    /**
     * The whole answer once every choice has finished, while the client is watched: the answer,
     * or null when it was written straight to {@code response} (after keep-alive spaces) or the
     * client left. Closes the generation.
     */
    public Object answer(
            Generation generation, WholeAnswer answer, HttpServletRequest http, HttpServletResponse response)
            throws InterruptedException, IOException {
        try (generation) {
            AnswerKeepAlive keepAlive = new AnswerKeepAlive(http, response, keepAliveInterval);
            List<GenerationShape.Collected> choices = collect(generation, keepAlive);
            if (choices == null) {
                return null; // the client left: closing the generation cancels it
            }
            return keepAlive.respond(answer.of(choices, generation.usage()), json);
        }
    }

    /** An endpoint's answer from its choices' whole output. */
    @FunctionalInterface
    public interface WholeAnswer {

        /** @param choices every choice's output, in index order */
        Object of(List<GenerationShape.Collected> choices, Generation.Usage usage);
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
