package com.llmserve.gpu;

/**
 * Grid and block shape of a kernel launch, plus dynamic shared memory in bytes.
 *
 * @param dependent the kernel may launch before the one ahead of it on the stream has ended, because
 *     it waits for that one itself before touching what that one writes (programmatic dependent
 *     launch, on NVIDIA GPUs from sm_90; elsewhere an ordinary launch)
 */
public record LaunchConfig(
        int gridX, int gridY, int gridZ, int blockX, int blockY, int blockZ, int sharedBytes, boolean dependent) {

    /** An ordinary launch: it starts once everything ahead of it on the stream has ended. */
    public LaunchConfig(int gridX, int gridY, int gridZ, int blockX, int blockY, int blockZ, int sharedBytes) {
        this(gridX, gridY, gridZ, blockX, blockY, blockZ, sharedBytes, false);
    }

    public LaunchConfig {
        if (gridX < 1 || gridY < 1 || gridZ < 1 || blockX < 1 || blockY < 1 || blockZ < 1 || sharedBytes < 0) {
            throw new IllegalArgumentException("invalid launch shape: " + gridX + "x" + gridY + "x" + gridZ
                    + " blocks of " + blockX + "x" + blockY + "x" + blockZ + ", " + sharedBytes + " B shared");
        }
    }

    /** This shape, launched as a {@link #dependent} launch. */
    public LaunchConfig asDependent() {
        return new LaunchConfig(gridX, gridY, gridZ, blockX, blockY, blockZ, sharedBytes, true);
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
