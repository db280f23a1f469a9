package com.llmserve.engine.model.llama;

import com.llmserve.engine.backend.Gating;
import com.llmserve.engine.gguf.GgufMetadata;
import com.llmserve.engine.model.InvalidModelException;
import java.nio.file.Path;

/**
 * A mixture of experts in place of the dense feed-forward (Mixtral, qwen3moe): a router scores
 * every expert for each token, the {@code used} best run, and their outputs are summed with the
 * router's softmax probabilities as weights, renormalized over the chosen ones as llama.cpp does
 * for these families.
 *
 * @param count       experts per layer ({@code expert_count})
 * @param used        experts run per token ({@code expert_used_count})
 * @param feedForward an expert's hidden width
 * @param scale       factor on the weights after renormalizing ({@code expert_weights_scale}), 1 for none
 * @param gating      how the router's logits become the chosen experts' weights
 */
record Experts(int count, int used, int feedForward, float scale, Gating gating) {

    /** These experts under another gating. */
    Experts withGating(Gating g) {
        return new Experts(count, used, feedForward, scale, g);
    }

    /**
     * The {@code <prefix>.expert_*} keys, or null when the file declares no experts.
     *
     * @param splitFeedForward where {@code expert_feed_forward_length} is missing: whether an expert
     *                         is {@code feed_forward_length / used} wide (qwen3moe) rather than
     *                         {@code feed_forward_length} (Mixtral under llama)
     */
    static Experts read(Path file, GgufMetadata m, String prefix, boolean splitFeedForward) {
        int count = m.findInt(prefix + ".expert_count").orElse(0);
        if (count == 0) {
            return null;
        }
        int used = m.findInt(prefix + ".expert_used_count").orElse(0);
        if (count < 0 || used < 1 || used > count) {
            throw new InvalidModelException(
                    file, used + " experts used of " + count + ": expert_used_count must be in [1, expert_count]");
        }
        int dense = m.getInt(prefix + ".feed_forward_length");
        int feedForward =
                m.findInt(prefix + ".expert_feed_forward_length").orElse(splitFeedForward ? dense / used : dense);
        if (feedForward <= 0) {
            throw new InvalidModelException(file, "expert feed-forward length " + feedForward + " must be positive");
        }
        float scale = m.findFloat(prefix + ".expert_weights_scale").orElse(0f);
        return new Experts(count, used, feedForward, scale == 0f ? 1f : scale, Gating.SOFTMAX);
    }
}
