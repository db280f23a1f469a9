package com.llmserve.app.models;

import com.llmserve.engine.backend.BackendChoice;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.model.Architectures;
import com.llmserve.engine.model.ModelKind;
import com.llmserve.engine.model.UnsupportedArchitectureException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides what to serve from the configuration and the models folder, reading only GGUF headers.
 * Runs at startup, before the server listens, so that a wrong configuration stops the service
 * with a clear message instead of leaving it half up.
 */
final class ModelCatalog {

    private static final Logger LOG = LoggerFactory.getLogger(ModelCatalog.class);
    private static final String SUFFIX = ".gguf";

    private ModelCatalog() {}

    /**
     * The models to serve: configured ones first, then the folder's files in name order.
     *
     * @throws IllegalStateException for a configured model that cannot be served (missing file,
     *                               unreadable header, duplicate id, unavailable backend)
     */
    static List<ModelPlan> plan(ServingProperties properties, BackendProvider backends) {
        Map<String, ModelPlan> byId = new LinkedHashMap<>();
        List<Path> configuredFiles = new ArrayList<>();
        for (ServingProperties.ModelSpec spec : properties.models()) {
            Path path = spec.file().toAbsolutePath().normalize();
            String id = spec.id() != null && !spec.id().isBlank() ? spec.id().strip() : idOf(path);
            if (byId.containsKey(id)) {
                throw new IllegalStateException("llmserve.models: the id '" + id + "' is used twice");
            }
            if (!Files.isRegularFile(path)) {
                throw new IllegalStateException(
                        "llmserve.models: the file of model '" + id + "' does not exist: " + path);
            }
            Header header = header(path);
            if (header.problem() != null) {
                throw new IllegalStateException(
                        "llmserve.models: model '" + id + "' cannot be served: " + header.problem());
            }
            if (spec.kind() != null && spec.kind() != header.kind()) {
                throw new IllegalStateException("llmserve.models: model '" + id + "' is a "
                        + header.kind().name().toLowerCase(Locale.ROOT) + " model (" + header.architecture()
                        + "), but its kind is set to " + spec.kind().name().toLowerCase(Locale.ROOT));
            }
            BackendChoice backend = spec.backend() != null ? spec.backend() : properties.backend();
            backends.check(backend, id);
            byId.put(
                    id, new ModelPlan(id, path, header.kind(), header.architecture(), backend, size(path), true, spec));
            configuredFiles.add(realPath(path));
        }
        if (properties.scanModelsDir()) {
            scan(properties, backends, byId, configuredFiles);
        }
        return List.copyOf(byId.values());
    }

    private static void scan(
            ServingProperties properties,
            BackendProvider backends,
            Map<String, ModelPlan> byId,
            List<Path> configuredFiles) {
        Path dir = properties.modelsDirectory().toAbsolutePath().normalize();
        if (!backends.available(properties.backend())) {
            throw new IllegalStateException(
                    "llmserve.backend is " + properties.backend().name().toLowerCase(Locale.ROOT) + " for the files of "
                            + dir + ": no GPU backend available");
        }
        if (!Files.isDirectory(dir)) {
            LOG.warn("Models folder {} does not exist; serving only the configured models (set MODELS_DIR)", dir);
            return;
        }
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
            for (Path p : stream) {
                if (p.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(SUFFIX) && Files.isRegularFile(p)) {
                    files.add(p);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the models folder " + dir, e);
        }
        files.sort(null);
        LOG.info("Models folder {}: {} GGUF files", dir, files.size());
        for (Path path : files) {
            String id = idOf(path);
            if (configuredFiles.contains(realPath(path))) {
                continue; // served under its configured id
            }
            if (byId.containsKey(id)) {
                LOG.warn("Skipping {}: the id '{}' is taken by a configured model", path, id);
                continue;
            }
            Header header = header(path);
            if (header.problem() != null) {
                LOG.warn("Skipping {}: {}", path, header.problem());
                continue;
            }
            byId.put(
                    id,
                    new ModelPlan(
                            id,
                            path,
                            header.kind(),
                            header.architecture(),
                            properties.backend(),
                            size(path),
                            false,
                            null));
        }
    }

    /** The file name without {@code .gguf}, as Ollama names the files of its folder. */
    static String idOf(Path path) {
        String name = path.getFileName().toString();
        return name.toLowerCase(Locale.ROOT).endsWith(SUFFIX)
                ? name.substring(0, name.length() - SUFFIX.length())
                : name;
    }

    /** What a file's header says, or why it cannot be served. */
    private record Header(String architecture, ModelKind kind, String problem) {}

    private static Header header(Path path) {
        try (GgufFile file = GgufFile.open(path)) {
            String architecture =
                    file.metadata().findString("general.architecture").orElse("(none)");
            return new Header(architecture, Architectures.kindOf(file), null);
        } catch (UnsupportedArchitectureException e) {
            return new Header(null, null, e.getMessage());
        } catch (IOException | RuntimeException e) {
            LOG.debug("Cannot read the GGUF header of {}", path, e);
            return new Header(null, null, "not a readable GGUF file (" + e.getMessage() + ")");
        }
    }

    private static long size(Path path) {
        try {
            return Files.size(path);
        } catch (IOException e) {
            return -1;
        }
    }

    private static Path realPath(Path path) {
        try {
            return path.toRealPath();
        } catch (IOException e) {
            return path.toAbsolutePath().normalize();
        }
    }
}
