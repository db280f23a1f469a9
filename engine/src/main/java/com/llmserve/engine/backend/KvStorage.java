package com.llmserve.engine.backend;

/**
 * Backend memory for the paged key/value cache: per layer, {@code blocks * blockSize} token slots
 * of keys and of values, stored as halves (llama.cpp's default F16 cache) or, where the backend
 * supports it, as Q8_0 blocks ({@link #type()}, {@link KvCacheType}). Which blocks belong to
 * which sequence is not its concern: the block tables of each {@link Batch} say so, and
 * {@code com.llmserve.engine.kv.BlockPool} hands blocks out.
 *
 * <p>Layers fall into KV groups ({@link #groupOf}), each with its own number of blocks: a layer
 * of group {@code g} holds {@link #blocks(int) blocks(g)} blocks, and its attention reads the
 * batch's block tables of group {@code g} ({@link Batch#blockTable(int, int)}). A model with
 * sliding-window and global layers keeps them in two groups, so the windowed layers' blocks are
 * freed once they leave the window while the global layers keep theirs. One group is the usual case.
 */
public abstract class KvStorage extends BackendResource {

    private final int layers;
    private final int blockSize;
    private final int kvDim;
    private final int[] groupOfLayer;
    private final int[] blocksOfGroup;
    private final KvCacheType type;

    protected KvStorage(Backend owner, int layers, int blocks, int blockSize, int kvDim) {
        this(owner, new int[layers], new int[] {blocks}, blockSize, kvDim);
    }

    protected KvStorage(Backend owner, int[] groupOfLayer, int[] blocksOfGroup, int blockSize, int kvDim) {
        this(owner, groupOfLayer, blocksOfGroup, blockSize, kvDim, KvCacheType.F16);
    }

    /**
     * @param groupOfLayer  per layer, its KV group
     * @param blocksOfGroup per group, its blocks (the reserved one included)
     * @param type          how keys and values are stored
     */
    protected KvStorage(
            Backend owner, int[] groupOfLayer, int[] blocksOfGroup, int blockSize, int kvDim, KvCacheType type) {
        super(owner);
        this.type = type;
        this.layers = groupOfLayer.length;
        this.groupOfLayer = groupOfLayer.clone();
        this.blocksOfGroup = blocksOfGroup.clone();
        this.blockSize = blockSize;
        this.kvDim = kvDim;
    }

    /** How keys and values are stored: F16 or Q8_0. */
    public final KvCacheType type() {
        return type;
    }

    public final int layers() {
        return layers;
    }

    /** Blocks of group 0 (of every layer, when there is one group). */
    public final int blocks() {
        return blocksOfGroup[0];
    }

    /** Blocks of each layer of KV group {@code group}. */
    public final int blocks(int group) {
        return blocksOfGroup[group];
    }

    public final int groups() {
        return blocksOfGroup.length;
    }

    /** The KV group of layer {@code layer}: which of the batch's block tables its attention reads. */
    public final int groupOf(int layer) {
        return groupOfLayer[layer];
    }

    /** Blocks of layer {@code layer}. */
    public final int blocksOfLayer(int layer) {
        return blocksOfGroup[groupOfLayer[layer]];
    }

    public final int blockSize() {
        return blockSize;
    }

    public final int kvDim() {
        return kvDim;
    }

    /** Token slots per layer (of group 0). */
    public final long slots() {
        return (long) blocks() * blockSize;
    }

    /** Bytes this storage takes, keys and values: {@link KvCacheType#bytesPerSlot} per slot of each layer. */
    public final long byteSize() {
        long slots = 0;
        for (int l = 0; l < layers; l++) {
            slots += (long) blocksOfLayer(l) * blockSize;
        }
        return slots * type.bytesPerSlot(kvDim);
    }

    @Override
    public String toString() {
        if (blocksOfGroup.length == 1) {
            return owner().name() + " kv " + layers + " layers x " + blocks() + " blocks of " + blockSize + " x "
                    + kvDim + typeSuffix();
        }
        StringBuilder b = new StringBuilder(owner().name()).append(" kv");
        for (int g = 0; g < blocksOfGroup.length; g++) {
            int n = 0;
            for (int l = 0; l < layers; l++) {
                n += groupOfLayer[l] == g ? 1 : 0;
            }
            b.append(g == 0 ? " " : ", ").append(n).append(" layers x ").append(blocksOfGroup[g]);
            b.append(" blocks");
        }
        return b.append(" of ")
                .append(blockSize)
                .append(" x ")
                .append(kvDim)
                .append(typeSuffix())
                .toString();
    }

    private String typeSuffix() {
        return type == KvCacheType.F16 ? "" : " " + type.id();
    }
}
