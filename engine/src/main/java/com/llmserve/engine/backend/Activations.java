package com.llmserve.engine.backend;

/**
 * A backend-owned float32 matrix of {@code rows} (tokens) by {@code cols}, row-major. Made by
 * {@link Backend#allocate}; closing it frees its memory and any later use is refused.
 */
public abstract class Activations extends BackendResource {

    private final int rows;
    private final int cols;

    protected Activations(Backend owner, int rows, int cols) {
        super(owner);
        this.rows = rows;
        this.cols = cols;
    }

    public final int rows() {
        return rows;
    }

    public final int cols() {
        return cols;
    }

    @Override
    public String toString() {
        return owner().name() + " activations " + rows + "x" + cols;
    }
}
