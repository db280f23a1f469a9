package com.llmserve.engine.chat.tools;

import java.util.List;

/** Finding a format's markers in output that may still grow. */
final class Markers {

    private Markers() {}

    /** Where the first of {@code markers} at or after {@code from} starts, or -1. */
    static int indexOfAny(String text, int from, List<String> markers) {
        int first = -1;
        for (String marker : markers) {
            int at = text.indexOf(marker, from);
            if (at >= 0 && (first < 0 || at < first)) {
                first = at;
            }
        }
        return first;
    }

    /** The marker that starts at {@code at}, or null. */
    static String markerAt(String text, int at, List<String> markers) {
        for (String marker : markers) {
            if (text.startsWith(marker, at)) {
                return marker;
            }
        }
        return null;
    }

    /**
     * Where the plain text from {@code from} on ends: at the next marker, or, when there is none,
     * before a tail that more text could make into one ({@code "<tool"}), unless the output has
     * ended. The tail waits: told as text now, it could not be a marker later.
     */
    static int textEnd(String text, int from, boolean ended, List<String> markers) {
        int marker = indexOfAny(text, from, markers);
        if (marker >= 0) {
            return marker;
        }
        return ended ? text.length() : text.length() - markerStartAtEnd(text, from, markers);
    }

    /** The length of the longest tail of {@code text[from:]} that starts some marker without being one. */
    private static int markerStartAtEnd(String text, int from, List<String> markers) {
        int longest = 0;
        for (String marker : markers) {
            for (int length = Math.min(marker.length() - 1, text.length() - from); length > longest; length--) {
                if (marker.regionMatches(0, text, text.length() - length, length)) {
                    longest = length;
                }
            }
        }
        return longest;
    }
}
