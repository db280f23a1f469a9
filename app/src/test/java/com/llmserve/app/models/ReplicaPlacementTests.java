package com.llmserve.app.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.llmserve.app.FaultInjectingBackend;
import com.llmserve.app.TestModels;
import com.llmserve.app.resilience.DeviceUnavailableException;
import com.llmserve.app.resilience.Failover;
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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * A model placed on several GPUs ({@code llmserve.models[].devices}): a replica on each (stand-in
 * GPUs: fault-injecting CPU backends named {@code gpu:0}, {@code gpu:1}, {@code gpu:2}), each behind a
 * breaker of its own, one CPU copy; new requests go to the replica with the fewest in flight among
 * those whose breaker lets them through, then to the CPU copy. Placements that cannot be made are
 * refused at load with what is wrong.
 */
class ReplicaPlacementTests {

    /** Three stand-in GPUs; the backends each placement made, by device. */
    private static final class ThreeGpus implements BackendProvider {
        final Map<Integer, FaultInjectingBackend> made = new HashMap<>();

        @Override
        public boolean available(BackendChoice choice) {
            return true;
        }

        @Override
        public Backend create(BackendChoice choice, String modelId) {
            return choice == BackendChoice.CPU ? new CpuBackend(1) : createOn(0, modelId);
        }

        @Override
        public int gpuCount() {
            return 3;
        }

        @Override
        public Backend createOn(int device, String modelId) {
            FaultInjectingBackend b = new FaultInjectingBackend("gpu:" + device, 1);
            made.put(device, b);
            return b;
        }
    }

    private final ThreeGpus gpus = new ThreeGpus();

    private ServedTextModel load(String... settings) throws Exception {
        return load(FailoverProperties.CpuFallback.ALWAYS, settings);
    }

    private ServedTextModel load(FailoverProperties.CpuFallback fallback, String... settings) throws Exception {
        Map<String, String> values = new HashMap<>();
        values.put("llmserve.models-dir", TestModels.shared().resolve("models").toString());
        values.put("llmserve.scan-models-dir", "false");
        values.put("llmserve.models[0].path", TestModels.file(TestModels.TEXT).toString());
        values.put("llmserve.models[0].backend", "gpu");
        values.put("llmserve.engine.kv-blocks", "64");
        for (int i = 0; i < settings.length; i += 2) {
            values.put(settings[i], settings[i + 1]);
        }
        ServingProperties p = new Binder(new MapConfigurationPropertySource(values))
                .bindOrCreate("llmserve", ServingProperties.class);
        ServingPolicies policies = ModelsTestSupport.policies(fallback, HostMemory.system());
        ModelLoader loader = new ModelLoader(p, gpus, policies, ModelObservers.NONE);
        return (ServedTextModel)
                loader.load(new ModelCatalog(p, gpus).startup().plans().getFirst());
    }

    @Test
    void devicesAllPutAReplicaOnEachGpuEachBehindItsOwnBreakerWithOneCpuCopy() throws Exception {
        try (ServedTextModel model = load("llmserve.models[0].devices", "all")) {
            assertThat(model.replicas()).extracting(Replica::device).containsExactly("gpu:0", "gpu:1", "gpu:2", "cpu");
            assertThat(model.failovers())
                    .extracting(f -> f.breaker().getName())
                    .containsExactly("gpu-stories260K@gpu:0", "gpu-stories260K@gpu:1", "gpu-stories260K@gpu:2");
            assertThat(model.backendDescription()).contains("(3 replicas)", "CPU fallback");
        }
    }

    @Test
    void replicasWithAsManyInFlightAreOrderedByTheirKvCachesUse() {
        assertThat(ReplicaSet.leastLoadedFirst(new int[] {2, 1, 1}, new double[] {0, 0.5, 0.25}))
                .containsExactly(2, 1, 0);
        assertThat(ReplicaSet.leastLoadedFirst(new int[] {1, 1, 0}, new double[] {0.1, 0.1, 0.9}))
                .as("requests in flight first, then the cache, then the order")
                .containsExactly(2, 0, 1);
    }

