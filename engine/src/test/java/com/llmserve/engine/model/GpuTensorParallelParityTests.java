package com.llmserve.engine.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.Backends;
import com.llmserve.engine.backend.gpu.GpuBackend;
import com.llmserve.engine.backend.gpu.GpuOptions;
import com.llmserve.gpu.BackendStatus;
import com.llmserve.gpu.Collectives;
import com.llmserve.gpu.DevicePool;
import com.llmserve.gpu.RequiresGpu;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;

/**
 * {@link TensorParallelParityTests} on GPUs: the whole model on GPU 0 against the model split over
 * GPUs 0 to N-1 ({@code ShardGroup}: each shard's pieces between all-reduces launched in turn, the
 * all-reduces as one NCCL/RCCL group; decode steps captured per shard and replayed). Split counts
 * beyond the host's GPUs are skipped: a one-GPU host runs only the refusals.
 */
@RequiresGpu
class GpuTensorParallelParityTests extends TensorParallelParityTests {

    private final DevicePool pool;
    private final List<Backend> opened = new ArrayList<>();

    GpuTensorParallelParityTests(DevicePool pool) {
        this.pool = pool;
    }

    private Backends backends() {
        return new Backends(pool, 1, GpuOptions.defaults());
    }

    @Override
    Backend openWhole() {
        return backends().openOn(0);
    }

    @Override
    Backend openSplit(int shards) {
        Assumptions.assumeTrue(
                shards <= pool.devices().size(),
                shards + " shards on " + pool.devices().size() + " GPU(s)");
        BackendStatus collectives = Collectives.status(pool);
        // HIP over hip-on-cuda has no RCCL to load: the split is NVIDIA's (and AMD's with RCCL) only
        Assumptions.assumeTrue(collectives.available(), "no collectives: " + collectives);
        Backend b = backends().openTensorParallel(IntStream.range(0, shards).toArray());
        opened.add(b);
        return b;
    }

    @AfterAll
    void splitStepsReplayedGraphs() {
        // counters outlive the backends
        long splitGraphReplays = opened.stream()
                .flatMap(b -> b.shards().stream())
                .mapToLong(s -> ((GpuBackend) s).stats().graphReplays())
                .sum();
        System.out.println("tensor-parallel on the GPU: " + splitGraphReplays + " graph replays over the shards");
        if (pool.devices().size() >= 2) {
            assertThat(splitGraphReplays).isPositive();
        }
    }
}
