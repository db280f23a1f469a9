package com.llmserve.engine.chat.tools;

import java.util.function.Consumer;

/** Gives a growing output to a {@link Scanner}, keeping only the text that it has not yet told apart. */
final class OutputSplitter {

    private final Scanner scanner;
    private final StringBuilder undecided = new StringBuilder();

    OutputSplitter(Scanner scanner) {
        this.scanner = scanner;
    }

    /** Adds text to the output, and passes on the pieces that are now decided. */
    void append(String delta, Consumer<Piece> pieces) {
        undecided.append(delta);
        split(false, pieces);
    }

    /** Ends the output, and passes on its last pieces. */
    void finish(Consumer<Piece> pieces) {
        split(true, pieces);
    }

    private void split(boolean ended, Consumer<Piece> pieces) {
        String text = undecided.toString();
        int from = 0;
        while (from < text.length()) {
            Piece piece = scanner.next(text, from, ended);
            if (piece == null) {
                break;
            }
            pieces.accept(piece);
            from = piece.end();
        }
        undecided.delete(0, from);
    }
}
