package com.llmserve.app.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.llmserve.app.TestModels;
import com.llmserve.app.resilience.ServingPolicies;
import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.BackendChoice;
import com.llmserve.engine.backend.cpu.CpuBackend;
import com.llmserve.engine.sampling.TokenLogprobs;
import com.llmserve.engine.sched.EmbeddingEngine;
import com.llmserve.engine.sched.EngineObserver;
import com.llmserve.engine.sched.EngineStats;
import com.llmserve.engine.sched.FinishReason;
import com.llmserve.engine.sched.InferenceRequest;
import com.llmserve.engine.sched.TokenListener;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * The models folder while the service runs: files copied in are served once they stop changing,
 * files that cannot be served are listed with why, removed files take their model out of the
 * catalog at once without cutting the request that uses it, and changed files load again. The
 * watcher's clock is the test's, and each look is called by the test: nothing depends on timing
 * but the background loads, which the test waits for.
 */
class ModelFolderWatcherTests {

    private static final Duration QUIET = Duration.ofSeconds(2);
    private static final Duration SETTLE_LIMIT = Duration.ofMinutes(1);

    @TempDir
    Path dir;

    private final AtomicLong now = new AtomicLong();
    private final List<String> released = new CopyOnWriteArrayList<>();
    private ModelRegistry registry;
    private ModelFolderWatcher watcher;

    @AfterEach
    void stop() {
        if (registry != null) {
            registry.stop();
        }
    }

    /** A registry of the folder's files as they are now, started, and its watcher (not started: the test looks). */
    private void serveFolder() throws InterruptedException {
        Map<String, String> values = new HashMap<>();
        values.put("llmserve.models-dir", dir.toString());
        values.put("llmserve.warm-up", "false");
        values.put("llmserve.engine.kv-blocks", "64");
        values.put("llmserve.watch.quiet-period", QUIET.toMillis() + "ms");
        ServingProperties p = new Binder(new MapConfigurationPropertySource(values))
                .bindOrCreate("llmserve", ServingProperties.class);
        BackendProvider cpu = new BackendProvider() {
            @Override
            public boolean available(BackendChoice choice) {
                return choice != BackendChoice.GPU;
            }

            @Override
            public Backend create(BackendChoice choice, String modelId) {
                return new CpuBackend(1);
            }
        };
        ModelCatalog catalog = new ModelCatalog(p, cpu);
        registry = new ModelRegistry(
                catalog.startup(), new ModelLoader(p, cpu, ServingPolicies.defaults(), recording()), false);
        watcher = new ModelFolderWatcher(catalog, registry, p.watch(), now::get);
        registry.start();
        assertThat(registry.awaitSettled(SETTLE_LIMIT)).isTrue();
    }

    /** Observers that record which models released their meters: the last step of closing a model. */
    private ModelObservers recording() {
        return new ModelObservers() {
            @Override
            public EngineObserver completion(String model, String device, Supplier<EngineStats> stats) {
                return EngineObserver.NONE;
            }

            @Override
            public EmbeddingEngine.EmbeddingObserver embedding(
                    String model, String device, LongSupplier inputsEmbedded, IntSupplier waitingRequests) {
                return EmbeddingEngine.EmbeddingObserver.NONE;
            }

            @Override
            public void released(String model) {
                released.add(model);
            }
        };
    }

    private void advance(Duration d) {
        now.addAndGet(d.toNanos());
    }

    private static byte[] story() throws IOException {
        return Files.readAllBytes(TestModels.shared().resolve("models/stories260K-q8_0.gguf"));
    }

