package com.llmserve.engine.tokenizer;

import com.llmserve.engine.tokenizer.SpecialTokenSplitter.Fragment;
import java.util.List;

/** One tokenizer algorithm, including its own rules for BOS/EOS and for text after special tokens. */
sealed interface Encoder permits SentencePieceEncoder, ByteLevelBpeEncoder, WordPieceEncoder {

    void encode(List<Fragment> fragments, boolean addSpecial, IntList out);
}
