package com.llmserve.engine.backend.gpu;

/**
 * One operation of a step as the GPU backend records it: plain values and handles (row counts
 * padded to the step's bucket), and the launches it makes. Two steps that record equal lists of
 * operations launch the same kernels on the same buffers, which is what lets a captured graph
 * stand in for the list. Batch data (positions, slots, block tables, ids, row indices) is not part
 * of an operation: it goes to the step's metadata buffer, which kernels read.
 *
 * <p>One record per operation, each in its own file with its launch code; {@link Fusions} merges
 * neighbours.
 */
interface DeviceOp {

    /** Issues the operation's kernels (and BLAS calls) on {@code l}'s stream; allocates nothing. */
    void launch(Launch l);

    /** Sizes the workspace buffers the launch will use; called when the operation is recorded. */
    default void reserve(Workspace w) {}

    /**
     * Whether the operation may be captured into a graph: not when it calls the vendor BLAS (whose
     * workspace belongs to the capturing stream's handle) or sizes its grid from the batch.
     */
    default boolean graphable() {
        return true;
    }

    /** The padded rows it runs over. */
    int n();

    /** What profiles group this operation's time under: its kind and shape. */
    String profileKey();

    /** Weight bytes the operation reads (for bandwidth figures), 0 when it reads none. */
    default long weightBytes() {
        return 0;
    }
}
