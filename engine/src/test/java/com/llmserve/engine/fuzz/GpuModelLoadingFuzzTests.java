package com.llmserve.engine.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.llmserve.engine.backend.gpu.GpuBackend;
import com.llmserve.engine.backend.gpu.GpuBackendException;
import com.llmserve.engine.backend.gpu.GpuOptions;
import com.llmserve.engine.fuzz.ModelEdits.Model;
import com.llmserve.engine.model.Architectures;
import com.llmserve.engine.model.LanguageModel;
import com.llmserve.gpu.SimulatedGpu;
import java.io.IOException;

/**
 * {@link ModelLoadingFuzzTests}' edited models, loaded on the GPU backend instead: the real
 * {@code GpuBackend} (weight upload and formats, step recording, launch configurations) over a
 * simulated device (gpu-runtime's {@link SimulatedGpu}), which refuses a launch whose grid, block
 * or shared memory a GPU would refuse and keeps the bytes of every allocation and copy, but runs
 * no kernel. Documented outcomes: those of the CPU target, plus {@link GpuBackendException} (a
 * shape the GPU kernels do not cover). A launch the device refuses escapes as a
 * {@code GpuCallException} and is a finding, as is anything else.
 */
class GpuModelLoadingFuzzTests {

    private static final SimulatedGpu GPU = SimulatedGpu.open(4L << 30);
    private static final GpuBackend BACKEND = GpuBackend.open(GPU.pool().device(0), GpuOptions.defaults());

    @FuzzTest(maxDuration = "20s")
    void anyEditedModelLoadsAndStepsOnTheGpuOrIsRefusedAsDocumented(FuzzedDataProvider data) throws IOException {
        Model m = ModelLoadingFuzzTests.BASES
                .get(data.consumeInt(0, ModelLoadingFuzzTests.BASES.size() - 1))
                .copy();
        long[] budget = {ModelEdits.DATA_BUDGET};
        int edits = data.consumeInt(0, 8);
        for (int i = 0; i < edits && data.remainingBytes() > 0; i++) {
            ModelEdits.edit(data, m, budget, ModelLoadingFuzzTests.DECODER);
        }
        ModelEdits.loadEdited(m, f -> {
            try (LanguageModel model = Architectures.loadLanguageModel(f, BACKEND, ModelLoadingFuzzTests.OPTIONS)) {
                ModelLoadingFuzzTests.step(model);
            } catch (GpuBackendException refused) {
                // a shape the GPU kernels do not cover
            }
        });
    }
}
