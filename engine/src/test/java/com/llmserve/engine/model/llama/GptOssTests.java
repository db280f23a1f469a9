package com.llmserve.engine.model.llama;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.engine.TestData;
import com.llmserve.engine.backend.Gating;
import com.llmserve.engine.backend.Glu;
import com.llmserve.engine.backend.Rope;
import com.llmserve.engine.gguf.GgufFile;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** How gpt-oss's metadata maps onto the shared decoder (the tiny model of synth_gguf.py --arch gpt-oss). */
class GptOssTests {

    @Test
    void theTinyModelsKeysBecomeItsConfig() throws IOException {
        try (GgufFile f = GgufFile.open(TestData.model("tiny-gpt-oss-MXFP4.gguf"))) {
            DecoderConfig c = new GptOss().config(f);
            assertThat(c.architecture()).isEqualTo("gpt-oss");
            assertThat(c.heads() * c.headDim()).isEqualTo(512).isNotEqualTo(c.embedding());
            assertThat(c.ropeStyle()).isEqualTo(Rope.Style.NEOX);
            // YaRN: factor 4 over an original context of 64, llama.cpp's betas
            assertThat(c.ropeFreqScale()).isEqualTo(0.25f);
            assertThat(c.yarn()).isEqualTo(new Rope.Yarn(64, 32f, 1f, 1f, 1f));
            // no sliding_window_pattern key: llama.cpp's 2, even layers windowed, all at one rope
            assertThat(c.slidingWindow()).isEqualTo(8);
            assertThat(c.windowed(0)).isTrue();
            assertThat(c.windowed(1)).isFalse();
            assertThat(c.windowed(2)).isTrue();
            assertThat(c.attention(0).slidingWindow()).isEqualTo(8);
            assertThat(c.attention(1).slidingWindow()).isZero();
            assertThat(c.rope(0, null)).isEqualTo(c.rope(1, null));
            assertThat(c.variant().glu()).isEqualTo(Glu.SWIGLU_OAI);
            assertThat(c.variant().ffnNorm()).isEqualTo("post_attention_norm");
            Experts e = c.variant().experts();
            assertThat(e).isEqualTo(new Experts(8, 4, 256, 1f, Gating.SOFTMAX_OF_TOP_K));
        }
    }
}
