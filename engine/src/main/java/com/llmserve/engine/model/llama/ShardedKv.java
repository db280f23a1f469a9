package com.llmserve.engine.model.llama;

import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.Cleanup;
import com.llmserve.engine.backend.KvCacheType;
import com.llmserve.engine.backend.KvStorage;
import java.util.List;

/**
 * The KV cache of a model split over GPUs: one storage per shard, each holding that shard's kv
 * heads of every block; the engine sees one storage of the whole width, and the same block
 * tables serve every shard.
 */
final class ShardedKv extends KvStorage {

    private final List<KvStorage> parts;

    ShardedKv(
            Backend lead,
            int[] groupOfLayer,
            int[] blocksOfGroup,
            int blockSize,
            int kvDim,
            KvCacheType type,
            List<KvStorage> parts) {
        super(lead, groupOfLayer, blocksOfGroup, blockSize, kvDim, type);
        this.parts = List.copyOf(parts);
    }

    /** Each shard's storage, in rank order. */
    List<KvStorage> parts() {
        return parts;
    }

    @Override
    protected void release() {
        Cleanup.each(parts, KvStorage::close);
    }
}