    @Test
    void aRequestGoesToTheReplicaWithTheFewestInFlightWhoseBreakerLetsItThrough() throws Exception {
        try (ServedTextModel model = load("llmserve.models[0].devices[0]", "2", "llmserve.models[0].devices[1]", "0")) {
            assertThat(model.replicas()).extracting(Replica::device).containsExactly("gpu:2", "gpu:0", "cpu");
            ReplicaSet<?, ?> set = model.replicaSet();
            List<ReplicaSet<?, ?>.Ticket> held = new ArrayList<>();
            held.add(set.admit());
            held.add(set.admit());
            held.add(set.admit());
            assertThat(model.inFlight()).containsExactly(2, 1); // ties go to the first
            held.removeFirst().close(); // one of gpu:2's ends: a tie again
            held.add(set.admit());
            assertThat(model.inFlight()).containsExactly(2, 1);

            Failover first = model.failovers().getFirst();
            first.breaker().transitionToForcedOpenState();
            held.add(set.admit());
            held.add(set.admit());
            assertThat(model.inFlight()).as("the open replica gets none").containsExactly(2, 3);

            model.failovers().get(1).breaker().transitionToForcedOpenState();
            ReplicaSet<?, ?>.Ticket onCpu = set.admit();
            assertThat(model.inFlight()).as("the CPU copy takes it").containsExactly(2, 3);
            onCpu.close();
            held.forEach(t -> t.noVerdict());
            held.forEach(t -> t.close());
            assertThat(model.inFlight()).containsExactly(0, 0);
        }
    }

    @Test
    void withoutACpuCopyAModelWhoseEveryReplicaIsOpenIsRefused() throws Exception {
        try (ServedTextModel model = load(FailoverProperties.CpuFallback.NEVER, "llmserve.models[0].devices", "0,1")) {
            assertThat(model.replicas()).extracting(Replica::device).containsExactly("gpu:0", "gpu:1");
            model.failovers().getFirst().breaker().transitionToForcedOpenState();
            ReplicaSet<?, ?>.Ticket second = model.replicaSet().admit();
            assertThat(model.inFlight()).containsExactly(0, 1);
            model.failovers().get(1).breaker().transitionToForcedOpenState();
            assertThatThrownBy(() -> model.replicaSet().admit()).isInstanceOf(DeviceUnavailableException.class);
            second.noVerdict();
            second.close();
        }
    }

    @Test
    void generationsSpreadOverTheReplicasAndEachReplicasEngineServesItsShare() throws Exception {
        try (ServedTextModel model = load("llmserve.models[0].devices", "all")) {
            List<CompletableFuture<FinishReason>> done = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                CompletableFuture<FinishReason> finished = new CompletableFuture<>();
                model.submit(
                        InferenceRequest.greedy(model.promptEncoder().encode("Once upon a time"), 64),
                        new TokenListener() {
                            @Override
                            public void onToken(int choice, int token, TokenLogprobs logprobs) {}

                            @Override
                            public void onFinish(int choice, FinishReason reason) {
                                finished.complete(reason);
                            }
                        });
                done.add(finished);
            }
            for (CompletableFuture<FinishReason> f : done) {
                assertThat(f.get(60, TimeUnit.SECONDS)).isIn(FinishReason.LENGTH, FinishReason.STOP);
            }
            for (Replica<?, ?> r : model.replicas().subList(0, 3)) {
                assertThat(((com.llmserve.engine.sched.InferenceEngine) r.engine())
                                .stats()
                                .generatedTokens())
                        .as("tokens generated on " + r.device())
                        .isPositive();
            }
            assertThat(model.inFlight()).containsExactly(0, 0, 0);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"0,3", "all,1", "0,0", "one"})
    void aPlacementThatCannotBeMadeIsRefusedSayingWhy(String devices) {
        assertThatThrownBy(() -> load("llmserve.models[0].devices", devices).close())
                .rootCause()
                .hasMessageContaining("devices");
        assertThat(gpus.made).as("no replica loaded").isEmpty();
    }

    @Test
    void aModelOnTheCpuCannotNameGpus() {
        assertThatThrownBy(() -> load("llmserve.models[0].devices", "1", "llmserve.models[0].backend", "cpu")
                        .close())
                .hasMessageContaining("runs on the CPU");
    }
}
