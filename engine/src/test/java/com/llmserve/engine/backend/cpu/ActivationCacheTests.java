package com.llmserve.engine.backend.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.engine.gguf.GgmlType;
import java.lang.foreign.Arena;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ActivationCacheTests {

    @ParameterizedTest
    @CsvSource({"Q8_0, 37", "Q8_0, 8", "Q8_0, 3", "Q4_K, 21", "F32, 19", "F16, 64"})
    void preparingOnManyThreadsGivesWhatOneThreadGives(GgmlType type, int tokens) {
        int cols = 512;
        try (Arena arena = Arena.ofConfined();
                Parallel parallel = new Parallel(3)) {
            CpuTensor t =
                    CpuTensor.of("w", type, arena.allocate((long) cols / type.blockSize() * type.typeSize()), 1, cols);
            float[] x = new float[tokens * cols];
            Random r = new Random(tokens);
            for (int i = 0; i < x.length; i++) {
                x[i] = (float) r.nextGaussian() * (1 + i % 97);
            }
            PreparedInput serial = new ActivationCache().prepare(t, x, tokens, null);
            ActivationCache cache = new ActivationCache();
            PreparedInput parallelInput = cache.prepare(t, x, tokens, parallel);
            assertThat(parallelInput.values()).containsExactly(serial.values());
            if (tokens >= TileGemm.OCTET && Simd.ENABLED) {
                assertThat(parallelInput.octets()).containsExactly(serial.octets());
                int k = 5;
                int token = tokens / TileGemm.OCTET * TileGemm.OCTET - 3;
                assertThat(serial.octets()[token / 8 * cols * 8 + k * 8 + token % 8])
                        .isEqualTo(serial.values()[token * cols + k]);
            } else {
                assertThat(parallelInput.octets()).isNull();
            }
            // the next product with other activations must not see the first one's
            float[] y = x.clone();
            y[7] += 1000;
            cache.reset();
            PreparedInput next = cache.prepare(t, y, tokens, parallel);
            assertThat(next.values())
                    .containsExactly(
                            new ActivationCache().prepare(t, y, tokens, null).values());
        }
    }
}
