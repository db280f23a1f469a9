package com.llmserve.app.openai.models;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.llmserve.app.models.ModelNotFoundException;
import com.llmserve.app.models.ModelRegistry;
import com.llmserve.app.models.SkippedFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /v1/models} and {@code GET /v1/models/{id}}: the models that are served or loading,
 * with the extensions vLLM and llama.cpp clients look for ({@code max_model_len}) and this
 * service's own ({@code kind}, {@code status}). What is not served is not in {@code data}, where
 * clients pick their model, but in the list's own extension {@code skipped}, with why: files of the
 * models folder that cannot be served, and models whose load failed.
 */
@RestController
class ModelsController {

    private final ModelRegistry registry;

    ModelsController(ModelRegistry registry) {
        this.registry = registry;
    }

    record ModelList(String object, List<Model> data, List<Skipped> skipped) {}

    /**
     * @param maxModelLen the most tokens of one sequence; null while loading
     */
    record Model(
            String id,
            String object,
            long created,
            @JsonProperty("owned_by") String ownedBy,
            String kind,
            String status,
            @JsonProperty("max_model_len") Integer maxModelLen) {

        static Model of(ModelRegistry.Status s) {
            return new Model(
                    s.id(),
                    "model",
                    s.created().getEpochSecond(),
                    "llmserve",
                    s.plan().kindName(),
                    s.state().apiName(),
                    s.model() == null ? null : s.model().maxModelLen());
        }
    }

    /**
     * A model or file that is not served.
     *
     * @param id   the id it has or would have had
     * @param file the file's name (its folder is the operator's business: the health details show it)
     */
    record Skipped(String id, String file, String reason) {}

    @GetMapping("/v1/models")
    ModelList list() {
        List<Skipped> skipped = new ArrayList<>();
        for (ModelRegistry.Status s : registry.statuses()) {
            if (s.state() == ModelRegistry.State.FAILED) {
                skipped.add(new Skipped(s.id(), name(s.plan().path()), "failed to load: " + s.error()));
            }
        }
        for (SkippedFile f : registry.skipped()) {
            skipped.add(new Skipped(f.id(), name(f.file()), f.reason()));
        }
        return new ModelList("list", listed().stream().map(Model::of).toList(), skipped);
    }

    /** Ids may hold slashes ({@code org/name}), so the id is the rest of the path. */
    @GetMapping("/v1/models/{*id}")
    Model get(@PathVariable String id) {
        String wanted = id.startsWith("/") ? id.substring(1) : id;
        return listed().stream()
                .filter(s -> s.id().equals(wanted))
                .findFirst()
                .map(Model::of)
                .orElseThrow(() -> new ModelNotFoundException(wanted));
    }

    private List<ModelRegistry.Status> listed() {
        return registry.statuses().stream()
                .filter(s -> s.state() != ModelRegistry.State.FAILED)
                .toList();
    }

    private static String name(Path file) {
        return file.getFileName().toString();
    }
}
