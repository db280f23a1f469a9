package com.llmserve.app.models;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.llmserve.app.TestModels;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;

/**
 * What {@code POST} and {@code DELETE /admin/models} do after their bodies are read
 * ({@code AdminModelRequestFuzzTests} fuzzes that part): {@link ModelAdmin} over a real catalog
 * and registry of a models folder that holds a small model, a file that is not GGUF and a cut
 * GGUF, asked to add any path (relative, absolute, with {@code ..}, outside the folder, odd
 * characters) under any id with any context size and KV block count the parser lets through,
 * and to remove any id (KV block counts as {@link #kvBlocks} draws them). Documented outcomes: added (it then loads or fails, and is removed
 * again), or refused with {@link UnservableModelException} (outside the folder, missing, not
 * servable), {@link ModelConflictException} or {@link ModelNotFoundException}. A model that loads
 * must end ready or failed within the limit; anything else that comes out is a finding.
 */
class ModelAdminFuzzTests {

    private static final Path FOLDER = folder();
    private static final ModelRegistry REGISTRY;
    private static final ModelAdmin ADMIN;

    static {
        ServingProperties p = ModelsTestSupport.properties(Map.of(
                "llmserve.models-dir", FOLDER.toString(),
                "llmserve.scan-models-dir", "false",
                "llmserve.warm-up", "false",
                "llmserve.engine.kv-blocks", "16"));
        BackendProvider cpu = ModelsTestSupport.cpuOnly();
        REGISTRY = new ModelRegistry(new ModelCatalog(p, cpu).startup(), new ModelLoader(p, cpu), false);
        REGISTRY.start();
        ADMIN = new ModelAdmin(new ModelCatalog(p, cpu), REGISTRY, false);
    }

    private static final String[] FILES = {
        "story.gguf",
        "notes.txt",
        "cut.gguf",
        "missing.gguf",
        "../story.gguf",
        "sub/../story.gguf",
        "./story.gguf",
        "",
        ".",
        "/",
        "/etc/passwd",
        FOLDER.resolve("story.gguf").toString()
    };

    private static Path folder() {
        try {
            Path dir = Files.createTempDirectory("admin-fuzz");
            byte[] model = Files.readAllBytes(TestModels.shared().resolve("models/stories260K-q8_0.gguf"));
            Files.write(dir.resolve("story.gguf"), model);
            Files.write(dir.resolve("cut.gguf"), Arrays.copyOf(model, model.length / 3));
            Files.writeString(dir.resolve("notes.txt"), "not a model");
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * None, a cache a load allocates in moments (up to 1 GB of this model's 10 KiB blocks), or one
     * beyond any host (at least 50 million blocks: refused before it is allocated). Between them lie
     * caches a host holds but takes seconds to zero: valid, and too slow for a fuzzer's inputs.
     */
    private static int kvBlocks(FuzzedDataProvider data) {
        return switch (data.consumeInt(0, 2)) {
            case 0 -> 0;
            case 1 -> data.consumeInt(0, 100_000);
            default -> data.consumeInt(50_000_000, Integer.MAX_VALUE);
        };
    }

    @FuzzTest(maxDuration = "20s")
    void anyAddOrRemoveIsDoneOrRefusedAsDocumented(FuzzedDataProvider data) throws InterruptedException {
        String file = data.consumeBoolean() ? FILES[data.consumeInt(0, FILES.length - 1)] : data.consumeString(48);
        String id = data.consumeBoolean() ? null : data.consumeString(24).strip();
        if (id != null && (id.isEmpty() || id.chars().anyMatch(Character::isISOControl))) {
            id = null; // what the request parser refuses never reaches the admin
        }
        ModelAdmin.Options options = new ModelAdmin.Options(
                data.consumeBoolean() ? 0 : data.consumeInt(0, Integer.MAX_VALUE), kvBlocks(data));
        String removal = data.consumeString(24);
        String added = null;
        try {
            added = ADMIN.add(file, id, options).id();
        } catch (UnservableModelException | ModelConflictException refused) {
            // outside the folder, missing, not servable; or the id is taken
        }
        try {
            ADMIN.remove(removal);
        } catch (ModelNotFoundException refused) {
            // no such model
        }
        assertThat(REGISTRY.awaitSettled(Duration.ofSeconds(30)))
                .as("loads end")
                .isTrue();
        if (added != null) {
            try {
                ADMIN.remove(added);
            } catch (ModelNotFoundException gone) {
                // the removal above took it
            }
        }
        assertThat(REGISTRY.statuses()).as("nothing left").isEmpty();
    }
}
