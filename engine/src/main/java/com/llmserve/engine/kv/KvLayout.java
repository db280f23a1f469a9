package com.llmserve.engine.kv;

import java.util.Arrays;

/**
 * How a model's layers share the KV cache. Layers without a sliding window need every position of
 * a sequence; a windowed layer needs only the last {@code window} positions before each query, so
 * its blocks can go back to the pool once they left every window. The layers therefore fall into KV
 * groups, each with its own block pool and its own block table per sequence:
 *
 * <ul>
 *   <li>no windowed layer (llama, qwen, phi3): one group of every layer, which keeps every block;
 *   <li>every layer windowed (mistral): one group that frees blocks behind the window;
 *   <li>both kinds (gemma2, gemma3, gpt-oss): group 0 the global layers, which keep every block,
 *       and group 1 the windowed layers, which free them (vLLM's "hybrid allocator").
 * </ul>
 *
 * <p>Sizes: {@code kvBlocks} blocks of every layer is the memory promised ({@code kvBlocks * layers}
 * layer-blocks). A windowed group needs at most {@link #windowBlocksPerSequence} blocks per running
 * sequence plus a step's prompt tokens, so with two groups the windowed one gets
 * {@code min(kvBlocks, maxRunning * perSequence + stepBlocks + 1)} blocks and the global group the
 * rest of the same memory (at least {@code kvBlocks}): never fewer tokens than one group of
 * {@code kvBlocks} would hold, and more where the windowed layers need less.
 *
 * @param groupOfLayer  per layer, its group
 * @param windowOfGroup per group, the window its blocks are freed behind (0: kept)
 * @param layersOfGroup per group, its layers
 * @param blocksOfGroup per group, its blocks (the reserved null block included)
 */
public record KvLayout(int[] groupOfLayer, int[] windowOfGroup, int[] layersOfGroup, int[] blocksOfGroup) {

    public KvLayout {
        groupOfLayer = groupOfLayer.clone();
        windowOfGroup = windowOfGroup.clone();
        layersOfGroup = layersOfGroup.clone();
        blocksOfGroup = blocksOfGroup.clone();
    }

    /** One group of every layer, no window: every block is kept (the layout before KV groups). */
    public static KvLayout single(int layers, int kvBlocks) {
        return new KvLayout(new int[layers], new int[] {0}, new int[] {layers}, new int[] {kvBlocks});
    }

    /**
     * The layout for layers with these windows (0: global).
     *
     * @param kvBlocks       blocks of every layer the memory would hold in one group
     * @param maxRunning     the most sequences running at once
     * @param maxBatchTokens the most tokens of one step
     * @param freeWindowed   whether windowed layers free their blocks at all (else one group)
     */
    public static KvLayout of(
            int[] layerWindows, int kvBlocks, int blockSize, int maxRunning, int maxBatchTokens, boolean freeWindowed) {
        int layers = layerWindows.length;
        int window = 0;
        int windowed = 0;
        for (int w : layerWindows) {
            if (w > 0) {
                windowed++;
                window = Math.max(window, w); // the widest window serves them all
            }
        }
        if (!freeWindowed || windowed == 0) {
            return single(layers, kvBlocks);
        }
        if (windowed == layers) {
            return new KvLayout(new int[layers], new int[] {window}, new int[] {layers}, new int[] {kvBlocks});
        }
        int global = layers - windowed;
        int[] groupOfLayer = new int[layers];
        for (int l = 0; l < layers; l++) {
            groupOfLayer[l] = layerWindows[l] > 0 ? 1 : 0;
        }
        long need = (long) maxRunning * windowBlocksPerSequence(window, blockSize)
                + (maxBatchTokens + blockSize - 1) / blockSize
                + 1;
        int windowBlocks = (int) Math.min(kvBlocks, need);
        // the memory the windowed layers do not take goes to the global ones
        long globalBlocks = kvBlocks + (long) (kvBlocks - windowBlocks) * windowed / global;
        return new KvLayout(groupOfLayer, new int[] {0, window}, new int[] {global, windowed}, new int[] {
            (int) Math.min(Integer.MAX_VALUE - 8, globalBlocks), windowBlocks
        });
    }

    /**
     * The most blocks a decoding sequence holds in a group of this window: the blocks of the
     * {@code window - 1} positions before its query, the query's, and one more where they straddle.
     */
    public static int windowBlocksPerSequence(int window, int blockSize) {
        return (window - 1 + blockSize - 1) / blockSize + 2;
    }

    public int groups() {
        return windowOfGroup.length;
    }

    public int layers() {
        return groupOfLayer.length;
    }

    /** Whether group {@code g} frees blocks behind a window. */
    public boolean windowed(int g) {
        return windowOfGroup[g] > 0;
    }

    /** Whether some group keeps every block of a sequence (then the pool bounds a sequence's length). */
    public boolean hasGlobalGroup() {
        for (int w : windowOfGroup) {
            if (w == 0) {
                return true;
            }
        }
        return false;
    }

    /** Blocks of group 0 whose content a layer-block of every group equals: {@code blocks * layers / allLayers}. */
    public int allLayerEquivalent(long[] blocksPerGroup) {
        long layerBlocks = 0;
        for (int g = 0; g < groups(); g++) {
            layerBlocks += blocksPerGroup[g] * layersOfGroup[g];
        }
        return (int) ((layerBlocks + layers() - 1) / layers());
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("KvLayout[");
        for (int g = 0; g < groups(); g++) {
            b.append(g == 0 ? "" : ", ").append(layersOfGroup[g]).append(" layers ");
            b.append(windowOfGroup[g] > 0 ? "windowed " + windowOfGroup[g] : "global");
            b.append(": ").append(blocksOfGroup[g]).append(" blocks");
        }
        return b.append("]").toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KvLayout k
                && Arrays.equals(groupOfLayer, k.groupOfLayer)
                && Arrays.equals(windowOfGroup, k.windowOfGroup)
                && Arrays.equals(blocksOfGroup, k.blocksOfGroup);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(groupOfLayer) * 31 + Arrays.hashCode(blocksOfGroup);
    }
}
