package com.llmserve.engine.model.llama;

import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.Capability;
import com.llmserve.engine.backend.KvCacheType;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.model.InvalidModelException;
import com.llmserve.engine.model.LanguageModel;
import com.llmserve.engine.model.ModelOptions;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One member of the llama family: how its GGUF metadata maps onto a {@link DecoderConfig}. The
 * layers themselves are shared ({@link DecoderModel}); a new member is a small class of its own.
 */
public abstract class DecoderArchitecture {

    /** The {@code general.architecture} value this class reads. */
    public abstract String name();

    abstract DecoderConfig config(GgufFile file);

    /** The operations beyond every backend's that this member's layers need. */
    Set<Capability> needs(DecoderConfig config) {
        return EnumSet.noneOf(Capability.class);
    }

    /**
     * @throws InvalidModelException when {@code backend} lacks an operation the model needs, before
     *                               any weight is uploaded
     */
    public final LanguageModel load(GgufFile file, Backend backend, ModelOptions options) {
        DecoderConfig config = config(file);
        Set<Capability> missing = EnumSet.noneOf(Capability.class);
        missing.addAll(needs(config));
        missing.removeAll(backend.capabilities());
        if (!missing.isEmpty()) {
            throw new InvalidModelException(
                    file.path(),
                    name() + " needs "
                            + missing.stream()
                                    .map(c -> c.name().toLowerCase(Locale.ROOT))
                                    .collect(Collectors.joining(", "))
                            + ", which the " + backend.name() + " backend does not compute yet; serve it on the CPU");
        }
        KvCacheType kvType = options.kvCacheType();
        try {
            backend.checkKvCacheType(kvType);
            backend.checkKvCacheShape(kvType, config.heads(), config.kvHeads(), config.headDim());
        } catch (UnsupportedOperationException e) {
            throw new InvalidModelException(file.path(), e.getMessage());
        }
        if (!kvType.fitsHead(config.headDim())) {
            throw new InvalidModelException(
                    file.path(),
                    "heads of " + config.headDim() + " values do not fill whole " + kvType.id() + " blocks of "
                            + KvCacheType.Q8_0_BLOCK
                            + ": serve it with an f16 KV cache (llmserve.engine.kv-cache-type)");
        }
        List<? extends Backend> shards = backend.shards();
        DecoderConfig shard = config.shard(file.path(), shards.size());
        List<DecoderWeights> parts = new ArrayList<>();
        try {
            for (int rank = 0; rank < shards.size(); rank++) {
                parts.add(DecoderWeights.load(
                        file, config, shards.get(rank), new ShardSplit(file.path(), rank, shards.size())));
            }
            return new DecoderModel(config, shard, shards, parts, options);
        } catch (RuntimeException | Error e) {
            parts.forEach(DecoderWeights::close);
            throw e;
        }
    }
}
