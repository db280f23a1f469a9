package com.llmserve.app.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.llmserve.app.TestModels;
import com.llmserve.app.gpu.DeviceFaults;
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
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.bulkhead.BulkheadFullException;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.timelimiter.TimeLimiterConfig;
import io.github.resilience4j.timelimiter.TimeLimiterRegistry;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** The named time limiters and the admission bulkhead, as a served model applies them. */
class ServedModelPoliciesTests {

    private final TimeLimiterRegistry limiters = TimeLimiterRegistry.ofDefaults();
    private final BulkheadRegistry bulkheads = BulkheadRegistry.ofDefaults();
    private ServedModel model;

    @BeforeAll
    static void folder() {
        TestModels.folder();
    }

    @AfterEach
    void close() {
        if (model != null) {
            model.close();
        }
    }

    private ServedModel load(String id, TimeLimiterConfig limit) throws Exception {
        limiters.timeLimiter(ServingPolicies.GENERATION, limit);
        limiters.timeLimiter(ServingPolicies.EMBEDDING, limit);
        bulkheads.bulkhead(
                ServingPolicies.ADMISSION,
                BulkheadConfig.custom()
                        .maxConcurrentCalls(1)
                        .maxWaitDuration(Duration.ZERO)
                        .build());
        Map<String, String> values = new HashMap<>();
        values.put("llmserve.models-dir", TestModels.DIR);
        values.put("llmserve.engine.kv-blocks", "64");
        ServingProperties p = new Binder(new MapConfigurationPropertySource(values))
                .bindOrCreate("llmserve", ServingProperties.class);
        BackendProvider cpu = new BackendProvider() {
            @Override
            public boolean available(BackendChoice choice) {
                return true;
            }

            @Override
            public Backend create(BackendChoice choice, String modelId) {
                return new CpuBackend(1);
            }
        };
        ServingPolicies policies = new ServingPolicies(
                CircuitBreakerRegistry.ofDefaults(),
                limiters,
                bulkheads,
                FailoverProperties.defaults(),
                HostMemory.system(),
                DeviceFaults.none());
        ModelLoader loader = new ModelLoader(p, cpu, policies, ModelObservers.NONE);
        ModelPlan plan = new ModelCatalog(p, cpu)
                .startup().plans().stream()
                        .filter(x -> x.id().equals(id))
                        .findFirst()
                        .orElseThrow();
        model = loader.load(plan);
        return model;
    }

    @Test
    void theGenerationTimeLimitersTimeoutEndsALongGenerationAndCountsAsATimeout() throws Exception {
        ServedTextModel text = (ServedTextModel) load(
                TestModels.TEXT,
                TimeLimiterConfig.custom()
                        .timeoutDuration(Duration.ofMillis(50))
                        .build());
        AtomicInteger timeouts = new AtomicInteger();
        limiters.timeLimiter(ServingPolicies.GENERATION).getEventPublisher().onTimeout(e -> timeouts.incrementAndGet());
        CompletableFuture<FinishReason> finished = new CompletableFuture<>();

        text.submit(InferenceRequest.greedy(text.promptEncoder().encode("Once upon a time"), 400), new TokenListener() {
            @Override
            public void onToken(int choice, int token, TokenLogprobs logprobs) {}

            @Override
            public void onFinish(int choice, FinishReason reason) {
                finished.complete(reason);
            }
        });

        assertThat(finished.get(30, TimeUnit.SECONDS)).isEqualTo(FinishReason.TIMEOUT);
        assertThat(timeouts.get()).isEqualTo(1);
        assertThat(bulkheads.bulkhead(ServingPolicies.ADMISSION).getMetrics().getAvailableConcurrentCalls())
                .as("the admission permit is back")
                .isEqualTo(1);
    }

    @Test
    void theEmbeddingTimeLimitersTimeoutAnswersATimeout() throws Exception {
        ServedEmbeddingModel embedding = (ServedEmbeddingModel) load(
                TestModels.EMBEDDING,
                TimeLimiterConfig.custom().timeoutDuration(Duration.ofNanos(1)).build());

        // eight inputs of some 400 tokens take the CPU far longer than the limiter's nanosecond
        int[] longInput = embedding.tokenizer().encode("The weather is lovely today. ".repeat(60), true, false);
        assertThatThrownBy(() -> embedding.embed(java.util.Collections.nCopies(8, longInput)))
                .isInstanceOfSatisfying(EmbeddingFailedException.class, e -> assertThat(e.reason())
                        .isEqualTo(EmbeddingFailedException.Reason.TIMEOUT));
        assertThat(bulkheads.bulkhead(ServingPolicies.ADMISSION).getMetrics().getAvailableConcurrentCalls())
                .isEqualTo(1);
    }

    @Test
    void aFullAdmissionBulkheadRefusesAtOnceAndFreesItsPermitWhenARequestEnds() throws Exception {
        ServedTextModel text = (ServedTextModel) load(
                TestModels.TEXT,
                TimeLimiterConfig.custom()
                        .timeoutDuration(Duration.ofMinutes(1))
                        .build());
        Bulkhead admission = bulkheads.bulkhead(ServingPolicies.ADMISSION);
        assertThat(admission.tryAcquirePermission()).isTrue(); // another request holds the only place

        assertThatThrownBy(() -> text.submit(InferenceRequest.greedy(new int[] {1}, 2), null))
                .isInstanceOf(BulkheadFullException.class);

        admission.onComplete();
        CompletableFuture<FinishReason> finished = new CompletableFuture<>();
        text.submit(InferenceRequest.greedy(new int[] {1}, 2).withN(2), new TokenListener() {
            @Override
            public void onToken(int choice, int token, TokenLogprobs logprobs) {}

            @Override
            public void onFinish(int choice, FinishReason reason) {
                if (choice == 1) {
                    finished.complete(reason);
                }
            }
        });
        finished.get(30, TimeUnit.SECONDS);
        assertThat(admission.getMetrics().getAvailableConcurrentCalls())
                .as("released once, after both choices")
                .isEqualTo(1);
    }
}
