package com.llmserve.engine.sampling;

/**
 * Log-probabilities from raw logits (before penalties and temperature), as OpenAI's and vLLM's
 * {@code logprobs} report them: the chosen token's and the most likely {@code n}.
 *
 * @param token       the chosen token
 * @param logprob     its log-probability
 * @param topTokens   the {@code n} most likely ids, best first
 * @param topLogprobs their log-probabilities
 */
public record TokenLogprobs(int token, float logprob, int[] topTokens, float[] topLogprobs) {

    public static TokenLogprobs of(float[] logits, int offset, int vocabSize, int token, int n) {
        float max = Float.NEGATIVE_INFINITY;
        for (int i = 0; i < vocabSize; i++) {
            max = Math.max(max, logits[offset + i]);
        }
        double sum = 0;
        for (int i = 0; i < vocabSize; i++) {
            sum += Math.exp(logits[offset + i] - max);
        }
        double lse = max + Math.log(sum);
        int k = Math.min(n, vocabSize);
        int[] ids = new int[k];
        float[] lps = new float[k];
        if (k > 0) {
            float[] copy = new float[vocabSize];
            System.arraycopy(logits, offset, copy, 0, vocabSize);
            ProbabilityHeap heap = new ProbabilityHeap(copy, new int[vocabSize], vocabSize);
            for (int i = 0; i < k; i++) {
                ids[i] = heap.pop();
                lps[i] = (float) (copy[ids[i]] - lse);
            }
        }
        return new TokenLogprobs(token, (float) (logits[offset + token] - lse), ids, lps);
    }
}
