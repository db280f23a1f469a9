package com.llmserve.app.openai;

import com.llmserve.app.generation.Delta;
import com.llmserve.app.generation.OutputToken;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * How one endpoint shapes the output of a generation, streamed and whole; {@link GenerationResponder}
 * does the rest (framing, keep-alive, usage, errors, the client leaving).
 *
 * @param <C> a choice of one stream chunk
 */
public interface GenerationShape<C> {

    /**
     * The whole output of one choice.
     *
     * @param text         the choice's text (stop strings never included)
     * @param tokens       every token generated for it, with log-probabilities when asked
     * @param finishReason {@code stop} or {@code length}
     */
    record Collected(String text, List<OutputToken> tokens, String finishReason) {}

    /** Chunk choices sent before any output (the assistant role of a chat, an echoed prompt), a chunk each. */
    List<C> opening();

    /** Chunk choices for new output of one choice, a chunk each. */
    List<C> chunks(Delta delta);

    /**
     * One stream event holding {@code choices}.
     *
     * @param usage null for no {@code usage} field, JSON null while usage is asked for, the counts at the end
     */
    Object chunk(List<C> choices, JsonNode usage);

    /** The answer once every choice finished, its choices in index order. */
    Object answer(List<Collected> choices, JsonNode usage);
}
