package com.llmserve.app.generation;

import com.llmserve.engine.sampling.TokenLogprobs;
import com.llmserve.engine.tokenizer.StreamingDecoder;
import com.llmserve.engine.tokenizer.Tokenizer;
import java.util.ArrayList;
import java.util.List;

/**
 * The text of one choice as tokens arrive: decoded incrementally (whole characters only), searched
 * for stop strings, and released in deltas that hold back any tail that could still become a stop
 * string, so a client never sees a stop string or part of one. Not thread-safe: one request
 * thread feeds it.
 */
final class ChoiceText {

    private record Pending(int token, TokenLogprobs logprobs, int start) {}

    private final int index;
    private final Tokenizer tokenizer;
    private final StreamingDecoder decoder;
    private final List<String> stops;
    private final StringBuilder text = new StringBuilder();
    private final List<Pending> pending = new ArrayList<>();
    private int released;
    private int generated;
    private boolean finished;

    ChoiceText(int index, Tokenizer tokenizer, List<String> stops) {
        this.index = index;
        this.tokenizer = tokenizer;
        this.decoder = tokenizer.streamingDecoder();
        this.stops = stops;
    }

    boolean finished() {
        return finished;
    }

    /** Tokens generated for this choice until it ended (those after a stop string are not counted). */
    int generated() {
        return generated;
    }

    /**
     * Adds a token.
     *
     * @return what can be released now, or null when nothing can; a delta with finish reason
     *         {@code stop} means a stop string was found: the engine must be told to stop the choice
     */
    Delta onToken(int token, TokenLogprobs logprobs) {
        if (finished) {
            return null; // generated before the engine saw our stop
        }
        generated++;
        pending.add(new Pending(token, logprobs, text.length()));
        text.append(decoder.next(token));
        int stopAt = findStop();
        if (stopAt >= 0) {
            finished = true;
            return release(stopAt, "stop");
        }
        return release(text.length() - holdback(), null);
    }

    /** The engine ended the choice ({@code stop} or {@code length}); releases everything left. */
    Delta onFinish(String reason) {
        if (finished) {
            return null;
        }
        finished = true;
        text.append(decoder.finish());
        int stopAt = findStop();
        if (stopAt >= 0) {
            return release(stopAt, "stop");
        }
        return release(text.length(), reason);
    }

    private Delta release(int end, String finishReason) {
        String chunk = text.substring(released, end);
        List<OutputToken> tokens = new ArrayList<>();
        while (!pending.isEmpty()
                && (pending.getFirst().start() < end
                        || (finishReason != null
                                && end == text.length()
                                && pending.getFirst().start() <= end))) {
            tokens.add(output(pending.removeFirst()));
        }
        if (finishReason != null) {
            text.setLength(end);
            pending.clear(); // tokens that only made the stop string
        }
        released = end;
        if (chunk.isEmpty() && tokens.isEmpty() && finishReason == null) {
            return null;
        }
        return new Delta(index, chunk, tokens, finishReason);
    }

    /** The earliest start of a stop string in the unreleased text, or -1. */
    private int findStop() {
        int best = -1;
        for (String s : stops) {
            int at = text.indexOf(s, released);
            if (at >= 0 && (best < 0 || at < best)) {
                best = at;
            }
        }
        return best;
    }

    /** Length of the longest unreleased tail that is a proper prefix of a stop string. */
    private int holdback() {
        int room = text.length() - released;
        int best = 0;
        for (String s : stops) {
            for (int k = Math.min(s.length() - 1, room); k > best; k--) {
                if (endsWith(s, k)) {
                    best = k;
                    break;
                }
            }
        }
        return best;
    }

    /** Whether the text ends with the first {@code k} characters of {@code s}. */
    private boolean endsWith(String s, int k) {
        int from = text.length() - k;
        for (int i = 0; i < k; i++) {
            if (text.charAt(from + i) != s.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private OutputToken output(Pending p) {
        return OutputToken.of(tokenizer, p.token(), p.logprobs(), p.start());
    }
}
