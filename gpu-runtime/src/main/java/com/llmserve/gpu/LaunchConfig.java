package com.llmserve.gpu;

/**
 * Grid and block shape of a kernel launch, plus dynamic shared memory in bytes.
 */
public record LaunchConfig(int gridX, int gridY, int gridZ, int blockX, int blockY, int blockZ, int sharedBytes) {

    public LaunchConfig {
        if (gridX < 1 || gridY < 1 || gridZ < 1 || blockX < 1 || blockY < 1 || blockZ < 1 || sharedBytes < 0) {
            throw new IllegalArgumentException("invalid launch shape: " + gridX + "x" + gridY + "x" + gridZ
                    + " blocks of " + blockX + "x" + blockY + "x" + blockZ + ", " + sharedBytes + " B shared");
        }
    }

    /** A 1-D grid of {@code blocks} blocks of {@code threads} threads. */
    public static LaunchConfig of(int blocks, int threads) {
        return new LaunchConfig(blocks, 1, 1, threads, 1, 1, 0);
    }

    /** A 1-D grid with enough blocks of {@code threads} threads to give each of {@code n} items one thread. */
    public static LaunchConfig covering(long n, int threads) {
        long blocks = Math.max(1, (n + threads - 1) / threads);
        return of(Math.toIntExact(blocks), threads);
    }
}