    private ModelRegistry.Status status(String id) {
        return registry.statuses().stream()
                .filter(s -> s.id().equals(id))
                .findFirst()
                .orElse(null);
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + SETTLE_LIMIT.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as(what).isLessThan(deadline);
            Thread.sleep(20);
        }
    }

    @Test
    void aFileBeingCopiedIsReadOnlyOnceItHasStoppedChanging() throws Exception {
        serveFolder();
        byte[] model = story();
        Path file = dir.resolve("story.gguf");
        Files.write(file, Arrays.copyOf(model, model.length / 2));

        watcher.look();
        advance(QUIET.minusMillis(1));
        watcher.look();
        assertThat(registry.statuses()).as("not read before it is quiet").isEmpty();

        Files.write(file, Arrays.copyOfRange(model, model.length / 2, model.length), StandardOpenOption.APPEND);
        advance(Duration.ofSeconds(1));
        watcher.look();
        advance(QUIET.minusMillis(1));
        watcher.look();
        assertThat(registry.statuses())
                .as("the quiet period starts again at each change")
                .isEmpty();
        assertThat(registry.skipped()).as("a half-copied file is never judged").isEmpty();

        advance(Duration.ofMillis(1));
        watcher.look();
        assertThat(status("story")).isNotNull();
        assertThat(registry.awaitSettled(SETTLE_LIMIT)).isTrue();
        assertThat(status("story").state()).isEqualTo(ModelRegistry.State.READY);
        assertThat(generate(registry.textModel("story"))).isEqualTo(FinishReason.LENGTH);
    }

    @Test
    void filesThatCannotBeServedAreListedWithWhyAndJudgedAgainWhenTheyChange() throws Exception {
        byte[] model = story();
        Files.writeString(dir.resolve("notes.gguf"), "these are notes, not a model");
        Files.write(dir.resolve("cut.gguf"), Arrays.copyOf(model, model.length / 2));
        Files.write(dir.resolve("snake.gguf"), ggufOfArchitecture("mamba"));
        Files.writeString(dir.resolve("README.md"), "not a model file, not a .gguf name: ignored");
        serveFolder();

        Map<String, String> reasons = new HashMap<>();
        registry.skipped().forEach(f -> reasons.put(f.id(), f.reason()));
        assertThat(reasons).containsOnlyKeys("cut", "notes", "snake");
        assertThat(reasons.get("cut")).contains("past the end of the file");
        assertThat(reasons.get("notes")).contains("not a GGUF file");
        assertThat(reasons.get("snake")).contains("unsupported architecture 'mamba'");
        Map<String, Object> health = new ModelHealthIndicator(registry).health().getDetails();
        assertThat(health.get("skipped").toString()).contains("cut.gguf", "notes.gguf", "snake.gguf", "mamba");

        watcher.look();
        advance(QUIET);
        watcher.look();
        assertThat(registry.skipped())
                .as("unchanged files are not judged again")
                .hasSize(3);

        Path fixed = dir.resolve("download.tmp");
        Files.write(fixed, model);
        Files.move(fixed, dir.resolve("cut.gguf"), StandardCopyOption.REPLACE_EXISTING);
        Files.delete(dir.resolve("notes.gguf"));
        watcher.look();
        assertThat(registry.skipped()).extracting(SkippedFile::id).containsExactly("cut", "snake");
        advance(QUIET);
        watcher.look();

        assertThat(registry.skipped()).extracting(SkippedFile::id).containsExactly("snake");
        assertThat(registry.awaitSettled(SETTLE_LIMIT)).isTrue();
        assertThat(status("cut").state()).isEqualTo(ModelRegistry.State.READY);
    }

    @Test
    void aRemovedFilesModelLeavesAtOnceAndClosesOnlyAfterTheRequestUsingItEnds() throws Exception {
        Files.write(dir.resolve("story.gguf"), story());
        serveFolder();
        watcher.look();
        ModelLeases request = new ModelLeases();
        ServedTextModel model = request.during(() -> registry.textModel("story"));

        Files.delete(dir.resolve("story.gguf"));
        watcher.look();

        assertThatThrownBy(() -> registry.get("story")).isInstanceOf(ModelNotFoundException.class);
        assertThat(registry.statuses()).isEmpty();
        assertThat(generate(model))
                .as("the request holding it still gets its answer")
                .isEqualTo(FinishReason.LENGTH);
        assertThat(released).as("not closed while a request holds it").isEmpty();

        request.release();
        await("the model closes once its last request ended", () -> released.contains("story"));
    }

    @Test
    void aChangedFileLoadsAgainAfterTheOldCopyIsNoLongerUsed() throws Exception {
        byte[] model = story();
        Path file = dir.resolve("story.gguf");
        Files.write(file, model);
        serveFolder();
        watcher.look();
        ModelLeases request = new ModelLeases();
        ServedTextModel old = request.during(() -> registry.textModel("story"));

        Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis() + 60_000));
        watcher.look();
        advance(QUIET);
        watcher.look();

        assertThat(status("story").state())
                .as("requests are told it is loading while the old copy still answers the request using it")
                .isEqualTo(ModelRegistry.State.LOADING);
        assertThat(generate(old)).isEqualTo(FinishReason.LENGTH);
        request.release();
        assertThat(registry.awaitSettled(SETTLE_LIMIT)).isTrue();
        assertThat(status("story").state()).isEqualTo(ModelRegistry.State.READY);
        assertThat(registry.textModel("story")).isNotSameAs(old);
        assertThat(released).containsExactly("story");
    }

    @Test
    void aModelRemovedThroughTheRegistryStaysRemovedUntilItsFileChanges() throws Exception {
        Path file = dir.resolve("story.gguf");
        Files.write(file, story());
        serveFolder();
        watcher.look();

        registry.remove("story");
        advance(QUIET);
        watcher.look();
        assertThat(registry.statuses()).isEmpty();

        Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis() + 60_000));
        watcher.look();
        advance(QUIET);
        watcher.look();
        assertThat(status("story")).isNotNull();
    }

    @Test
    void aFolderThatCannotBeListedChangesNothing() throws Exception {
        Files.write(dir.resolve("story.gguf"), story());
        serveFolder();
        watcher.look();
        Path away = dir.resolveSibling(dir.getFileName() + "-away");
        Files.move(dir, away);
        try {
            advance(QUIET);
            watcher.look();
            assertThat(status("story").state()).isEqualTo(ModelRegistry.State.READY);
        } finally {
            Files.move(away, dir);
        }
    }

    /** Greedy generation of a few tokens, to its end. */
    private static FinishReason generate(ServedTextModel model) throws Exception {
        CompletableFuture<FinishReason> finished = new CompletableFuture<>();
        int[] prompt = model.tokenizer().encode("Once upon a time", true, false);
        model.submit(InferenceRequest.greedy(prompt, 4), new TokenListener() {
            @Override
            public void onToken(int choice, int token, TokenLogprobs logprobs) {}

            @Override
            public void onError(Throwable e) {
                finished.completeExceptionally(e);
            }

            @Override
            public void onFinish(int choice, FinishReason reason) {
                finished.complete(reason);
            }
        });
        return finished.get(1, TimeUnit.MINUTES);
    }

    /** A GGUF v3 file with no tensors whose only key names {@code architecture}. */
    private static byte[] ggufOfArchitecture(String architecture) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuffer b = ByteBuffer.allocate(256).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0x46554747).putInt(3).putLong(0).putLong(1);
        byte[] key = "general.architecture".getBytes(StandardCharsets.UTF_8);
        byte[] value = architecture.getBytes(StandardCharsets.UTF_8);
        b.putLong(key.length).put(key).putInt(8).putLong(value.length).put(value);
        out.write(b.array(), 0, b.position());
        return out.toByteArray();
    }
}
