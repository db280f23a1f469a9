package com.llmserve.engine.backend;

/**
 * Rotary position embedding parameters.
 *
 * @param style       which elements form a rotated pair
 * @param dims        how many leading dimensions of each head rotate (the rest pass through)
 * @param freqBase    theta base, e.g. 10000 or 500000
 * @param freqScale   position scaling (1 / factor) of linear and YaRN scaling, 1 when unscaled
 * @param freqFactors per-pair frequency divisors (Llama 3.1 long-context rope), or {@code null}
 * @param yarn        YaRN's correction of the scaled frequencies and magnitude, or {@code null}
 */
public record Rope(Style style, int dims, float freqBase, float freqScale, float[] freqFactors, Yarn yarn) {

    public enum Style {
        /** Pairs (2i, 2i+1): llama.cpp's LLAMA_ROPE_TYPE_NORM, used by llama and mistral files. */
        NORMAL,
        /** Pairs (i, i + dims/2): LLAMA_ROPE_TYPE_NEOX, used by qwen2 and GPT-NeoX-style models. */
        NEOX
    }

    /**
     * YaRN as llama.cpp applies it ({@code rope_yarn} in ggml): pairs that turn many times over the
     * original context keep their unscaled frequency, pairs that turn less than once take the scaled
     * one, those between are mixed along a ramp; rotated values are then scaled by a magnitude that
     * grows with the log of the scaling factor.
     *
     * @param originalContext the context length the model was trained at ({@code rope.scaling.original_context_length})
     * @param betaFast        rotations over the original context below which a pair starts mixing (32)
     * @param betaSlow        rotations below which a pair is fully scaled (1)
     * @param extFactor       weight of the unscaled frequency in the mix (1)
     * @param attnFactor      extra magnitude factor ({@code rope.scaling.attn_factor}, 1)
     */
    public record Yarn(int originalContext, float betaFast, float betaSlow, float extFactor, float attnFactor) {

        public Yarn {
            if (originalContext <= 0 || !(betaFast > 0) || !(betaSlow > 0) || !(attnFactor > 0)) {
                throw new IllegalArgumentException("YaRN parameters must be positive: " + originalContext + ", "
                        + betaFast + ", " + betaSlow + ", " + attnFactor);
            }
        }

        /** ggml's {@code ggml_rope_yarn_corr_dim}: the pair index that turns {@code rotations} times over the original context. */
        float correctionDim(int dims, float base, float rotations) {
            return (float)
                    (dims * Math.log(originalContext / (rotations * 2 * (float) Math.PI)) / (2 * Math.log(base)));
        }
    }

    public Rope {
        if (dims <= 0 || dims % 2 != 0) {
            throw new IllegalArgumentException("rope dimension count must be even and positive: " + dims);
        }
        if (freqFactors != null && freqFactors.length != dims / 2) {
            throw new IllegalArgumentException(
                    "rope_freqs has " + freqFactors.length + " factors, expected " + dims / 2);
        }
        freqFactors = freqFactors == null ? null : freqFactors.clone();
    }

    /** A rope without YaRN. */
    public Rope(Style style, int dims, float freqBase, float freqScale, float[] freqFactors) {
        this(style, dims, freqBase, freqScale, freqFactors, null);
    }

    /** The angle step of pair {@code i} ({@code i < dims/2}) per position. */
    public float theta(int i) {
        double unscaled = Math.pow(freqBase, -2.0 * i / dims);
        double scale = freqScale;
        if (yarn != null && yarn.extFactor() != 0) {
            // theta_interp * (1 - mix) + theta_extrap * mix, both linear in the position
            float low = Math.max(0, (float) Math.floor(yarn.correctionDim(dims, freqBase, yarn.betaFast())));
            float high = Math.min(dims - 1, (float) Math.ceil(yarn.correctionDim(dims, freqBase, yarn.betaSlow())));
            float y = (i - low) / Math.max(0.001f, high - low);
            float mix = (1 - Math.min(1, Math.max(0, y))) * yarn.extFactor();
            scale = freqScale * (1 - mix) + mix;
        }
        float t = (float) (unscaled * scale);
        return freqFactors == null ? t : t / freqFactors[i];
    }

    /**
     * The factor on every rotated value's cos and sin: 1 without YaRN; with it, llama.cpp's
     * attention factor ({@code 1 + 0.1 ln(factor)} beyond a factor of 1, canceled and reapplied
     * as llama.cpp does so the product rounds the same) times {@code attnFactor}.
     */
    public float magnitude() {
        if (yarn == null) {
            return 1f;
        }
        float factor = 1f / freqScale;
        float attn = yarn.attnFactor();
        if (yarn.extFactor() != 0) {
            float mscale = factor <= 1f ? 1f : 0.1f * (float) Math.log(factor) + 1f;
            attn = mscale * (1f / (1f + 0.1f * (float) Math.log(factor))) * yarn.attnFactor();
            return attn * (1f + 0.1f * (float) Math.log(1f / freqScale));
        }
        return attn;
    }
}
