package com.llmserve.engine.backend.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.llmserve.engine.TestData;
import com.llmserve.engine.backend.Activations;
import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.Backends;
import com.llmserve.engine.backend.Batch;
import com.llmserve.engine.backend.KvStorage;
import com.llmserve.engine.backend.Step;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.model.Architectures;
import com.llmserve.engine.model.LanguageModel;
import com.llmserve.engine.model.ModelOptions;
import com.llmserve.gpu.Collectives;
import com.llmserve.gpu.Device;
import com.llmserve.gpu.FakeNccl;
import com.llmserve.gpu.SimulatedGpu;
import com.llmserve.gpu.StreamLease;
import com.llmserve.gpu.cuda.nccl_h;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A model split over two simulated GPUs ({@link SimulatedGpu}: launches checked against the
 * kernels' parameters, no arithmetic) with gpu-runtime's stand-in NCCL ({@code fake-nccl}, built
 * here), so the shard group's orchestration runs without a GPU: every shard records its part, the
 * pieces between all-reduces launch shard after shard, each round's all-reduces go as one NCCL group
 * (or as the peer kernel when that is on), and decode steps are captured per shard and replayed.
 * The split's numbers are checked by {@code TensorParallelParityTests} (CPU shards) and on GPUs.
 */
class ShardGroupTests {

    private static final Path FAKE_LIBRARY = Path.of("target/fake-nccl/libfake_nccl.so");
    private static final int BLOCK = 16;

    private static SimulatedGpu gpu;
    private static FakeNccl fake;

    @BeforeAll
    static void openWithTheStandInNccl() throws Exception {
        fake = FakeNccl.build(Path.of("../gpu-runtime").resolve(FakeNccl.SOURCE), FAKE_LIBRARY);
        // read once, when nccl_h loads: nothing in this JVM has asked for NCCL before (no GPU here)
        System.setProperty(
                nccl_h.LIBRARY_PROPERTY, FAKE_LIBRARY.toAbsolutePath().toString());
        gpu = SimulatedGpu.open(2L << 30, 2);
        Assumptions.assumeTrue(
                Collectives.status(gpu.pool()).available(),
                "NCCL was loaded before this test set the stand-in: " + Collectives.status(gpu.pool()));
        // every stream's BLAS handle and workspace now: they belong to the pool, not to a model
        for (Device d : gpu.pool().devices()) {
            List<StreamLease> leases = new ArrayList<>();
            try {
                for (int i = 0; i < d.streams().capacity(); i++) {
                    StreamLease lease = d.streams().lease();
                    leases.add(lease);
                    lease.stream().blas();
                }
            } finally {
                leases.forEach(StreamLease::close);
            }
        }
    }

    @AfterAll
    static void close() {
        if (gpu != null) {
            gpu.close();
        }
    }

    @BeforeEach
    void forget() throws Throwable {
        gpu.clearLaunches();
        fake.reset();
    }

    /** All-reduces the stand-in ran (each rank's one). */
    private static int allReducesRun() throws Throwable {
        return fake.counts()[3];
    }

    private static Backend split(boolean peer) {
        GpuOptions options = GpuOptions.defaults().withHalfWeights(false).withPeerAllReduce(peer);
        return new Backends(gpu.pool(), 1, options).openTensorParallel(new int[] {0, 1});
    }

    @ParameterizedTest(name = "peer all-reduce {0}")
    @ValueSource(booleans = {false, true})
    void aSplitModelRunsItsStepsOnBothShardsAndReplaysEachShardsGraph(boolean peer) throws Throwable {
        long[] inUse = {
            gpu.pool().device(0).allocatorStats().bytesInUse(),
            gpu.pool().device(1).allocatorStats().bytesInUse()
        };
        try (GgufFile f = GgufFile.open(TestData.model("tiny-Q8_0.gguf"));
                Backend be = split(peer)) {
            List<? extends Backend> shards = be.shards();
            assertThat(shards).hasSize(2);
            assertThat(be.description()).contains("tensor parallel over 2");
            try (LanguageModel model = Architectures.loadLanguageModel(f, be, new ModelOptions(64, 0));
                    KvStorage kv = model.newKvStorage(64, BLOCK)) {
                int[] table = IntStream.range(0, 64).toArray();
                model.forward(prompt(table, 40), kv, 1);
                for (int step = 0; step < 3; step++) {
                    model.forward(decode(table, 40 + step), kv, 1);
                }
            }
            for (Backend s : shards) {
                GpuBackend.Stats stats = ((GpuBackend) s).stats();
                assertThat(stats.graphCaptures()).as(s.name() + " captures").isEqualTo(1);
                assertThat(stats.graphReplays()).as(s.name() + " replays").isEqualTo(3);
            }
            // tiny-Q8_0: 4 layers, two sums each, in the prompt and in each decode step's capture
            List<String> kernels =
                    gpu.launches().stream().map(SimulatedGpu.Launch::symbol).toList();
            long peerLaunches =
                    kernels.stream().filter("ls_allreduce_f32"::equals).count();
            if (peer) {
                assertThat(peerLaunches).as("every sum fits the kernel").isEqualTo(2 * 2 * 4 * 2);
                assertThat(allReducesRun()).isZero();
            } else {
                assertThat(peerLaunches).isZero();
                assertThat(allReducesRun()).as("ranks' all-reduces").isEqualTo(2 * 2 * 4 * 2);
            }
            // only shard 0 computes the logits
            assertThat(kernels.stream().filter(k -> k.startsWith("ls_topk")).count())
                    .isPositive();
        }
        assertThat(new long[] {
                    gpu.pool().device(0).allocatorStats().bytesInUse(),
                    gpu.pool().device(1).allocatorStats().bytesInUse()
                })
                .as("device memory in use")
                .containsExactly(inUse);
    }

    @Test
    void shardsThatRecordDifferentAllReducesAreRefusedBeforeAnyLaunch() throws Throwable {
        try (Backend be = split(false)) {
            Backend other = be.shards().get(1);
            try (Activations x = be.allocate(4, 256);
                    Activations y = other.allocate(4, 256)) {
                Step s0 = be.beginStep();
                Step s1 = other.beginStep();
                be.allReduceSum(x, 4);
                be.unary(com.llmserve.engine.backend.Unary.TANH, x, 4);
                other.unary(com.llmserve.engine.backend.Unary.TANH, y, 4);
                float[] out = new float[4 * 256];
                assertThatThrownBy(() -> be.read(x, 4, out, 0))
                        .isInstanceOf(GpuBackendException.class)
                        .hasMessageContaining("every shard runs the same collectives");
                s1.close();
                s0.close();
            }
            assertThat(allReducesRun()).isZero();
        }
    }

    private static Batch prompt(int[] table, int n) {
        int[] tokens = new int[n];
        Arrays.fill(tokens, 1);
        return Batch.builder(BLOCK).add(table, 0, tokens, Batch.Logits.LAST).build();
    }

    private static Batch decode(int[] table, int position) {
        return Batch.builder(BLOCK)
                .add(table, position, new int[] {2}, Batch.Logits.LAST)
                .build();
    }
}
