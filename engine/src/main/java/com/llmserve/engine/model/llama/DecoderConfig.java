package com.llmserve.engine.model.llama;

import com.llmserve.engine.backend.AttentionShape;
import com.llmserve.engine.backend.Rope;
import com.llmserve.engine.gguf.GgufMetadata;
import com.llmserve.engine.gguf.GgufValueType;
import com.llmserve.engine.model.InvalidModelException;
import java.nio.file.Path;

/**
 * The hyper-parameters of a llama-family decoder, read once from GGUF metadata and validated.
 * Variants differ by data here (rope style, sliding window), never by branches on the
 * architecture name.
 *
 * @param architecture  {@code general.architecture}
 * @param embedding     model width ({@code n_embd})
 * @param layers        decoder blocks
 * @param feedForward   SwiGLU hidden width
 * @param heads         query heads
 * @param kvHeads       key/value heads (grouped-query attention when fewer than {@code heads})
 * @param headDim       dimensions per head
 * @param rmsEps        RMSNorm epsilon
 * @param ropeStyle     which elements rotate together
 * @param ropeDims      rotated dimensions per head
 * @param ropeFreqBase  rope theta
 * @param ropeFreqScale position scale (1 / factor) of linear or YaRN scaling, 1 when unscaled
 * @param yarn          YaRN's corrections (or a magnitude on a linear rope), null for none
 * @param contextLength trained context length
 * @param ropeOriginalContext the context the rope was trained at before scaling ({@code rope.scaling.original_context_length})
 * @param slidingWindow attention window, 0 for none
 * @param variant       what sets the member apart from llama's layers
 */
