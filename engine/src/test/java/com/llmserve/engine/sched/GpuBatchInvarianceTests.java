package com.llmserve.engine.sched;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.engine.TestData;
import com.llmserve.engine.backend.gpu.GpuBackend;
import com.llmserve.engine.backend.gpu.GpuOptions;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.model.Architectures;
import com.llmserve.engine.model.LanguageModel;
import com.llmserve.engine.model.ModelOptions;
import com.llmserve.engine.sampling.SamplingParams;
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
 * The GPU's batch-invariant option ({@link GpuOptions#batchInvariant()}): 32 greedy streams and one
 * seeded sampled stream running together give exactly what each gives alone. The same runs on the
 * default backend are counted and printed beside them (its batched kernels sum in other orders, so
 * near ties may flip), with the wall time of each, the option's cost.
 */
@RequiresGpu
class GpuBatchInvarianceTests {

    private static final int STREAMS = 32;
    private static final int TOKENS = 30;

    private static DevicePool pool;

    @BeforeAll
    static void open(DevicePool devices) {
        pool = devices;
    }

    @ParameterizedTest
    @ValueSource(strings = {"stories260K-q8_0.gguf", "tiny-qwen3moe-Q8_0.gguf"})
    void concurrentStreamsOnABatchInvariantGpuAreExactlyTheirSoloRuns(String modelFile)
            throws IOException, InterruptedException {
        for (boolean invariant : new boolean[] {false, true}) {
            try (GgufFile f = GgufFile.open(TestData.model(modelFile));
                    GpuBackend gpu = GpuBackend.open(
                            pool.device(0), GpuOptions.defaults().withBatchInvariant(invariant));
                    LanguageModel model = Architectures.loadLanguageModel(f, gpu, ModelOptions.DEFAULT);
                    InferenceEngine engine = InferenceEngine.start(
                            "invariance",
                            model,
                            EngineOptions.defaults().withMaxBatchTokens(64),
                            EngineObserver.NONE)) {
                Tokenizer tokenizer = Tokenizer.fromGguf(f.metadata());
                List<InferenceRequest> requests = new ArrayList<>();
                for (int i = 0; i < STREAMS; i++) {
                    requests.add(InferenceRequest.greedy(
                            tokenizer.encode(InferenceEngineTests.streamPrompt(i), true, false), TOKENS));
                }
                requests.add(InferenceRequest.greedy(tokenizer.encode("Once upon a time", true, false), TOKENS)
                        .withSampling(
                                SamplingParams.GREEDY.withTemperature(1.0f).withSeed(42)));
                long t0 = System.nanoTime();
                int[][] solo = new int[requests.size()][];
                for (int i = 0; i < requests.size(); i++) {
                    solo[i] = InferenceEngineTests.together(engine, List.of(requests.get(i)))[0];
                }
                long t1 = System.nanoTime();
                int[][] together = InferenceEngineTests.together(engine, requests);
                long t2 = System.nanoTime();
                List<Integer> differing = new ArrayList<>();
                for (int i = 0; i < requests.size(); i++) {
                    if (!Arrays.equals(solo[i], together[i])) {
                        differing.add(i);
                    }
                }
                System.out.printf(
                        "[gpu-report] batch invariance %-24s %-13s %d of %d streams (32 greedy, 1 sampled) differ"
                                + " from their solo runs %s; solo runs %.0f ms, together %.0f ms%n",
                        modelFile,
                        invariant ? "invariant:" : "default:",
                        differing.size(),
                        requests.size(),
                        differing,
                        (t1 - t0) / 1e6,
                        (t2 - t1) / 1e6);
                if (invariant) {
                    assertThat(differing)
                            .as("streams that differ from their solo runs")
                            .isEmpty();
                }
            }
        }
    }
}
