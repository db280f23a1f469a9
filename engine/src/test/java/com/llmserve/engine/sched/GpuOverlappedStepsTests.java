package com.llmserve.engine.sched;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.engine.TestData;
import com.llmserve.engine.backend.gpu.GpuBackend;
import com.llmserve.engine.backend.gpu.GpuOptions;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.model.Architectures;
import com.llmserve.engine.model.LanguageModel;
import com.llmserve.engine.model.ModelOptions;
import com.llmserve.engine.tokenizer.Tokenizer;
import com.llmserve.gpu.DevicePool;
import com.llmserve.gpu.RequiresGpu;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The engine on a GPU with greedy steps overlapped against the same engine reading every step
 * before the next: eight greedy streams with prompts longer than a step's 16 tokens (prefilled in
 * chunks, which ask for no token), each to its own token limit, give the same tokens. The backend
 * is batch-invariant, so the two runs' different batch compositions cannot move a near tie; gemma3's
 * windowed layers give blocks back while the step after them is already out.
 */
@RequiresGpu
class GpuOverlappedStepsTests {

    private static DevicePool pool;

    @BeforeAll
    static void open(DevicePool devices) {
        pool = devices;
    }

    @ParameterizedTest
    @ValueSource(strings = {"tiny-qwen3moe-Q8_0.gguf", "tiny-gemma3-Q8_0.gguf"})
    void overlappedGreedyStepsGiveWhatStepsReadOneByOneGive(String modelFile) throws IOException, InterruptedException {
        int[][][] runs = new int[2][][];
        long[] chained = new long[2];
        for (int run = 0; run < 2; run++) {
            boolean overlap = run == 1;
            try (GgufFile f = GgufFile.open(TestData.model(modelFile));
                    GpuBackend gpu = GpuBackend.open(
                            pool.device(0), GpuOptions.defaults().withBatchInvariant(true));
                    LanguageModel model = Architectures.loadLanguageModel(f, gpu, ModelOptions.DEFAULT);
                    InferenceEngine engine = InferenceEngine.start(
                            "overlap",
                            model,
                            EngineOptions.defaults().withMaxBatchTokens(16),
                            EngineObserver.NONE,
                            true,
                            overlap)) {
                assertThat(model.submitsAhead()).isTrue();
                Tokenizer tokenizer = Tokenizer.fromGguf(f.metadata());
                List<InferenceRequest> requests = new ArrayList<>();
                for (int i = 0; i < 8; i++) {
                    String text = InferenceEngineTests.streamPrompt(i) + ". " + InferenceEngineTests.streamPrompt(i + 3)
                            + ". " + InferenceEngineTests.streamPrompt(i + 5);
                    requests.add(InferenceRequest.greedy(tokenizer.encode(text, true, false), 6 + 3 * i));
                }
                long replaysBefore = gpu.stats().graphReplays();
                runs[run] = InferenceEngineTests.together(engine, requests);
                chained[run] = gpu.stats().graphReplays() - replaysBefore;
                InferenceEngineTests.awaitIdle(engine);
                assertThat(engine.stats().kvBlocksUsed()).isZero();
            }
        }
        int same = 0;
        for (int i = 0; i < runs[0].length; i++) {
            assertThat(runs[0][i]).as("stream %d", i).hasSize(6 + 3 * i);
            same += Arrays.equals(runs[0][i], runs[1][i]) ? 1 : 0;
        }
        System.out.printf(
                "[gpu-report] overlapped engine %-24s %d of %d streams identical to steps read one by one"
                        + " (graph replays %d / %d)%n",
                modelFile, same, runs[0].length, chained[0], chained[1]);
        for (int i = 0; i < runs[0].length; i++) {
            assertThat(runs[1][i]).as("stream %d overlapped", i).containsExactly(runs[0][i]);
        }
    }
}
