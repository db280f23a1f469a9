package com.llmserve.engine.backend;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The input of one forward pass: the tokens of many sequences, each at its own positions, with
 * each sequence's KV block table. Rows of a sequence are consecutive and in position order, so a
 * row's attention sees the rows of its sequence before it. Plain data, never tensors: the
 * scheduler builds it, a model and its backend read it.
 *
 * <p>A sequence has one block table per KV group (see {@link KvStorage#groupOf}): a model whose
 * windowed and global layers keep their blocks apart gives each group its own table, so the
 * windowed layers' blocks that left every window can go back to the pool. Every sequence of a
 * batch has the same number of groups; group 0 is what the one-group accessors read.
 *
 * <p>A row may take its token from the pass before ({@link Builder#addChoice}): the best token of
 * one of that pass's logit rows, not known on the host when this batch is built, so a decode step
 * can be issued while the one before it still runs ({@code LanguageModel#submit}).
 */
public final class Batch {

    /** Which rows of a sequence the forward pass returns logits for. */
    public enum Logits {
        NONE,
        LAST,
        ALL
    }

    private final int blockSize;
    private final int[] tokens;
    private final int[] positions;
    private final int[] sequenceOfRow;
    /** [group][sequence]: each group's block table of each sequence. */
    private final int[][][] blockTables;

    private final int[] logitRows;
    /** Per row, 1 + the previous pass's logit row whose best token this row takes, or 0; null when none. */
    private final int[] choices;

    private Batch(
            int blockSize,
            int[] tokens,
            int[] positions,
            int[] sequenceOfRow,
            int[][][] blockTables,
            int[] logitRows,
            int[] choices) {
        this.blockSize = blockSize;
        this.tokens = tokens;
        this.positions = positions;
        this.sequenceOfRow = sequenceOfRow;
        this.blockTables = blockTables;
        this.logitRows = logitRows;
        this.choices = choices;
    }

    public static Builder builder(int blockSize) {
        return new Builder(blockSize);
    }

    public int size() {
        return tokens.length;
    }

    public int blockSize() {
        return blockSize;
    }

    /** Row {@code row}'s token; a placeholder (0) for a row that {@link #takesChoice takes a choice}. */
    public int token(int row) {
        return tokens[row];
    }

    public int[] tokens() {
        return tokens.clone();
    }

    /** Whether some row's token is a choice of the pass before ({@link Builder#addChoice}). */
    public boolean takesChoices() {
        return choices != null;
    }

    /** The previous pass's logit row whose best token row {@code row} takes, or -1 for a row with its own token. */
    public int choiceOf(int row) {
        return choices == null ? -1 : choices[row] - 1;
    }

    /**
     * This batch with every row that takes a choice given it: {@code best[r]} is the best token of
     * the previous pass's logit row r.
     */
    public Batch withChoices(int[] best) {
        if (choices == null) {
            return this;
        }
        int[] t = tokens.clone();
        for (int row = 0; row < t.length; row++) {
            if (choices[row] > best.length) {
                throw new IllegalArgumentException("row " + row + " takes the choice of logit row " + (choices[row] - 1)
                        + " of a pass with " + best.length);
            }
            if (choices[row] > 0) {
                t[row] = best[choices[row] - 1];
            }
        }
        return new Batch(blockSize, t, positions, sequenceOfRow, blockTables, logitRows, null);
    }

    public int position(int row) {
        return positions[row];
    }

    public int sequenceOf(int row) {
        return sequenceOfRow[row];
    }

    public int sequences() {
        return blockTables[0].length;
    }

    /** KV groups: block tables per sequence. */
    public int groups() {
        return blockTables.length;
    }

    /** The block table of sequence {@code seq} (an index into this batch's sequences) in group 0; do not modify. */
    public int[] blockTable(int seq) {
        return blockTables[0][seq];
    }

    /**
     * The block table of sequence {@code seq} in KV group {@code group}; do not modify. Entries of
     * blocks that left a windowed group's window are {@code 0} (the reserved null block): attention
     * never reads them.
     */
    public int[] blockTable(int group, int seq) {
        return blockTables[group][seq];
    }

    /** The cache slot ({@code block * blockSize + offset}) of the token at {@code position} of sequence {@code seq}. */
    public int slot(int seq, int position) {
        return slot(0, seq, position);
    }

    /** {@link #slot(int, int)} in KV group {@code group}. */
    public int slot(int group, int seq, int position) {
        return blockTables[group][seq][position / blockSize] * blockSize + position % blockSize;
    }

    /** The cache slot that row {@code row}'s key and value go to. */
    public int slotOfRow(int row) {
        return slot(0, sequenceOfRow[row], positions[row]);
    }

    /** {@link #slotOfRow(int)} in KV group {@code group}. */
    public int slotOfRow(int group, int row) {
        return slot(group, sequenceOfRow[row], positions[row]);
    }

    /** The last position of each sequence among the batch's rows (-1 for a sequence without rows). */
    public int[] lastPositions() {
        int[] last = new int[sequences()];
        Arrays.fill(last, -1);
        for (int t = 0; t < tokens.length; t++) {
            last[sequenceOfRow[t]] = Math.max(last[sequenceOfRow[t]], positions[t]);
        }
        return last;
    }

    /** Rows whose logits the forward pass returns, in the order it returns them. */
    public int[] logitRows() {
        return logitRows.clone();
    }

    public int logitRowCount() {
        return logitRows.length;
    }

    /**
     * Rows {@code [from, to)} as a batch of their own (the same sequences and block tables), for
     * running a batch larger than the scratch buffers in chunks.
     */
    public Batch slice(int from, int to) {
        if (from == 0 && to == tokens.length) {
            return this;
        }
        int[] rows = Arrays.stream(logitRows)
                .filter(r -> r >= from && r < to)
                .map(r -> r - from)
                .toArray();
        return new Batch(
                blockSize,
                Arrays.copyOfRange(tokens, from, to),
                Arrays.copyOfRange(positions, from, to),
                Arrays.copyOfRange(sequenceOfRow, from, to),
                blockTables,
                rows,
                choices == null ? null : Arrays.copyOfRange(choices, from, to));
    }

    @Override
    public String toString() {
        return "Batch[" + tokens.length + " tokens, " + sequences() + " sequences, " + logitRows.length + " logit rows"
                + (groups() > 1 ? ", " + groups() + " KV groups" : "") + "]";
    }

    public static final class Builder {
        private final int blockSize;
        private final List<int[][]> tables = new ArrayList<>();
        private int[] tokens = new int[16];
        private int[] positions = new int[16];
        private int[] sequenceOfRow = new int[16];
        private int[] logitRows = new int[4];
        private int[] choices;
        private int rows;
        private int logits;

        private Builder(int blockSize) {
            if (blockSize <= 0) {
                throw new IllegalArgumentException("block size must be positive: " + blockSize);
            }
            this.blockSize = blockSize;
        }

        /**
         * Adds {@code count} tokens of a sequence starting at {@code startPosition}.
         *
         * Sequences are numbered in the order they are added.
         *
         * @param blockTable the sequence's blocks; must cover every position added
         */
        public Builder add(
                int[] blockTable, int startPosition, int[] sequenceTokens, int offset, int count, Logits wanted) {
            return add(new int[][] {blockTable}, startPosition, sequenceTokens, offset, count, wanted);
        }

        /**
         * Adds {@code count} tokens of a sequence with a block table per KV group (the same number of
         * groups for every sequence of the batch).
         *
         * @param groupTables the sequence's blocks in each group; each must cover every position added
         */
        public Builder add(
                int[][] groupTables, int startPosition, int[] sequenceTokens, int offset, int count, Logits wanted) {
            if (groupTables.length == 0) {
                throw new IllegalArgumentException("a sequence needs at least one block table");
            }
            if (!tables.isEmpty() && tables.getFirst().length != groupTables.length) {
                throw new IllegalArgumentException("a sequence with " + groupTables.length + " KV groups in a batch of "
                        + tables.getFirst().length);
            }
            if (count <= 0) {
                throw new IllegalArgumentException("a sequence adds at least one token");
            }
            if (startPosition < 0) {
                throw new IllegalArgumentException("negative position " + startPosition);
            }
            long last = (long) startPosition + count - 1;
            for (int[] blockTable : groupTables) {
                if (last >= (long) blockTable.length * blockSize) {
                    throw new IllegalArgumentException(
                            "block table of " + blockTable.length + " blocks does not cover position " + last);
                }
            }
            int seq = tables.size();
            tables.add(groupTables.clone());
            ensure(rows + count);
            for (int i = 0; i < count; i++) {
                tokens[rows + i] = sequenceTokens[offset + i];
                positions[rows + i] = startPosition + i;
                sequenceOfRow[rows + i] = seq;
            }
            switch (wanted) {
                case LAST -> addLogitRow(rows + count - 1);
                case ALL -> {
                    for (int i = 0; i < count; i++) {
                        addLogitRow(rows + i);
                    }
                }
                case NONE -> {}
            }
            rows += count;
            return this;
        }

        public Builder add(int[] blockTable, int startPosition, int[] sequenceTokens, Logits wanted) {
            return add(blockTable, startPosition, sequenceTokens, 0, sequenceTokens.length, wanted);
        }

        /**
         * Adds one token of a sequence at {@code position}: the best token of logit row
         * {@code previousRow} of the forward pass submitted just before this batch's.
         */
        public Builder addChoice(int[] blockTable, int position, int previousRow, Logits wanted) {
            return addChoice(new int[][] {blockTable}, position, previousRow, wanted);
        }

        /** {@link #addChoice(int[], int, int, Logits)} for a sequence with a block table per KV group. */
        public Builder addChoice(int[][] groupTables, int position, int previousRow, Logits wanted) {
            if (previousRow < 0) {
                throw new IllegalArgumentException("negative logit row " + previousRow);
            }
            add(groupTables, position, new int[1], 0, 1, wanted);
            if (choices == null) {
                choices = new int[tokens.length];
            }
            choices[rows - 1] = previousRow + 1;
            return this;
        }

        public int size() {
            return rows;
        }

        public Batch build() {
            if (rows == 0) {
                throw new IllegalStateException("empty batch");
            }
            int groups = tables.getFirst().length;
            int[][][] byGroup = new int[groups][tables.size()][];
            for (int s = 0; s < tables.size(); s++) {
                for (int g = 0; g < groups; g++) {
                    byGroup[g][s] = tables.get(s)[g];
                }
            }
            return new Batch(
                    blockSize,
                    Arrays.copyOf(tokens, rows),
                    Arrays.copyOf(positions, rows),
                    Arrays.copyOf(sequenceOfRow, rows),
                    byGroup,
                    Arrays.copyOf(logitRows, logits),
                    choices == null ? null : Arrays.copyOf(choices, rows));
        }

        private void addLogitRow(int row) {
            if (logits == logitRows.length) {
                logitRows = Arrays.copyOf(logitRows, logits * 2);
            }
            logitRows[logits++] = row;
        }

        private void ensure(int capacity) {
            if (capacity > tokens.length) {
                int n = Math.max(capacity, tokens.length * 2);
                tokens = Arrays.copyOf(tokens, n);
                positions = Arrays.copyOf(positions, n);
                sequenceOfRow = Arrays.copyOf(sequenceOfRow, n);
                if (choices != null) {
                    choices = Arrays.copyOf(choices, n);
                }
            }
        }
    }
}
