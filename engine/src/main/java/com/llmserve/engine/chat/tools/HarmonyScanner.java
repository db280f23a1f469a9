package com.llmserve.engine.chat.tools;

import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * gpt-oss's harmony messages: {@code <|start|>assistant<|channel|>CHANNEL[ to=RECIPIENT][
 * <|constrain|>json]<|message|>BODY} and then {@code <|end|>}, {@code <|call|>} or
 * {@code <|return|>}. The prompt ends with the first {@code <|start|>assistant}, so output starts
 * at a {@code <|channel|>}, or at a {@code " to=RECIPIENT"} that the model wrote after the role.
 * Bodies on the {@code analysis} channel are reasoning, the others
 * ({@code final}, and {@code commentary} without a recipient, the preambles that OpenAI shows)
 * content; a body addressed {@code to=functions.NAME} is a call, its JSON the arguments.
 *
 * <p>A body also ends where the output does, since the server stops at {@code <|call|>} and
 * {@code <|return|>} and need not keep them. A message to any other recipient (gpt-oss's built-in
 * {@code browser} and {@code python} tools) or whose body is not a JSON object is content, markers
 * and all. Reasoning and content are given as they come; a message to a recipient waits for its
 * end.
 */
final class HarmonyScanner implements Scanner {

    static final String START = "<|start|>";
    static final String CHANNEL = "<|channel|>";
    static final String MESSAGE = "<|message|>";
    static final String END = "<|end|>";
    static final String CALL = "<|call|>";
    static final String RETURN = "<|return|>";

    private static final List<String> HEADER_STARTS = List.of(START, CHANNEL);
    /** At the start of the output, the header that the prompt began may go on with a recipient. */
    private static final List<String> FIRST_HEADER_STARTS = List.of(START, CHANNEL, " to=");
    /** What ends a message, kept out of any text. */
    private static final List<String> MESSAGE_ENDS = List.of(END, CALL, RETURN);
    /** Where a body stops: the ends of a message, or the next message without one. */
    private static final List<String> BODY_ENDS = List.of(END, CALL, RETURN, START, CHANNEL);

    private static final Pattern RECIPIENT = Pattern.compile("\\bto=([^\\s<]+)");
    private static final Pattern CHANNEL_NAME = Pattern.compile(Pattern.quote(CHANNEL) + "([^\\s<]+)");
    private static final String FUNCTIONS = "functions.";

    /** The kind of body being read. */
    private enum Open {
        NOTHING,
        REASONING,
        CONTENT
    }

    private final Predicate<String> knownTool;
    private Open open = Open.NOTHING;
    private boolean started;

    HarmonyScanner(Predicate<String> knownTool) {
        this.knownTool = knownTool;
    }

    @Override
    public Piece next(String text, int from, boolean ended) {
        Piece piece = open == Open.NOTHING ? outside(text, from, ended) : body(text, from, ended);
        started |= piece != null;
        return piece;
    }

    private Piece body(String text, int from, boolean ended) {
        String marker = Markers.markerAt(text, from, BODY_ENDS);
        if (marker != null) {
            open = Open.NOTHING;
            return MESSAGE_ENDS.contains(marker)
                    ? new Piece.Markup(from + marker.length())
                    : outside(text, from, ended);
        }
        int end = Markers.textEnd(text, from, ended, BODY_ENDS);
        if (end == from) {
            return null;
        }
        String part = text.substring(from, end);
        return open == Open.REASONING ? new Piece.Reasoning(part, end) : new Piece.Content(part, end);
    }

    private Piece outside(String text, int from, boolean ended) {
        List<String> headerStarts = started ? HEADER_STARTS : FIRST_HEADER_STARTS;
        if (Markers.markerAt(text, from, headerStarts) == null) {
            int end = Markers.textEnd(text, from, ended, headerStarts);
            return end > from ? new Piece.Content(text.substring(from, end), end) : null;
        }
        int message = text.indexOf(MESSAGE, from);
        if (message < 0) {
            return ended ? new Piece.Content(text.substring(from), text.length()) : null;
        }
        String header = text.substring(from, message);
        int body = message + MESSAGE.length();
        Matcher recipient = RECIPIENT.matcher(header);
        if (recipient.find()) {
            return addressed(text, from, body, recipient.group(1), ended);
        }
        Matcher channel = CHANNEL_NAME.matcher(header);
        open = channel.find() && channel.group(1).equals("analysis") ? Open.REASONING : Open.CONTENT;
        return new Piece.Markup(body);
    }

    /** The message from {@code from}, whose body starts at {@code body}, to {@code recipient}. */
    private Piece addressed(String text, int from, int body, String recipient, boolean ended) {
        int bodyEnd = Markers.indexOfAny(text, body, BODY_ENDS);
        if (bodyEnd < 0 && !ended) {
            return null;
        }
        bodyEnd = bodyEnd < 0 ? text.length() : bodyEnd;
        String marker = Markers.markerAt(text, bodyEnd, MESSAGE_ENDS);
        int end = marker == null ? bodyEnd : bodyEnd + marker.length();
        FoundCall call = recipient.startsWith(FUNCTIONS)
                ? FoundCall.named(
                        recipient.substring(FUNCTIONS.length()),
                        FoundCall.arguments(StrictJson.readObject(text.substring(body, bodyEnd))),
                        knownTool)
                : null;
        return call != null ? new Piece.Calls(List.of(call), end) : new Piece.Content(text.substring(from, end), end);
    }
}
