package com.llmserve.app.openai.chat;

import com.llmserve.app.generation.Delta;
import com.llmserve.app.openai.GenerationShape;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * A chat completion as OpenAI shapes it. Streamed: per choice a first delta with the role, then
 * content deltas, then an empty delta with the finish reason. Whole: each choice's assistant message.
 */
final class ChatShape implements GenerationShape<ChatResponses.ChunkChoice> {

    private final ChatRequest request;
    private final String id;
    private final long created;

    ChatShape(ChatRequest request, String id, long created) {
        this.request = request;
        this.id = id;
        this.created = created;
    }

    @Override
    public List<ChatResponses.ChunkChoice> opening() {
        List<ChatResponses.ChunkChoice> roles = new ArrayList<>(request.n());
        for (int i = 0; i < request.n(); i++) {
            roles.add(new ChatResponses.ChunkChoice(i, new ChatResponses.Delta("assistant", ""), null, null));
        }
        return roles;
    }

    @Override
    public List<ChatResponses.ChunkChoice> chunks(Delta d) {
        List<ChatResponses.ChunkChoice> chunks = new ArrayList<>(2);
        if (!d.text().isEmpty() || (logprobs() && !d.tokens().isEmpty())) {
            chunks.add(new ChatResponses.ChunkChoice(
                    d.index(),
                    new ChatResponses.Delta(null, d.text()),
                    logprobs() ? ChatResponses.Logprobs.of(d.tokens()) : null,
                    null));
        }
        if (d.finished()) {
            chunks.add(new ChatResponses.ChunkChoice(
                    d.index(), new ChatResponses.Delta(null, null), null, d.finishReason()));
        }
        return chunks;
    }

    @Override
    public ChatResponses.Chunk chunk(List<ChatResponses.ChunkChoice> choices, JsonNode usage) {
        return new ChatResponses.Chunk(id, ChatResponses.CHUNK_OBJECT, created, request.model(), choices, usage);
    }

    @Override
    public ChatResponses.ChatCompletion answer(List<Collected> choices, JsonNode usage) {
        List<ChatResponses.Choice> answered = new ArrayList<>(choices.size());
        for (int i = 0; i < choices.size(); i++) {
            Collected c = choices.get(i);
            answered.add(new ChatResponses.Choice(
                    i,
                    new ChatResponses.Message("assistant", c.text(), null),
                    logprobs() ? ChatResponses.Logprobs.of(c.tokens()) : null,
                    c.finishReason()));
        }
        return new ChatResponses.ChatCompletion(id, ChatResponses.OBJECT, created, request.model(), answered, usage);
    }

    private boolean logprobs() {
        return request.topLogprobs() >= 0;
    }
}
