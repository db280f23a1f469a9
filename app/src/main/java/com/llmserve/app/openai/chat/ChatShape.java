package com.llmserve.app.openai.chat;

import com.llmserve.app.generation.Delta;
import com.llmserve.app.openai.GenerationShape;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * A chat completion as OpenAI shapes it. Streamed: per choice a first delta with the role, then
 * deltas of content, reasoning and tool calls, then an empty delta with the finish reason. Whole:
 * each choice's assistant message. A choice that called a tool finishes with {@code tool_calls}.
 */
final class ChatShape implements GenerationShape<ChatResponses.ChunkChoice> {

    private final ChatRequest request;
    private final String id;
    private final long created;
    private final AnswerReader.Options reading;
    private final Map<Integer, AnswerReader> readers = new HashMap<>();

    ChatShape(ChatRequest request, String id, long created, AnswerReader.Options reading) {
        this.request = request;
        this.id = id;
        this.created = created;
        this.reading = reading;
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
        AnswerReader reader = readers.computeIfAbsent(d.index(), i -> new AnswerReader(reading));
        AnswerReader.Update u = d.finished() ? reader.last(d.text()) : reader.feed(d.text());
        if (!u.isEmpty() || (logprobs() && !d.tokens().isEmpty())) {
            chunks.add(new ChatResponses.ChunkChoice(
                    d.index(),
                    new ChatResponses.Delta(
                            null,
                            u.content().isEmpty()
                                            && (!u.reasoning().isEmpty()
                                                    || !u.calls().isEmpty())
                                    ? null
                                    : u.content(),
                            u.reasoning().isEmpty() ? null : u.reasoning(),
                            u.calls().isEmpty() ? null : u.calls()),
                    logprobs() ? ChatResponses.Logprobs.of(d.tokens()) : null,
                    null));
        }
        if (d.finished()) {
            chunks.add(new ChatResponses.ChunkChoice(
                    d.index(), new ChatResponses.Delta(null, null), null, finishReason(d.finishReason(), reader)));
        }
        return chunks;
    }

    /** OpenAI reports {@code tool_calls} when the model stopped after calling tools. */
    private static String finishReason(String reason, AnswerReader reader) {
        return reader.calledTools() && "stop".equals(reason) ? "tool_calls" : reason;
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
            AnswerReader.Answer a = AnswerReader.read(c.text(), reading);
            answered.add(new ChatResponses.Choice(
                    i,
                    new ChatResponses.Message("assistant", a.content(), null, a.reasoning(), a.calls()),
                    logprobs() ? ChatResponses.Logprobs.of(c.tokens()) : null,
                    a.calls().isEmpty() || !"stop".equals(c.finishReason()) ? c.finishReason() : "tool_calls"));
        }
        return new ChatResponses.ChatCompletion(id, ChatResponses.OBJECT, created, request.model(), answered, usage);
    }

    private boolean logprobs() {
        return request.topLogprobs() >= 0;
    }
}
