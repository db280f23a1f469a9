package com.llmserve.engine.backend;

/**
 * Rotary position embedding parameters.
 *
 * @param style       which elements form a rotated pair
 * @param dims        how many leading dimensions of each head rotate (the rest pass through)
 * @param freqBase    theta base, e.g. 10000 or 500000
 * @param freqScale   linear position scaling (1 / factor), 1 when unscaled
 * @param freqFactors per-pair frequency divisors (Llama 3.1 long-context rope), or {@code null}
 */
public record Rope(Style style, int dims, float freqBase, float freqScale, float[] freqFactors) {

    public enum Style {
        /** Pairs (2i, 2i+1): llama.cpp's LLAMA_ROPE_TYPE_NORM, used by llama and mistral files. */
        NORMAL,
        /** Pairs (i, i + dims/2): LLAMA_ROPE_TYPE_NEOX, used by qwen2 and GPT-NeoX-style models. */
        NEOX
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

    /** The angle step of pair {@code i} ({@code i < dims/2}) per position. */
    public float theta(int i) {
        float t = (float) Math.pow(freqBase, -2.0 * i / dims) * freqScale;
        return freqFactors == null ? t : t / freqFactors[i];
    }
}
