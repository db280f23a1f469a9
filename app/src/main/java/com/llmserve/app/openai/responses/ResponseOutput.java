package com.llmserve.app.openai.responses;

import com.llmserve.app.generation.Delta;
import com.llmserve.app.generation.OutputToken;
import com.llmserve.app.openai.Ids;
import com.llmserve.app.openai.chat.AnswerReader;
import com.llmserve.app.openai.chat.ChatResponses;
import com.llmserve.app.openai.chat.ChatResponses.TokenLogprob;
import com.llmserve.app.openai.responses.ResponseObjects.ArgumentsDelta;
import com.llmserve.app.openai.responses.ResponseObjects.ArgumentsDone;
import com.llmserve.app.openai.responses.ResponseObjects.Event;
import com.llmserve.app.openai.responses.ResponseObjects.FunctionCall;
import com.llmserve.app.openai.responses.ResponseObjects.ItemEvent;
import com.llmserve.app.openai.responses.ResponseObjects.Message;
import com.llmserve.app.openai.responses.ResponseObjects.OutputItem;
import com.llmserve.app.openai.responses.ResponseObjects.OutputText;
import com.llmserve.app.openai.responses.ResponseObjects.PartEvent;
import com.llmserve.app.openai.responses.ResponseObjects.ReasoningItem;
import com.llmserve.app.openai.responses.ResponseObjects.ReasoningText;
import com.llmserve.app.openai.responses.ResponseObjects.TextDelta;
import com.llmserve.app.openai.responses.ResponseObjects.TextDone;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns the one choice of a response into output items, as its text arrives: the thinking
 * becomes a {@code reasoning} item, the answer a {@code message}, each tool call a
 * {@code function_call}, in the order the model wrote them. Each step returns the stream events it
 * causes; a whole answer is one step whose events are not sent, so streamed and whole responses
 * hold the same items.
 *
 * <p>White space between items (after the thinking, between calls) opens no message of its own:
 * it is held, and becomes the start of the next message, or is dropped when none follows. An
 * answer with no item at all is an empty message.
 *
 * <p>Not thread-safe: one per response.
 */
final class ResponseOutput {

    private final AnswerReader reader;
    private final boolean logprobs;
    private final List<Item> items = new ArrayList<>();
    private final Map<Integer, Item> calls = new HashMap<>();
    private Item open;
    private String heldSpace = "";
    /** Tokens whose text has not yet shown up in the message, for its log-probabilities. */
    private final List<OutputToken> pendingTokens = new ArrayList<>();

    private int reasoningTokens;
    private int sequence;
    private String finishReason;

    /** @param logprobs whether the message's text carries its tokens' log-probabilities */
    ResponseOutput(AnswerReader.Options reading, boolean logprobs) {
        this.reader = new AnswerReader(reading);
        this.logprobs = logprobs;
    }

    /** The next event's {@code sequence_number}. */
    int nextSequence() {
        return sequence++;
    }

    /** The events that new output of the choice causes; its last delta closes every item. */
    List<Event> feed(Delta d) {
        List<Event> events = new ArrayList<>();
        AnswerReader.Update u = d.finished() ? reader.last(d.text()) : reader.feed(d.text());
        if (logprobs) {
            pendingTokens.addAll(d.tokens());
        }
        if (!u.reasoning().isEmpty()) {
            if (u.content().isEmpty() && u.calls().isEmpty()) {
                reasoningTokens += d.tokens().size();
            }
            reasoning(u.reasoning(), events);
        }
        if (!u.content().isEmpty()) {
            content(u.content(), events);
        } else if (!u.reasoning().isEmpty() || !u.calls().isEmpty()) {
            pendingTokens.clear(); // those tokens wrote thinking or a call, not the message
        }
        for (ChatResponses.ToolCallDelta c : u.calls()) {
            call(c, events);
        }
        if (d.finished()) {
            finish(d.finishReason(), events);
        }
        return events;
    }

    /** The output items, in order; whole once the last delta was fed. */
    List<OutputItem> items() {
        return items.stream().map(Item::snapshot).toList();
    }

    /** Whether the choice was cut off by its token budget. */
    boolean incomplete() {
        return "length".equals(finishReason);
    }

    /** The output tokens that only wrote thinking. */
    int reasoningTokens() {
        return reasoningTokens;
    }

    private void reasoning(String text, List<Event> events) {
        if (open == null || open.kind != Kind.REASONING) {
            heldSpace = "";
            start(new Item(Kind.REASONING, Ids.next("rs_"), items.size()), events);
        }
        open.text.append(text);
        events.add(new TextDelta("response.reasoning_text.delta", nextSequence(), open.id, open.index, 0, text, null));
    }

