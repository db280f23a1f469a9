package com.llmserve.engine.sched;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.llmserve.engine.TestData;
import com.llmserve.engine.backend.cpu.CpuBackend;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.model.Architectures;
import com.llmserve.engine.model.EmbeddingModel;
import com.llmserve.engine.model.InputTooLongException;
import com.llmserve.engine.model.ModelOptions;
import com.llmserve.engine.tokenizer.Tokenizer;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class EmbeddingEngineTests {

    private static CpuBackend backend;
    private static GgufFile file;
    private static EmbeddingModel model;
    private static Tokenizer tokenizer;

    @BeforeAll
    static void load() throws IOException {
        backend = new CpuBackend(2);
        file = GgufFile.open(TestData.model("all-MiniLM-L6-v2-q8_0.gguf"));
        model = Architectures.loadEmbeddingModel(file, backend, ModelOptions.DEFAULT);
        tokenizer = Tokenizer.fromGguf(file.metadata());
    }

    @AfterAll
    static void unload() {
        model.close();
        file.close();
        backend.close();
    }

    @Test
    void concurrentRequestsAreEmbeddedTogetherWithTheSameVectorsAsAlone() throws Exception {
        String[] texts = {
            "Hello!",
            "The weather is lovely today.",
            "It's so sunny outside!",
            "He drove to the stadium.",
            "A man is playing a guitar on the street corner.",
            "Zürich, São Paulo and Kraków"
        };
        float[][] alone = new float[texts.length][];
        for (int i = 0; i < texts.length; i++) {
            alone[i] = model.embed(List.of(encode(texts[i])))[0];
        }
        try (EmbeddingEngine engine = EmbeddingEngine.start(
                "minilm",
                model,
                new EmbeddingOptions(4096, Duration.ofMillis(50), 64),
                EmbeddingEngine.EmbeddingObserver.NONE)) {
            List<CompletableFuture<float[][]>> futures = new ArrayList<>();
            for (String t : texts) {
                futures.add(engine.submit(List.of(encode(t), encode(t))));
            }
            for (int i = 0; i < texts.length; i++) {
                float[][] got = futures.get(i).get(30, TimeUnit.SECONDS);
                assertThat(got).hasNumberOfRows(2);
                assertThat(got[0]).containsExactly(alone[i], org.assertj.core.data.Offset.offset(1e-6f));
                assertThat(got[1]).containsExactly(alone[i], org.assertj.core.data.Offset.offset(1e-6f));
            }
            assertThat(engine.inputsEmbedded()).isEqualTo(2L * texts.length);
            assertThat(engine.batches()).as("requests were batched").isLessThan(texts.length);
        }
    }

    @Test
    void aLoneRequestDoesNotWaitForCompany() throws Exception {
        // a wait far longer than the test may take: the lone request must not spend it
        try (EmbeddingEngine engine = EmbeddingEngine.start(
                "minilm",
                model,
                new EmbeddingOptions(4096, Duration.ofMinutes(10), 64),
                EmbeddingEngine.EmbeddingObserver.NONE)) {
            for (int i = 0; i < 3; i++) {
                assertThat(engine.submit(List.of(encode("Hello!"))).get(60, TimeUnit.SECONDS))
                        .hasNumberOfRows(1);
            }
            assertThat(engine.batches()).isEqualTo(3);
        }
    }

    @Test
    void badInputsAndAFullQueueAreRefusedBeforeTheyQueue() {
        try (EmbeddingEngine engine = EmbeddingEngine.start(
                "minilm",
                model,
                new EmbeddingOptions(2048, Duration.ZERO, 0),
                EmbeddingEngine.EmbeddingObserver.NONE)) {
            int[] tooLong = new int[model.contextLength() + 1];
            java.util.Arrays.fill(tooLong, 1000);
            assertThatThrownBy(() -> engine.submit(List.of(encode("ok"), tooLong)))
                    .isInstanceOfSatisfying(InputTooLongException.class, e -> assertThat(e.index())
                            .isEqualTo(1));
            assertThatThrownBy(() -> engine.submit(List.of())).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> engine.submit(List.of(new int[0]))).hasMessageContaining("input 0 is empty");
            assertThatThrownBy(() -> engine.submit(List.of(encode("queue is zero"))))
                    .isInstanceOfSatisfying(AdmissionException.class, e -> assertThat(e.reason())
                            .isEqualTo(AdmissionException.Reason.QUEUE_FULL));
        }
    }

    @Test
    void aRequestLargerThanABatchRunsInSlicesWithTheSameVectors() throws Exception {
        List<int[]> inputs = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            inputs.add(encode("Sentence number " + i + " of a request larger than one batch."));
        }
        float[][] alone = model.embed(inputs);
        try (EmbeddingEngine engine = EmbeddingEngine.start(
                "minilm", model, new EmbeddingOptions(40, Duration.ZERO, 64), EmbeddingEngine.EmbeddingObserver.NONE)) {
            float[][] sliced = engine.submit(inputs).get(60, TimeUnit.SECONDS);

            assertThat(engine.batches()).isGreaterThanOrEqualTo(4);
            for (int i = 0; i < inputs.size(); i++) {
                assertThat(sliced[i]).containsExactly(alone[i], org.assertj.core.data.Offset.offset(1e-6f));
            }
        }
    }

    @Test
    void aLargeRequestCancelledMidwayStopsAtTheNextSliceAndASmallOneBehindItIsNotHeldUp() throws Exception {
        List<int[]> large = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            large.add(encode("One of many inputs of a request that is cancelled midway: " + i));
        }
        java.util.concurrent.atomic.AtomicReference<CompletableFuture<float[][]>> toCancel =
                new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.atomic.AtomicInteger batchesSeen = new java.util.concurrent.atomic.AtomicInteger();
        EmbeddingEngine.EmbeddingObserver cancelAfterThird = (requests, inputs, tokens, elapsed) -> {
            if (batchesSeen.incrementAndGet() == 3) {
                toCancel.get().cancel(false); // as the time limiter does on a timeout
            }
        };
        try (EmbeddingEngine engine =
                EmbeddingEngine.start("minilm", model, new EmbeddingOptions(64, Duration.ZERO, 64), cancelAfterThird)) {
            CompletableFuture<float[][]> big = engine.submit(large);
            toCancel.set(big);
            CompletableFuture<float[][]> small = engine.submit(List.of(encode("Hello!")));

            assertThat(small.get(60, TimeUnit.SECONDS)).hasNumberOfRows(1);
            Thread.sleep(300);

            assertThat(big.isCancelled()).isTrue();
            // three batches ran (the small request took its turn in one of them), then the rest was dropped
            assertThat(engine.batches()).isEqualTo(3);
            assertThat(engine.inputsEmbedded()).isLessThan(20);
        }
    }

    /** A request taking turns still counts against the queue's bound until its last input is in a batch. */
    @Test
    void aRequestTakingTurnsCountsAsWaitingUntilItsLastSlice() throws Exception {
        List<int[]> large = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            large.add(encode("An input of a request that takes many turns: " + i));
        }
        try (EmbeddingEngine engine = EmbeddingEngine.start(
                "minilm", model, new EmbeddingOptions(32, Duration.ZERO, 1), EmbeddingEngine.EmbeddingObserver.NONE)) {
            CompletableFuture<float[][]> big = engine.submit(large);
            while (engine.batches() == 0) {
                Thread.sleep(1);
            }

            assertThat(engine.waitingRequests()).isEqualTo(1);
            assertThatThrownBy(() -> engine.submit(List.of(encode("Hello!"))))
                    .isInstanceOfSatisfying(AdmissionException.class, e -> assertThat(e.reason())
                            .isEqualTo(AdmissionException.Reason.QUEUE_FULL));
            big.cancel(false);
            java.util.concurrent.TimeUnit.MILLISECONDS.sleep(300);
            assertThat(engine.waitingRequests()).isZero();
            assertThat(engine.submit(List.of(encode("Hello!"))).get(60, TimeUnit.SECONDS))
                    .hasNumberOfRows(1);
        }
    }

    private static int[] encode(String text) {
        return tokenizer.encode(text, true, false);
    }
}
