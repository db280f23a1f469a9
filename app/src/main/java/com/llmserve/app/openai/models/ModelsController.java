package com.llmserve.app.openai.models;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.llmserve.app.models.ModelNotFoundException;
import com.llmserve.app.models.ModelRegistry;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /v1/models} and {@code GET /v1/models/{id}}: the models that are served or loading,
 * with the extensions vLLM and llama.cpp clients look for ({@code max_model_len}) and this
 * service's own ({@code kind}, {@code status}). A model whose load failed is not listed; the
 * {@code model} health component shows why.
 */
@RestController
class ModelsController {

    private final ModelRegistry registry;

    ModelsController(ModelRegistry registry) {
        this.registry = registry;
    }

    record ModelList(String object, List<Model> data) {}

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
            @JsonProperty("max_model_len") Integer maxModelLen) {}

    @GetMapping("/v1/models")
    ModelList list() {
        return new ModelList(
                "list", listed().stream().map(ModelsController::model).toList());
    }

    /** Ids may hold slashes ({@code org/name}), so the id is the rest of the path. */
    @GetMapping("/v1/models/{*id}")
    Model get(@PathVariable String id) {
        String wanted = id.startsWith("/") ? id.substring(1) : id;
        return listed().stream()
                .filter(s -> s.id().equals(wanted))
                .findFirst()
                .map(ModelsController::model)
                .orElseThrow(() -> new ModelNotFoundException(wanted));
    }

    private List<ModelRegistry.Status> listed() {
        return registry.statuses().stream()
                .filter(s -> s.state() != ModelRegistry.State.FAILED)
                .toList();
    }

    private static Model model(ModelRegistry.Status s) {
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
