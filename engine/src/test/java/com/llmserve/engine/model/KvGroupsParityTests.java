package com.llmserve.engine.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.engine.TestData;
import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.Batch;
import com.llmserve.engine.backend.KvStorage;
import com.llmserve.engine.backend.cpu.CpuBackend;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.kv.BlockPool;
import com.llmserve.engine.kv.BlockTable;
import com.llmserve.engine.kv.KvLayout;
import com.llmserve.engine.kv.KvPools;
import com.llmserve.engine.kv.SequenceBlocks;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Windowed layers in a KV group of their own, whose blocks go back to the pool (and are handed out
 * again) once they left the window, give exactly the logits of one group that keeps every block:
 * a teacher-forced sequence well past the window, prefilled in chunks that cross it, then decoded
 * a token at a time. The windowed group's pool is as small as one sequence needs, so its blocks are
 * reused while the sequence runs: a kernel reading a block it gave back would read another
 * position's keys.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KvGroupsParityTests {

    private static final int BLOCK = 4;
    private static final int CHUNK = 8;
    private static final int PROMPT = 43;
    private static final int LENGTH = 140;

    private Backend backend;

    /** The backend under test. */
    Backend openBackend() {
        return new CpuBackend(2);
    }

    @BeforeAll
    void startBackend() {
        backend = openBackend();
    }

    @AfterAll
    void stopBackend() {
        if (backend != null) {
            backend.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"tiny-gemma3-F16.gguf", "tiny-gemma2-F16.gguf", "tiny-gpt-oss-MXFP4.gguf", "mistral"})
    void windowedLayersThatFreeTheirBlocksGiveTheLogitsOfOneGroup(String name) throws IOException {
        Path dir = Files.createTempDirectory("kv-groups");
        try {
            Path file = name.equals("mistral")
                    ? SyntheticModel.write(
                            dir,
                            "mistral.gguf",
                            SyntheticModel.Spec.llama().arch("mistral").window(8))
                    : TestData.model(name);
            try (GgufFile gguf = GgufFile.open(file);
                    LanguageModel model = Architectures.loadLanguageModel(gguf, backend, ModelOptions.DEFAULT)) {
                int[] windows = new int[model.layers()];
                for (int l = 0; l < windows.length; l++) {
                    windows[l] = model.slidingWindow(l);
                }
                KvLayout layout = KvLayout.of(windows, 64, BLOCK, 1, CHUNK, true);
                int windowed = layout.groups() - 1; // the windowed group is the last
                assertThat(layout.windowed(windowed))
                        .as("%s has windowed layers", name)
                        .isTrue();
                assertThat(LENGTH).isGreaterThan(4 * layout.windowOfGroup()[windowed]);
                int[] tokens = tokens(model.vocabSize());

                float[][] expected = runOneGroup(model, tokens);
                KvPools pools = new KvPools(layout, BLOCK);
                SequenceBlocks seq = new SequenceBlocks(pools);
                int mostHeld = 0;
                try (KvStorage kv = layout.groups() == 1
                        ? model.newKvStorage(layout.blocksOfGroup()[0], BLOCK)
                        : model.newKvStorage(layout.groupOfLayer(), layout.blocksOfGroup(), BLOCK)) {
                    int step = 0;
                    for (int pos = 0; pos < LENGTH; step++) {
                        int count = pos < PROMPT ? Math.min(CHUNK, PROMPT - pos) : 1;
                        seq.slide(pos);
                        assertThat(seq.ensureCapacity(pos + count)).isTrue();
                        mostHeld = Math.max(mostHeld, seq.table(windowed).liveBlocks());
                        Logits logits = model.forward(
                                Batch.builder(BLOCK)
                                        .add(seq.blocks(), pos, tokens, pos, count, Batch.Logits.ALL)
                                        .build(),
                                kv);
                        float[] got = Arrays.copyOf(logits.array(), count * model.vocabSize());
                        assertThat(got)
                                .as("%s: logits of positions %d..%d", name, pos, pos + count - 1)
                                .containsExactly(expected[step]);
                        pos += count;
                    }
                    int window = layout.windowOfGroup()[windowed];
                    assertThat(mostHeld)
                            .as("blocks the windowed layers held at most")
                            .isLessThanOrEqualTo(KvLayout.windowBlocksPerSequence(window, BLOCK) + CHUNK / BLOCK);
                    if (layout.groups() > 1) {
                        assertThat(seq.table(0).liveBlocks()).isEqualTo((LENGTH + BLOCK - 1) / BLOCK);
                    }
                    seq.release();
                    assertThat(pools.used()).containsOnly(0L);
                }
            }
        } finally {
            try (var files = Files.list(dir)) {
                for (Path p : files.toList()) {
                    Files.delete(p);
                }
            }
            Files.delete(dir);
        }
    }

    /** The reference: one KV group, every block kept, the same chunks. */
    private static float[][] runOneGroup(LanguageModel model, int[] tokens) {
        BlockPool pool = new BlockPool(LENGTH / BLOCK + 2, BLOCK);
        BlockTable table = new BlockTable(pool);
        assertThat(table.ensureCapacity(LENGTH)).isTrue();
        float[][] out = new float[LENGTH][];
        int step = 0;
        try (KvStorage kv = model.newKvStorage(pool.capacity(), BLOCK)) {
            for (int pos = 0; pos < LENGTH; step++) {
                int count = pos < PROMPT ? Math.min(CHUNK, PROMPT - pos) : 1;
                Logits logits = model.forward(
                        Batch.builder(BLOCK)
                                .add(table.blocks(), pos, tokens, pos, count, Batch.Logits.ALL)
                                .build(),
                        kv);
                out[step] = Arrays.copyOf(logits.array(), count * model.vocabSize());
                pos += count;
            }
        }
        return Arrays.copyOf(out, step);
    }

    private static int[] tokens(int vocab) {
        Random r = new Random(7);
        int[] t = new int[LENGTH];
        for (int i = 0; i < LENGTH; i++) {
            t[i] = 1 + r.nextInt(vocab - 1);
        }
        return t;
    }
}
