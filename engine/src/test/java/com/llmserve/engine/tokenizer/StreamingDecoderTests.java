package com.llmserve.engine.tokenizer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Incremental detokenization never splits a character and agrees with {@link Tokenizer#decode}. */
class StreamingDecoderTests {

    private static List<String> stream(Tokenizer t, int[] ids) {
        StreamingDecoder decoder = t.streamingDecoder();
        List<String> out = new ArrayList<>();
        for (int id : ids) {
            out.add(decoder.next(id));
        }
        out.add(decoder.finish());
        return out;
    }

    @Test
    void anEmojiFromFourByteTokensAppearsWithTheLastByte() {
        Tokenizer llama2 = VocabFixtures.model("llama-2-tiny-random.gguf");
        int[] ids = llama2.encode("🦙!", false, false); // ▁ <0xF0> <0x9F> <0xA6> <0x99> !
        assertThat(stream(llama2, ids)).containsExactly(" ", "", "", "", "🦙", "!", "");
    }

    @Test
    void cjkSplitOverByteLevelTokensIsHeldBackUntilComplete() {
        Tokenizer gpt2 = VocabFixtures.load(VocabFixtures.vocabDir().resolve("ggml-vocab-gpt-2.gguf"));
        String text = "我想在apple工作1314151天～ 😶‍🌫️";
        int[] ids = gpt2.encode(text, false, false);
        List<String> chunks = stream(gpt2, ids);
        assertThat(String.join("", chunks)).isEqualTo(text).isEqualTo(gpt2.decode(ids));
        boolean someTokenEndedMidCharacter = false;
        for (String chunk : chunks) {
            assertThat(chunk).doesNotContain("\uFFFD");
            // Every chunk is whole text: no unpaired surrogate, and it re-encodes losslessly.
            assertThat(new String(chunk.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8))
                    .isEqualTo(chunk);
        }
        for (int id : ids) {
            byte[] bytes = gpt2.tokenBytes(id);
            if (!new String(bytes, StandardCharsets.UTF_8)
                    .equals(new String(bytes, StandardCharsets.UTF_8).replace("\uFFFD", ""))) {
                someTokenEndedMidCharacter = true;
            }
        }
        assertThat(someTokenEndedMidCharacter)
                .as("the text exercises split characters")
                .isTrue();
        assertThat(chunks).contains("");
    }

    @Test
    void bytesThatCanNoLongerCompleteBecomeReplacementCharactersAtOnce() {
        Utf8Accumulator acc = new Utf8Accumulator();
        assertThat(acc.append(new byte[] {(byte) 0xE2, (byte) 0x82})).isEmpty(); // start of "€", held
        assertThat(acc.hasPending()).isTrue();
        assertThat(acc.append(new byte[] {'x'})).isEqualTo("\uFFFDx"); // cut short: one U+FFFD, then x
        assertThat(acc.append(new byte[] {(byte) 0x80})).isEqualTo("\uFFFD"); // lone continuation byte
        assertThat(acc.append(new byte[] {(byte) 0xC0, (byte) 0xAF})).isEqualTo("\uFFFD\uFFFD"); // overlong
        assertThat(acc.append(new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80})) // a surrogate
                .isEqualTo("\uFFFD\uFFFD\uFFFD");
        assertThat(acc.append(new byte[] {(byte) 0xF0, (byte) 0x9F})).isEmpty();
        assertThat(acc.append(new byte[] {(byte) 0xA6})).isEmpty();
        assertThat(acc.append(new byte[] {(byte) 0x99})).isEqualTo("🦙");
        assertThat(acc.append(new byte[] {(byte) 0xF0, (byte) 0x9F, (byte) 0xA6}))
                .isEmpty();
        assertThat(acc.finish()).isEqualTo("\uFFFD"); // the stream ended inside a character
        assertThat(acc.hasPending()).isFalse();
    }

    @Test
    void replacementMatchesJavasDecoderForArbitraryBytesOutsideSurrogates() {
        java.util.Random random = new java.util.Random(7);
        for (int round = 0; round < 2000; round++) {
            byte[] bytes = new byte[random.nextInt(12)];
            for (int i = 0; i < bytes.length; i++) {
                // bias towards bytes that start or continue sequences
                bytes[i] = (byte) (random.nextBoolean() ? 0x80 + random.nextInt(0x80) : random.nextInt(256));
            }
            if (encodesSurrogate(bytes)) {
                continue; // Java replaces ED A0..BF xx as one U+FFFD; Unicode's practice (ours) gives one per byte
            }
            Utf8Accumulator acc = new Utf8Accumulator();
            StringBuilder streamed = new StringBuilder();
            for (byte b : bytes) {
                streamed.append(acc.append(new byte[] {b}));
            }
            streamed.append(acc.finish());
            String expected = new String(bytes, StandardCharsets.UTF_8);
            assertThat(streamed.toString()).isEqualTo(expected);
            assertThat(Utf8Accumulator.decodeAll(bytes, bytes.length)).isEqualTo(expected);
        }
    }

    private static boolean encodesSurrogate(byte[] bytes) {
        for (int i = 0; i + 1 < bytes.length; i++) {
            if ((bytes[i] & 0xFF) == 0xED && (bytes[i + 1] & 0xFF) >= 0xA0) {
                return true;
            }
        }
        return false;
    }

    @Test
    void controlTokensAddNothingToTheStream() {
        Tokenizer llama2 = VocabFixtures.model("llama-2-tiny-random.gguf");
        assertThat(stream(llama2, new int[] {1, 15043, 2})).containsExactly("", " Hello", "", "");
    }
}
