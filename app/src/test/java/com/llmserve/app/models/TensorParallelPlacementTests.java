package com.llmserve.app.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.llmserve.app.FaultInjectingBackend;
import com.llmserve.app.TestModels;
import com.llmserve.app.gpu.DeviceFaults;
import com.llmserve.app.metrics.EngineMetrics;
import com.llmserve.app.resilience.FailoverProperties;
import com.llmserve.app.resilience.HostMemory;
import com.llmserve.app.resilience.ServingPolicies;
import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.BackendChoice;
import com.llmserve.engine.backend.cpu.CpuBackend;
import com.llmserve.engine.sampling.TokenLogprobs;
import com.llmserve.engine.sched.FinishReason;
import com.llmserve.engine.sched.InferenceRequest;
import com.llmserve.engine.sched.TokenListener;
import com.llmserve.gpu.GpuCallException;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.timelimiter.TimeLimiterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * {@code llmserve.models[].tensor-parallel-size}: each replica spans that many GPUs, the GPUs of
 * {@code devices} cut into consecutive groups of it (stand-in GPUs: fault-injecting CPU backends
 * named {@code gpu:0} to {@code gpu:3}, a split replica's shards named after their GPUs). The
 * provider records the GPU groups it was asked for; a placement that cannot be made is refused at
 * load naming the model, the devices and the size, before any backend opens.
 */
class TensorParallelPlacementTests {

    /** Four stand-in GPUs that split a model over several: the groups asked for, in order. */
    private static final class FourGpus implements BackendProvider {
        final List<List<Integer>> asked = new CopyOnWriteArrayList<>();
        final List<BackendChoice> created = new CopyOnWriteArrayList<>();

        @Override
        public boolean available(BackendChoice choice) {
            return true;
        }

        @Override
        public Backend create(BackendChoice choice, String modelId) {
            created.add(choice);
            return choice == BackendChoice.CPU ? new CpuBackend(1) : new FaultInjectingBackend("gpu:0", 1);
        }

        @Override
        public int gpuCount() {
            return 4;
        }

        @Override
        public Backend createOn(int device, String modelId) {
            return createOn(List.of(device), modelId);
        }

        @Override
        public Backend createOn(List<Integer> devices, String modelId) {
            asked.add(List.copyOf(devices));
            return new FaultInjectingBackend("gpu:" + devices.getFirst(), 1)
                    .splitWith(devices.stream().skip(1).map(d -> "gpu:" + d).toList());
        }
    }

    /** Places models on single GPUs only: the interface's own {@code createOn(List, String)}. */
    private static final class OneGpuPerReplica implements BackendProvider {
        final List<Integer> made = new CopyOnWriteArrayList<>();

        @Override
        public boolean available(BackendChoice choice) {
            return true;
        }

        @Override
        public Backend create(BackendChoice choice, String modelId) {
            return new CpuBackend(1);
        }

        @Override
        public int gpuCount() {
            return 4;
        }

        @Override
        public Backend createOn(int device, String modelId) {
            made.add(device);
            return new FaultInjectingBackend("gpu:" + device, 1);
        }
    }

    private final FourGpus gpus = new FourGpus();
    private final DeviceFaults faults = DeviceFaults.none();
    private final CircuitBreakerRegistry breakers = CircuitBreakerRegistry.ofDefaults();
    private final EngineMetrics metrics = new EngineMetrics();

    private static ServingProperties properties(String... settings) {
        Map<String, String> values = new HashMap<>();
        values.put("llmserve.models-dir", TestModels.shared().resolve("models").toString());
        values.put("llmserve.scan-models-dir", "false");
        values.put("llmserve.models[0].path", TestModels.file(TestModels.TEXT).toString());
        values.put("llmserve.models[0].backend", "gpu");
        values.put("llmserve.engine.kv-blocks", "64");
        for (int i = 0; i < settings.length; i += 2) {
            values.put(settings[i], settings[i + 1]);
        }
        return new Binder(new MapConfigurationPropertySource(values)).bindOrCreate("llmserve", ServingProperties.class);
    }

    private ServedTextModel load(String... settings) throws Exception {
        return load(gpus, settings);
    }

    private ServedTextModel load(BackendProvider provider, String... settings) throws Exception {
        ServingProperties p = properties(settings);
        ServingPolicies policies = new ServingPolicies(
                breakers,
                TimeLimiterRegistry.ofDefaults(),
                BulkheadRegistry.ofDefaults(),
                new FailoverProperties(FailoverProperties.CpuFallback.ALWAYS, 0.8, Duration.ofSeconds(30)),
                HostMemory.system(),
                faults);
        ModelLoader loader = new ModelLoader(p, provider, policies, metrics);
        return (ServedTextModel)
                loader.load(new ModelCatalog(p, provider).startup().plans().getFirst());
    }

    @Test
    void theSizeDefaultsToOneAndBelowOneIsRefusedNamingTheModel() {
        assertThat(properties().models().getFirst().tensorParallelSize()).isEqualTo(1);
        assertThatThrownBy(() ->
                        properties("llmserve.models[0].id", "big", "llmserve.models[0].tensor-parallel-size", "0"))
                .rootCause()
                .hasMessage("llmserve.models[].tensor-parallel-size must be at least 1 (the GPUs each replica spans):"
                        + " 0 (model big)");
    }

    @Test
    void theDevicesAreCutIntoConsecutiveGroupsOfTheSizeOneReplicaOnEach() throws Exception {
        try (ServedTextModel model =
                load("llmserve.models[0].devices", "3,1,0,2", "llmserve.models[0].tensor-parallel-size", "2")) {
            assertThat(gpus.asked).containsExactly(List.of(3, 1), List.of(0, 2));
            assertThat(model.replicas())
                    .extracting(Replica::device)
                    .containsExactly("gpu:3+gpu:1", "gpu:0+gpu:2", "cpu");
            assertThat(model.replicas().getFirst().devices()).containsExactly("gpu:3", "gpu:1");
            assertThat(model.failovers())
                    .extracting(f -> f.breaker().getName())
                    .containsExactly("gpu-stories260K@gpu:3+gpu:1", "gpu-stories260K@gpu:0+gpu:2");
            assertThat(model.backendDescription()).contains("(2 replicas)", "CPU fallback");
            assertThat(generate(model)).isIn(FinishReason.LENGTH, FinishReason.STOP);
        }
    }

    @Test
    void devicesAllWithASizeOfTwoMakesAReplicaOfEachPairOfGpus() throws Exception {
        try (ServedTextModel model =
                load("llmserve.models[0].devices", "all", "llmserve.models[0].tensor-parallel-size", "2")) {
            assertThat(gpus.asked).containsExactly(List.of(0, 1), List.of(2, 3));
            assertThat(model.replicas())
                    .extracting(Replica::device)
                    .containsExactly("gpu:0+gpu:1", "gpu:2+gpu:3", "cpu");
        }
    }

    @Test
    void withoutDevicesOneReplicaSpansTheFirstGpus() throws Exception {
        try (ServedTextModel model = load("llmserve.models[0].tensor-parallel-size", "2")) {
            assertThat(gpus.asked).containsExactly(List.of(0, 1));
            assertThat(gpus.created).as("only the CPU copy comes from create").containsExactly(BackendChoice.CPU);
            assertThat(model.replicas()).extracting(Replica::device).containsExactly("gpu:0+gpu:1", "cpu");
            assertThat(model.failovers())
                    .extracting(f -> f.breaker().getName())
                    .as("one replica: the model's one breaker, as on one GPU")
                    .containsExactly("gpu-stories260K");
        }
    }

    @Test
    void aSizeOfOneKeepsThePlacementOfOneReplicaPerGpu() throws Exception {
        try (ServedTextModel model = load("llmserve.models[0].tensor-parallel-size", "1")) {
            assertThat(gpus.asked)
                    .as("the default placement: models spread in turn")
                    .isEmpty();
            assertThat(gpus.created).containsExactly(BackendChoice.GPU, BackendChoice.CPU);
            assertThat(model.replicas()).extracting(Replica::device).containsExactly("gpu:0", "cpu");
        }
        try (ServedTextModel model = load("llmserve.models[0].devices", "2,0")) {
            assertThat(gpus.asked).containsExactly(List.of(2), List.of(0));
            assertThat(model.replicas()).extracting(Replica::device).containsExactly("gpu:2", "gpu:0", "cpu");
        }
    }

    /**
     * The replica's name is a meter tag, a breaker name and a health detail as it is; the fault record
     * knows the replica by each of its GPUs, so a context the telemetry finds lost on either shuts it off.
     */
    @Test
    void aSplitReplicasNameTagsItsMetersAndEachOfItsGpusKnowsIt() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        metrics.bindTo(registry);
        try (ServedTextModel model =
                load("llmserve.models[0].devices", "all", "llmserve.models[0].tensor-parallel-size", "2")) {
            generate(model);
            assertThat(registry.scrape()).contains("device=\"gpu:0+gpu:1\"").contains("device=\"gpu:2+gpu:3\"");
            assertThat(breakers.find("gpu-stories260K@gpu:2+gpu:3")).isPresent();
            assertThat(faults.users("gpu:1"))
                    .singleElement()
                    .isSameAs(model.failovers().getFirst());
            assertThat(faults.users("gpu:0+gpu:1")).isEmpty();

            faults.report(
                    "gpu:3",
                    new GpuCallException(
                            "cuda",
                            "cuStreamSynchronize",
                            700,
                            "CUDA_ERROR_ILLEGAL_ADDRESS",
                            "illegal address",
                            false));
            assertThat(model.failovers())
                    .extracting(f -> f.breaker().getState())
                    .containsExactly(CircuitBreaker.State.CLOSED, CircuitBreaker.State.FORCED_OPEN);
        }
        assertThat(faults.users("gpu:3")).as("gone with the model").isEmpty();
    }

    /** A sticky error on a split replica cannot say whose context it lost: each of its GPUs is marked. */
    @Test
    void aLostContextOnASplitReplicaMarksEachOfItsGpus() throws Exception {
        try (ServedTextModel model =
                load("llmserve.models[0].devices", "all", "llmserve.models[0].tensor-parallel-size", "2")) {
            model.failovers()
                    .get(1)
                    .failed(
                            1,
                            new GpuCallException(
                                    "cuda",
                                    "cuStreamSynchronize",
                                    700,
                                    "CUDA_ERROR_ILLEGAL_ADDRESS",
                                    "illegal address",
                                    false));
            assertThat(faults.lostContext("gpu:2")).isPresent();
            assertThat(faults.lostContext("gpu:3")).isPresent();
            assertThat(faults.lostContext("gpu:0")).isEmpty();
        }
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "0,1,2 | 2 | model 'stories260K': devices [0, 1, 2] give 3 GPU(s) [0, 1, 2], which do not cut into"
                        + " replicas of tensor-parallel-size 2",
                "all   | 3 | model 'stories260K': devices [all] give 4 GPU(s) [0, 1, 2, 3], which do not cut into"
                        + " replicas of tensor-parallel-size 3",
                "''    | 5 | model 'stories260K': tensor-parallel-size 5 needs 5 GPUs, and there are 4",
                "0,4   | 2 | model 'stories260K': devices [0, 4] names GPU 4, but the GPUs are 0 to 3",
            })
    void aPlacementThatCannotBeMadeIsRefusedNamingTheModelTheDevicesAndTheSize(
            String devices, int size, String message) {
        String[] settings = devices.isEmpty()
                ? new String[] {"llmserve.models[0].tensor-parallel-size", String.valueOf(size)}
                : new String[] {
                    "llmserve.models[0].devices",
                    devices,
                    "llmserve.models[0].tensor-parallel-size",
                    String.valueOf(size)
                };
        assertThatThrownBy(() -> load(settings).close())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith(message);
        assertThat(gpus.asked).as("no replica loaded").isEmpty();
    }

    @Test
    void aModelOnTheCpuCannotBeSplitOverGpus() {
        assertThatThrownBy(
                        () -> load("llmserve.models[0].backend", "cpu", "llmserve.models[0].tensor-parallel-size", "2")
                                .close())
                .hasMessage("model 'stories260K' asks for tensor-parallel-size 2 but runs on the CPU (backend cpu)");
        assertThat(gpus.asked).isEmpty();
    }

    @Test
    void aProviderThatDoesNotSplitModelsRefusesASplitReplicaAndPlacesSingleOnes() throws Exception {
        OneGpuPerReplica single = new OneGpuPerReplica();
        assertThatThrownBy(() -> load(single, "llmserve.models[0].tensor-parallel-size", "2")
                        .close())
                .hasMessage("model 'stories260K' asks for a replica split over GPUs [0, 1]:"
                        + " this provider does not split models over GPUs");
        assertThat(single.made).isEmpty();

        try (Backend one = single.createOn(List.of(3), "m")) {
            assertThat(one.name()).isEqualTo("gpu:3");
        }
        assertThat(single.made).containsExactly(3);
    }

    private static FinishReason generate(ServedTextModel model) throws Exception {
        CompletableFuture<FinishReason> finished = new CompletableFuture<>();
        model.submit(InferenceRequest.greedy(model.promptEncoder().encode("Once upon a time"), 8), new TokenListener() {
            @Override
            public void onToken(int choice, int token, TokenLogprobs logprobs) {}

            @Override
            public void onFinish(int choice, FinishReason reason) {
                finished.complete(reason);
            }
        });
        return finished.get(60, TimeUnit.SECONDS);
    }
}
