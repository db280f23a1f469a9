package com.llmserve.engine.backend.gpu;

import com.llmserve.gpu.DeviceBuffer;
import com.llmserve.gpu.KernelArgs;
import com.llmserve.kernels.Kernel;

/**
 * The token ids at {@code tokens} in the step's int region, where the rows at {@code rows} ask for
 * it (1 + a row of the last top-k; 0 keeps the host's id), become that row's best id from
 * {@code ids}, where the step before left them ({@code k} per row): a decode step issued before the
 * one before it finished, so its tokens were not known on the host.
 */
record TakeChoices(int tokens, int rows, DeviceBuffer ids, int k, int vocab, int n) implements DeviceOp {

    @Override
    public void launch(Launch l) {
        KernelArgs args = l.ints(KernelArgs.of(), tokens);
        args = l.ints(args, rows).pointer(ids).i32(k).i32(vocab).i32(n);
        l.kernel(Kernel.TAKE_CHOICES, Launch.covering(n), args);
    }

    @Override
    public String profileKey() {
        return "take choices n=" + n;
    }
}
