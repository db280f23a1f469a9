/**
 * BERT encoders for embeddings, as llama.cpp runs files of {@code general.architecture = bert}.
 *
 * <p>{@link com.llmserve.engine.model.bert.Bert} is the entry the architecture registry calls; the
 * rest is package-private and split the way the llama family is: {@code BertConfig} (the
 * {@code bert.*} metadata, read once and validated: sizes, LayerNorm epsilon, context, pooling,
 * non-causal), {@code BertWeights} (tensors uploaded and shape-checked, q|k|v fused) and
 * {@code BertModel} (the forward pass over many inputs at once, pooling and L2 normalisation).
 * Numerics follow the llama.cpp build the goldens came from: GELU in its tanh form through ggml's
 * half-precision table, LayerNorm and attention in float32, the mean pooled as a sum of rows
 * scaled by {@code 1/n}.
 */
package com.llmserve.engine.model.bert;
