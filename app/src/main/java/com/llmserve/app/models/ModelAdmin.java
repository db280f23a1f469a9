package com.llmserve.app.models;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * What the admin endpoints do: add the model of a file, remove a model. A file is named by its
 * path, relative to the models folder or absolute; unless {@code llmserve.admin.allow-any-path} is
 * on, it must lie in that folder (after {@code ..} is resolved), so that a caller with an API key
 * cannot make the service open whatever file it can read.
 */
public final class ModelAdmin {

    private final ModelCatalog catalog;
    private final ModelRegistry registry;
    private final boolean anyPath;

    ModelAdmin(ModelCatalog catalog, ModelRegistry registry, boolean anyPath) {
        this.catalog = catalog;
        this.registry = registry;
        this.anyPath = anyPath;
    }

    /** Options of a model added through the admin endpoint. */
    public record Options(int contextSize, int kvBlocks) {}

    /**
     * Serves the model of {@code file} as {@code id} (by default its file name without
     * {@code .gguf}): listed as loading at once, loaded in the background.
     *
     * @throws UnservableModelException when the file is outside the folder, missing or cannot be served
     * @throws ModelConflictException   when a model has this id already
     */
    public ModelRegistry.Status add(String file, String id, Options options) {
        Path folder = catalog.folder();
        Path path;
        try {
            path = folder.resolve(file).normalize();
        } catch (InvalidPathException e) {
            // a NUL character: no file of any folder has that name
            throw new UnservableModelException(folder, null, "'" + file + "' is no valid path: " + e.getReason());
        }
        if (!anyPath && !path.startsWith(folder)) {
            throw new UnservableModelException(
                    path,
                    null,
                    "'" + file + "' is outside the models folder " + folder
                            + " (llmserve.admin.allow-any-path allows any path)");
        }
        if (!Files.isRegularFile(path)) {
            throw new UnservableModelException(path, null, "the file '" + file + "' does not exist");
        }
        String modelId = id == null ? ModelCatalog.idOf(path) : id;
        ServingProperties.ModelSpec spec = new ServingProperties.ModelSpec(
                modelId, path.toString(), null, null, options.contextSize(), options.kvBlocks(), null, null, null, 1);
        return registry.add(catalog.plan(path, modelId, spec));
    }

    /**
     * Takes the model out of service; it closes once no request uses it.
     *
     * @throws ModelNotFoundException when no model has this id
     */
    public void remove(String id) {
        registry.remove(id);
    }
}
