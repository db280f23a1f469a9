/**
 * Tokenizers built from a GGUF file's {@code tokenizer.ggml.*} metadata, reproducing llama.cpp's
 * tokenization: SentencePiece ({@code llama}), byte-level BPE with the pre-tokenizers named by
 * {@code tokenizer.ggml.pre} ({@code gpt2}) and uncased WordPiece ({@code bert}).
 *
 * <p>The API is {@link com.llmserve.engine.tokenizer.Tokenizer} (encode, decode, special tokens),
 * {@link com.llmserve.engine.tokenizer.StreamingDecoder} (incremental detokenization that never
 * splits a character) and {@link com.llmserve.engine.tokenizer.TokenizerException}. Everything
 * else is package-private: the metadata record ({@code TokenizerSpec}), the vocabulary with
 * llama.cpp's load-time rules ({@code Vocabulary}), special-token splitting and one encoder per
 * algorithm.
 */
package com.llmserve.engine.tokenizer;
