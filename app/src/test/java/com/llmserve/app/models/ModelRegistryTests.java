package com.llmserve.app.models;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.llmserve.app.TestModels;
import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.BackendChoice;
import com.llmserve.engine.backend.cpu.CpuBackend;
import com.llmserve.engine.chat.ChatMessage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/**
 * Loading in the background: requests to a loading model are told to come back, the
 * {@code model} health component holds readiness until every model is settled, and a broken file
 * of the folder does not take the service down while a broken configured model does.
 */
class ModelRegistryTests {

    private ModelRegistry registry;

    @BeforeAll
    static void folder() {
        TestModels.folder();
    }

    @AfterEach
    void stop() {
        if (registry != null) {
            registry.stop();
        }
    }

    private static ServingProperties properties(Map<String, String> values) {
        Map<String, String> prefixed = new HashMap<>();
        values.forEach((k, v) -> prefixed.put("llmserve." + k, v));
        return new Binder(new MapConfigurationPropertySource(prefixed))
                .bindOrCreate("llmserve", ServingProperties.class);
    }

    private ModelRegistry registry(Map<String, String> values, BackendProvider backends) {
        ServingProperties p = properties(values);
        registry = new ModelRegistry(new ModelCatalog(p, backends).startup(), new ModelLoader(p, backends), p.warmUp());
        return registry;
    }

    /** CPU backends, except that {@code failing} models fail to load and every load waits for {@code gate}. */
    private static BackendProvider backends(Set<String> failing, CountDownLatch gate) {
        return new BackendProvider() {
            @Override
            public boolean available(BackendChoice choice) {
                return choice != BackendChoice.GPU;
            }

            @Override
            public Backend create(BackendChoice choice, String modelId) {
                try {
                    gate.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                if (failing.contains(modelId)) {
                    throw new IllegalStateException("device on fire");
                }
                return new CpuBackend(1);
            }
        };
    }

    @Test
    void whileModelsLoadRequestsAreToldToRetryAndReadinessIsHeld() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        ModelRegistry r = registry(Map.of("models-dir", TestModels.DIR), backends(Set.of(), gate));
        ModelHealthIndicator health = new ModelHealthIndicator(r);
        r.start();

        assertThatThrownBy(() -> r.textModel(TestModels.TEXT))
                .isInstanceOf(ModelNotReadyException.class)
                .hasMessageContaining("loading")
                .matches(e -> ((ModelNotReadyException) e).loading());
        assertThat(health.health().getStatus()).isEqualTo(Status.OUT_OF_SERVICE);

        gate.countDown();
        assertThat(r.awaitSettled(Duration.ofMinutes(1))).isTrue();
        Health ready = health.health();
        assertThat(ready.getStatus()).isEqualTo(Status.UP);
        assertThat(r.textModel(TestModels.TEXT).maxModelLen()).isEqualTo(2048);
        assertThat(r.embeddingModel(TestModels.EMBEDDING).dimensions()).isEqualTo(384);
        @SuppressWarnings("unchecked")
        Map<String, Map<String, Object>> models =
                (Map<String, Map<String, Object>>) ready.getDetails().get("models");
        assertThat(models.get(TestModels.TEXT))
                .containsEntry("state", "ready")
                .containsEntry("kind", "completion")
                .containsEntry("kvCacheType", "f16")
                .containsKeys("kvBlocksTotal", "runningSequences", "backend");
        assertThat(models.get(TestModels.EMBEDDING)).containsEntry("dimensions", 384);
    }

    @Test
    void aBrokenFileOfTheFolderIsReportedWithoutTakingTheServiceDown() throws Exception {
        ModelRegistry r = registry(
                Map.of("models-dir", TestModels.DIR, "warm-up", "false"),
                backends(Set.of(TestModels.EMBEDDING), new CountDownLatch(0)));
        r.start();
        assertThat(r.awaitSettled(Duration.ofMinutes(1))).isTrue();

        Health health = new ModelHealthIndicator(r).health();

        assertThat(health.getStatus()).isEqualTo(Status.UP);
        assertThat(health.getDetails().get("models").toString())
                .contains("state=failed")
                .contains("device on fire");
        assertThatThrownBy(() -> r.embeddingModel(TestModels.EMBEDDING))
                .isInstanceOf(ModelNotReadyException.class)
                .hasMessageContaining("failed to load");
    }

    @Test
    void aConfiguredModelThatFailsTakesTheServiceDown() throws Exception {
        ModelRegistry r = registry(
                Map.of(
                        "scan-models-dir",
                        "false",
                        "warm-up",
                        "false",
                        "models[0].path",
                        TestModels.file(TestModels.TEXT).toString()),
                backends(Set.of(TestModels.TEXT), new CountDownLatch(0)));
        r.start();
        assertThat(r.awaitSettled(Duration.ofMinutes(1))).isTrue();

        assertThat(new ModelHealthIndicator(r).health().getStatus()).isEqualTo(Status.DOWN);
    }

    @Test
    void aConfiguredChatTemplateReplacesTheFilesOwn(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("template.jinja");
        Files.writeString(file, "{% for m in messages %}[{{ m['role'] }}] {{ m['content'] }}\n{% endfor %}");
        String model = TestModels.file(TestModels.TEXT).toString();
        ModelRegistry r = registry(
                Map.of(
                        "scan-models-dir",
                        "false",
                        "warm-up",
                        "false",
                        "models[0].id",
                        "inline",
                        "models[0].path",
                        model,
                        "models[0].chat-template",
                        "{{ messages[0]['content'] }}!",
                        "models[1].id",
                        "from-file",
                        "models[1].path",
                        model,
                        "models[1].chat-template-file",
                        file.toString(),
                        "models[2].id",
                        "own",
                        "models[2].path",
                        model),
                backends(Set.of(), new CountDownLatch(0)));
        r.start();
        assertThat(r.awaitSettled(Duration.ofMinutes(1))).isTrue();

        List<ChatMessage> chat = List.of(ChatMessage.user("Hi"));
        assertThat(r.textModel("inline").chatTemplate().render(chat, true)).isEqualTo("Hi!");
        assertThat(r.textModel("from-file").chatTemplate().render(chat, true)).isEqualTo("[user] Hi\n");
        // stories260K has no template of its own: the documented ChatML fallback
        assertThat(r.textModel("own").chatTemplate().isFallback()).isTrue();
    }

    @Test
    void nothingToServeIsDown() {
        ModelRegistry r = registry(Map.of("scan-models-dir", "false"), backends(Set.of(), new CountDownLatch(0)));

        Health health = new ModelHealthIndicator(r).health();

        assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        assertThat(health.getDetails()).containsKey("message");
        assertThat(r.statuses()).isEqualTo(List.of());
    }

    @Test
    void anUnknownModelIsNotFoundAndAModelOfTheOtherKindIsRefused() throws Exception {
        ModelRegistry r = registry(
                Map.of("models-dir", TestModels.DIR, "warm-up", "false"), backends(Set.of(), new CountDownLatch(0)));
        r.start();
        assertThat(r.awaitSettled(Duration.ofMinutes(1))).isTrue();

        assertThatThrownBy(() -> r.get("nope")).isInstanceOf(ModelNotFoundException.class);
        assertThatThrownBy(() -> r.textModel(TestModels.EMBEDDING))
                .isInstanceOf(WrongModelKindException.class)
                .hasMessageContaining("embedding");
        assertThatThrownBy(() -> r.embeddingModel(TestModels.TEXT)).isInstanceOf(WrongModelKindException.class);
    }
}