    private void content(String text, List<Event> events) {
        if (open == null || open.kind != Kind.MESSAGE) {
            if (text.isBlank()) {
                heldSpace += text;
                return;
            }
            text = heldSpace + text;
            heldSpace = "";
            start(new Item(Kind.MESSAGE, Ids.next("msg_"), items.size()), events);
        }
        List<TokenLogprob> lp = null;
        if (logprobs) {
            lp = ChatResponses.Logprobs.of(pendingTokens).content();
            open.logprobs.addAll(lp);
        }
        pendingTokens.clear();
        open.text.append(text);
        events.add(new TextDelta(
                "response.output_text.delta",
                nextSequence(),
                open.id,
                open.index,
                0,
                text,
                lp == null ? List.of() : lp));
    }

    private void call(ChatResponses.ToolCallDelta c, List<Event> events) {
        Item item = calls.get(c.index());
        if (item == null) {
            heldSpace = "";
            item = new Item(Kind.CALL, Ids.next("fc_"), items.size());
            item.callId = c.id();
            item.name = c.function().name();
            calls.put(c.index(), item);
            start(item, events);
        }
        String fragment = c.function().arguments();
        if (fragment != null && !fragment.isEmpty()) {
            item.text.append(fragment);
            events.add(new ArgumentsDelta(
                    "response.function_call_arguments.delta", nextSequence(), item.id, item.index, fragment));
        }
    }

    private void finish(String reason, List<Event> events) {
        finishReason = reason;
        if (items.isEmpty()) {
            start(new Item(Kind.MESSAGE, Ids.next("msg_"), 0), events);
            open.text.append(heldSpace);
        }
        if (open != null && incomplete()) {
            open.status = "incomplete";
        }
        close(events);
    }

    private void start(Item item, List<Event> events) {
        close(events);
        items.add(item);
        open = item;
        events.add(new ItemEvent("response.output_item.added", nextSequence(), item.index, item.snapshot()));
        switch (item.kind) {
            case MESSAGE ->
                events.add(new PartEvent(
                        "response.content_part.added",
                        nextSequence(),
                        item.id,
                        item.index,
                        0,
                        new OutputText("output_text", "", List.of(), List.of())));
            case REASONING ->
                events.add(new PartEvent(
                        "response.content_part.added",
                        nextSequence(),
                        item.id,
                        item.index,
                        0,
                        new ReasoningText("reasoning_text", "")));
            case CALL -> {}
        }
    }

    /** Closes the open item: its done events, in OpenAI's order. */
    private void close(List<Event> events) {
        Item item = open;
        if (item == null) {
            return;
        }
        open = null;
        if (item.status.equals("in_progress")) {
            item.status = "completed";
        }
        String text = item.text.toString();
        switch (item.kind) {
            case MESSAGE -> {
                events.add(new TextDone(
                        "response.output_text.done",
                        nextSequence(),
                        item.id,
                        item.index,
                        0,
                        text,
                        List.copyOf(item.logprobs)));
                events.add(new PartEvent(
                        "response.content_part.done", nextSequence(), item.id, item.index, 0, item.outputText()));
            }
            case REASONING -> {
                events.add(new TextDone(
                        "response.reasoning_text.done", nextSequence(), item.id, item.index, 0, text, null));
                events.add(new PartEvent(
                        "response.content_part.done",
                        nextSequence(),
                        item.id,
                        item.index,
                        0,
                        new ReasoningText("reasoning_text", text)));
            }
            case CALL ->
                events.add(new ArgumentsDone(
                        "response.function_call_arguments.done", nextSequence(), item.id, item.index, item.name, text));
        }
        events.add(new ItemEvent("response.output_item.done", nextSequence(), item.index, item.snapshot()));
    }

    private enum Kind {
        MESSAGE,
        REASONING,
        CALL
    }

    /** An output item being written: its text is the message, the thinking, or the call's arguments. */
    private static final class Item {
        final Kind kind;
        final String id;
        final int index;
        final StringBuilder text = new StringBuilder();
        final List<TokenLogprob> logprobs = new ArrayList<>();
        String status = "in_progress";
        String callId;
        String name;

        Item(Kind kind, String id, int index) {
            this.kind = kind;
            this.id = id;
            this.index = index;
        }

        OutputText outputText() {
            return new OutputText("output_text", text.toString(), List.of(), List.copyOf(logprobs));
        }

        /** The item as it stands; an item just added has no content yet. */
        OutputItem snapshot() {
            boolean added = status.equals("in_progress");
            return switch (kind) {
                case MESSAGE ->
                    new Message("message", id, status, "assistant", added ? List.of() : List.of(outputText()));
                case REASONING ->
                    new ReasoningItem(
                            "reasoning",
                            id,
                            List.of(),
                            added ? List.of() : List.of(new ReasoningText("reasoning_text", text.toString())),
                            null,
                            status);
                case CALL -> new FunctionCall("function_call", id, callId, name, text.toString(), status);
            };
        }
    }
}
