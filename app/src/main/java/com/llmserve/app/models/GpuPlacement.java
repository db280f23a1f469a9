package com.llmserve.app.models;

import com.llmserve.engine.backend.BackendChoice;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Where a model's GPU replicas go: the GPUs of {@code llmserve.models[].devices} cut into
 * consecutive groups of {@code tensor-parallel-size}, one replica per group, the model split over
 * its group's GPUs in the group's order. Decided before any backend opens, so a placement that
 * cannot be made fails the load without having touched a device.
 */
final class GpuPlacement {

    private GpuPlacement() {}

    /**
     * The GPUs of each replica of {@code plan} among {@code gpus} GPUs, in rank order; empty for
     * the default placement (one replica on one GPU, the models spread over the GPUs in turn).
     *
     * @throws IllegalStateException naming the model and why it cannot be placed
     */
    static List<List<Integer>> groups(ModelPlan plan, int gpus) {
        ServingProperties.ModelSpec spec = plan.spec();
        if (spec == null || (spec.devices().isEmpty() && spec.tensorParallelSize() == 1)) {
            return List.of();
        }
        if (plan.backend() == BackendChoice.CPU) {
            throw new IllegalStateException("model '" + plan.id() + "' "
                    + (spec.devices().isEmpty()
                            ? "asks for tensor-parallel-size " + spec.tensorParallelSize()
                            : "names GPUs (devices " + spec.devices() + ")")
                    + " but runs on the CPU (backend cpu)");
        }
        try {
            return split(spec, gpus);
        } catch (IllegalStateException e) {
            throw new IllegalStateException("model '" + plan.id() + "': " + e.getMessage(), e);
        }
    }

    private static List<List<Integer>> split(ServingProperties.ModelSpec spec, int gpus) {
        int size = spec.tensorParallelSize();
        List<Integer> chosen;
        if (spec.devices().isEmpty()) {
            if (gpus < size) {
                throw new IllegalStateException("tensor-parallel-size " + size + " needs " + size + " GPUs, and there "
                        + (gpus == 1 ? "is 1" : "are " + gpus));
            }
            chosen = IntStream.range(0, size).boxed().toList();
        } else {
            chosen = spec.gpuDevices(gpus);
            if (chosen.size() % size != 0) {
                throw new IllegalStateException("devices " + spec.devices() + " give " + chosen.size() + " GPU(s) "
                        + chosen + ", which do not cut into replicas of tensor-parallel-size " + size
                        + " (name a multiple of " + size + " GPUs)");
            }
        }
        List<List<Integer>> groups = new ArrayList<>();
        for (int i = 0; i < chosen.size(); i += size) {
            groups.add(List.copyOf(chosen.subList(i, i + size)));
        }
        return List.copyOf(groups);
    }
}