public record DecoderConfig(
        String architecture,
        int embedding,
        int layers,
        int feedForward,
        int heads,
        int kvHeads,
        int headDim,
        float rmsEps,
        Rope.Style ropeStyle,
        int ropeDims,
        float ropeFreqBase,
        float ropeFreqScale,
        Rope.Yarn yarn,
        int contextLength,
        int ropeOriginalContext,
        int slidingWindow,
        Variant variant) {

    /**
     * Reads the {@code <prefix>.*} keys llama.cpp writes for this family.
     *
     * @param windowKey the sliding-window key to honour, or {@code null} when the family has none
     */
    static DecoderConfig read(Path file, GgufMetadata m, String prefix, Rope.Style ropeStyle, String windowKey) {
        return read(file, m, prefix, ropeStyle, windowKey, Variant.LLAMA);
    }

    static DecoderConfig read(
            Path file, GgufMetadata m, String prefix, Rope.Style ropeStyle, String windowKey, Variant variant) {
        int embedding = m.getInt(prefix + ".embedding_length");
        int heads = m.getInt(prefix + ".attention.head_count");
        if (m.find(prefix + ".attention.head_count_kv")
                .filter(v -> v.type() == GgufValueType.ARRAY)
                .isPresent()) {
            throw new InvalidModelException(file, "per-layer kv head counts are not supported");
        }
        int kvHeads = m.findInt(prefix + ".attention.head_count_kv").orElse(heads);
        if (heads <= 0 || embedding <= 0) {
            throw new InvalidModelException(
                    file, "embedding length " + embedding + " and head count " + heads + " must be positive");
        }
        int headDim = m.findInt(prefix + ".attention.key_length").orElse(embedding / heads);
        int valueDim = m.findInt(prefix + ".attention.value_length").orElse(headDim);
        if (valueDim != headDim) {
            throw new InvalidModelException(file, "key length " + headDim + " differs from value length " + valueDim);
        }
        int contextLength = m.findInt(prefix + ".context_length").orElse(2048);
        // as llama.cpp: a file without a scaling type is scaled linearly by its factor, if any
        String scaling = m.findString(prefix + ".rope.scaling.type").orElse("linear");
        float factor = m.findFloat(prefix + ".rope.scaling.factor")
                .or(() -> m.findFloat(prefix + ".rope.scale_linear"))
                .orElse(0f);
        float freqScale = scaling.equals("none") || factor == 0f ? 1f : 1f / factor;
        float attnFactor = m.findFloat(prefix + ".rope.scaling.attn_factor").orElse(1f);
        int originalContext =
                m.findInt(prefix + ".rope.scaling.original_context_length").orElse(contextLength);
        if (!(attnFactor > 0) || originalContext <= 0) {
            // checked before Rope.Yarn takes them, which would refuse them with IllegalArgumentException
            throw new InvalidModelException(
                    file,
                    "rope scaling attention factor " + attnFactor + " and original context length " + originalContext
                            + " must be positive");
        }
        Rope.Yarn yarn =
                switch (scaling) {
                    // longrope (phi3): linear scaling by the factor, if any, and per-pair factors by tensor
                    case "none", "linear", "longrope" ->
                        attnFactor == 1f ? null : new Rope.Yarn(originalContext, 32f, 1f, 0f, attnFactor);
                    // llama.cpp's defaults: these families' files carry no YaRN beta or ext factor keys it reads
                    case "yarn" -> new Rope.Yarn(originalContext, 32f, 1f, 1f, attnFactor);
                    default ->
                        throw new InvalidModelException(
                                file, "rope scaling '" + scaling + "' is not supported (none, linear, yarn, longrope)");
                };
        DecoderConfig c = new DecoderConfig(
                m.getString("general.architecture"),
                embedding,
                m.getInt(prefix + ".block_count"),
                m.getInt(prefix + ".feed_forward_length"),
                heads,
                kvHeads,
                headDim,
                m.findFloat(prefix + ".attention.layer_norm_rms_epsilon").orElse(1e-5f),
                ropeStyle,
                m.findInt(prefix + ".rope.dimension_count").orElse(headDim),
                m.findFloat(prefix + ".rope.freq_base").orElse(10_000f),
                freqScale,
                yarn,
                contextLength,
                originalContext,
                windowKey == null ? 0 : m.findInt(windowKey).orElse(0),
                variant.experts() != null ? variant : variant.withExperts(Experts.read(file, m, prefix, false)));
        c.validate(file);
        return c;
    }

    private void validate(Path file) {
        if (layers <= 0 || feedForward <= 0 || kvHeads <= 0 || headDim <= 0 || contextLength <= 0) {
            throw new InvalidModelException(file, "hyper-parameters must be positive: " + this);
        }
        long heads3 = heads + 2L * kvHeads;
        if (heads3 > Integer.MAX_VALUE || heads3 * headDim > Integer.MAX_VALUE) {
            // q|k|v rows are ints: an overflowed width could match the tensors' shapes
            throw new InvalidModelException(
                    file,
                    heads + " query and " + kvHeads + " kv heads of " + headDim + " dimensions do not fit a row of "
                            + Integer.MAX_VALUE);
        }
        if (heads % kvHeads != 0) {
            throw new InvalidModelException(
                    file, heads + " query heads are not a multiple of " + kvHeads + " kv heads");
        }
        if (ropeDims <= 0 || ropeDims > headDim || ropeDims % 2 != 0) {
            throw new InvalidModelException(
                    file, "rope dimension count " + ropeDims + " does not fit head size " + headDim);
        }
        if (!(rmsEps > 0) || !(ropeFreqBase > 0) || !(ropeFreqScale > 0)) {
            throw new InvalidModelException(file, "rms epsilon, rope base and rope scale must be positive: " + this);
        }
    }

    /** Whether layer {@code layer} attends within the sliding window only. */
    boolean windowed(int layer) {
        int pattern = variant.windowPattern();
        return slidingWindow > 0 && (pattern == 0 || layer % pattern < pattern - 1);
    }

    AttentionShape attention(int layer) {
        float scale = variant.attentionScale() > 0 ? variant.attentionScale() : (float) (1.0 / Math.sqrt(headDim));
        return new AttentionShape(
                heads, kvHeads, headDim, scale, true, windowed(layer) ? slidingWindow : 0, variant.attentionSoftcap());
    }

    /** Gemma3's windowed layers rotate with a rope of their own: their base, and no position scaling. */
    Rope rope(int layer, float[] freqFactors) {
        if (windowed(layer) && variant.windowRopeBase() > 0) {
            return new Rope(ropeStyle, ropeDims, variant.windowRopeBase(), 1f, freqFactors, yarn);
        }
        return new Rope(ropeStyle, ropeDims, ropeFreqBase, ropeFreqScale, freqFactors, yarn);
    }

    /**
     * One shard's layers of this decoder split over {@code parts} GPUs ({@link ShardSplit}): its
     * share of the query and key/value heads and of the feed-forward width, the rest unchanged.
     *
     * @throws InvalidModelException when the heads or the width do not divide evenly, or the model
     *     has a mixture of experts (not split yet)
     */
    DecoderConfig shard(Path file, int parts) {
        if (parts == 1) {
            return this;
        }
        if (variant.experts() != null) {
            throw new InvalidModelException(
                    file, "a mixture of experts cannot be split over GPUs yet (tensor-parallel-size " + parts + ")");
        }
        if (kvHeads % parts != 0 || feedForward % parts != 0) {
            throw new InvalidModelException(
                    file,
                    "cannot split over " + parts + " GPUs: " + heads + " query heads, "
                            + kvHeads + " kv heads and a feed-forward width of " + feedForward
                            + " must each divide evenly (tensor-parallel-size)");
        }
        return new DecoderConfig(
                architecture,
                embedding,
                layers,
                feedForward / parts,
                heads / parts,
                kvHeads / parts,
                headDim,
                rmsEps,
                ropeStyle,
                ropeDims,
                ropeFreqBase,
                ropeFreqScale,
                yarn,
                contextLength,
                ropeOriginalContext,
                slidingWindow,
                variant);
    }

    int queryDim() {
        return heads * headDim;
    }

    int kvDim() {
        return kvHeads * headDim;
    }
}
