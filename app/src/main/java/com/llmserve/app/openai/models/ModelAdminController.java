package com.llmserve.app.openai.models;

import com.llmserve.app.models.ModelAdmin;
import com.llmserve.app.models.ModelRegistry;
import com.llmserve.app.models.UnservableModelException;
import com.llmserve.app.openai.InvalidRequestException;
import java.net.URI;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.UriUtils;
import tools.jackson.databind.JsonNode;

/**
 * {@code POST /admin/models} adds the model of a file and {@code DELETE /admin/models/{id}} removes
 * one, while the service runs; behind the same API keys as {@code /v1}. Both answer 202: a model
 * added loads in the background (503 {@code model_loading} until it is ready, as at startup), and
 * a model removed leaves the catalog at once but closes only after the requests that use it.
 * Served only while {@code llmserve.admin.enabled} is on.
 */
@RestController
@ConditionalOnBooleanProperty(name = "llmserve.admin.enabled", matchIfMissing = true)
class ModelAdminController {

    private final ModelAdmin admin;

    ModelAdminController(ModelAdmin admin) {
        this.admin = admin;
    }

    /** What a removal answers, in the shape of OpenAI's deleted model. */
    record Deleted(String id, String object, boolean deleted) {}

    /** Body: {@link AdminModelRequest}. */
    @PostMapping(path = "/admin/models", consumes = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<ModelsController.Model> add(@RequestBody JsonNode body) {
        AdminModelRequest request = AdminModelRequest.parse(body);
        ModelRegistry.Status added;
        try {
            added = admin.add(request.file(), request.id(), request.options());
        } catch (UnservableModelException e) {
            throw new InvalidRequestException("file", e.getMessage(), "invalid_model_file");
        }
        return ResponseEntity.status(HttpStatus.ACCEPTED)
                .location(URI.create("/v1/models/" + UriUtils.encodePath(added.id(), "UTF-8")))
                .body(ModelsController.Model.of(added));
    }

    /** Ids may hold slashes ({@code org/name}), so the id is the rest of the path. */
    @DeleteMapping("/admin/models/{*id}")
    ResponseEntity<Deleted> remove(@PathVariable String id) {
        String wanted = id.startsWith("/") ? id.substring(1) : id;
        admin.remove(wanted);
        return ResponseEntity.status(HttpStatus.ACCEPTED).body(new Deleted(wanted, "model", true));
    }
}
