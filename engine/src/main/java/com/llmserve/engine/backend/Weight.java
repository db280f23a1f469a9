package com.llmserve.engine.backend;

import com.llmserve.engine.gguf.GgmlType;

/**
 * A weight owned by a backend: a matrix of {@code rows x cols} that products read, an embedding
 * table that {@link Backend#embed} gathers rows of, a float32 vector ({@code rows == 1}: norm
 * weights, biases), or a mixture's experts (as many matrices of {@code rows x cols}). Closing it frees what the backend made for it (a packed copy, device memory);
 * the model that uploaded it closes it.
 */
public abstract class Weight extends BackendResource {

    /** What a weight was uploaded as, which decides the operations that take it. */
    public enum Kind {
        /** {@link Backend#uploadMatrix}: the weight of {@link Backend#matmul}. */
        MATRIX,
        /** {@link Backend#uploadTable}: the table of {@link Backend#embed}. */
        TABLE,
        /** {@link Backend#uploadVector}: norm weights and biases. */
        VECTOR,
        /** {@link Backend#uploadExperts}: the stacked matrices of {@link Backend#expertMatmul}. */
        EXPERTS
    }

    private final String name;
    private final GgmlType type;
    private final Kind kind;
    private final long rows;
    private final int cols;
    private final int experts;

    protected Weight(Backend owner, String name, GgmlType type, Kind kind, long rows, int cols) {
        this(owner, name, type, kind, rows, cols, 1);
    }

    /** @param experts for {@link Kind#EXPERTS}: how many matrices of {@code rows x cols} it stacks */
    protected Weight(Backend owner, String name, GgmlType type, Kind kind, long rows, int cols, int experts) {
        super(owner);
        this.name = name;
        this.type = type;
        this.kind = kind;
        this.rows = rows;
        this.cols = cols;
        this.experts = experts;
    }

    public final String name() {
        return name;
    }

    /** The file's type (of the first part of a fused matrix); {@code F32} for vectors. */
    public final GgmlType type() {
        return type;
    }

    public final Kind kind() {
        return kind;
    }

    public final long rows() {
        return rows;
    }

    public final int cols() {
        return cols;
    }

    /** Matrices stacked in an {@link Kind#EXPERTS} weight (each of {@link #rows()} rows); 1 otherwise. */
    public final int experts() {
        return experts;
    }

    @Override
    public String toString() {
        return name + " " + type + " " + kind.name().toLowerCase(java.util.Locale.ROOT) + " [" + rows + " x " + cols
                + "] on " + owner().name();
    }
}
