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
 * {@link #startup()} runs before the server listens, so that a wrong configuration stops the
 * service with a clear message instead of leaving it half up; {@link #plan} judges one file later
 * on, for the folder's watcher and the admin endpoint.
 */
final class ModelCatalog {

    private static final Logger LOG = LoggerFactory.getLogger(ModelCatalog.class);
    private static final String SUFFIX = ".gguf";

    private final ServingProperties properties;
    private final BackendProvider backends;

    ModelCatalog(ServingProperties properties, BackendProvider backends) {
        this.properties = properties;
        this.backends = backends;
    }

    /**
     * What startup serves: configured models first, then the folder's files in name order; and the
     * folder's files it does not serve, with why.
     */
    record Startup(List<ModelPlan> plans, List<SkippedFile> skipped) {}

    /**
     * The models to serve at startup.
     *
     * @throws IllegalStateException for a configured model that cannot be served (missing file,
     *                               unreadable header, duplicate id, unavailable backend)
     */
    Startup startup() {
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
            ModelPlan plan;
            try {
                plan = plan(path, id, spec, spec.backend() != null ? spec.backend() : properties.backend(), true);
            } catch (UnservableModelException e) {
                throw new IllegalStateException(
                        "llmserve.models: model '" + id + "' cannot be served: " + e.getMessage(), e);
            }
            if (spec.kind() != null && spec.kind() != plan.kind()) {
                throw new IllegalStateException("llmserve.models: model '" + id + "' is a " + plan.kindName()
                        + " model (" + plan.architecture() + "), but its kind is set to "
                        + spec.kind().name().toLowerCase(Locale.ROOT));
            }
            backends.check(plan.backend(), id);
            byId.put(id, plan);
            configuredFiles.add(realPath(path));
        }
        List<SkippedFile> skipped = new ArrayList<>();
        if (properties.scanModelsDir()) {
            scan(byId, configuredFiles, skipped);
        }
        return new Startup(List.copyOf(byId.values()), List.copyOf(skipped));
    }

    private void scan(Map<String, ModelPlan> byId, List<Path> configuredFiles, List<SkippedFile> skipped) {
        Path dir = folder();
        if (!backends.available(properties.backend())) {
            throw new IllegalStateException(
                    "llmserve.backend is " + properties.backend().name().toLowerCase(Locale.ROOT) + " for the files of "
                            + dir + ": no GPU backend available");
        }
        if (!Files.isDirectory(dir)) {
            LOG.warn("Models folder {} does not exist; serving only the configured models (set MODELS_DIR)", dir);
            return;
        }
        List<Path> files;
        try {
            files = folderFiles();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the models folder " + dir, e);
        }
        LOG.info("Models folder {}: {} GGUF files", dir, files.size());
        for (Path path : files) {
            String id = idOf(path);
            if (configuredFiles.contains(realPath(path))) {
                continue; // served under its configured id
            }
            if (byId.containsKey(id)) {
                skipped.add(idTaken(path, id));
                continue;
            }
            try {
                byId.put(id, plan(path, id, null));
            } catch (UnservableModelException e) {
                LOG.warn("Skipping {}: {}", path, e.getMessage());
                skipped.add(e.skipped(id));
            }
        }
    }

    /** The models folder, absolute. */
    Path folder() {
        return properties.modelsDirectory().toAbsolutePath().normalize();
    }

    /**
     * The {@code *.gguf} files of the folder, in name order. Other names are not model files (a
     * README, a download still under its temporary name such as {@code .gguf.part}), and neither
     * are hidden files, which is how downloaders name the file they are writing.
     *
     * @throws IOException when the folder cannot be listed
     */
    List<Path> folderFiles() throws IOException {
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(folder())) {
            for (Path p : stream) {
                String name = p.getFileName().toString();
                if (!name.startsWith(".") && name.toLowerCase(Locale.ROOT).endsWith(SUFFIX) && Files.isRegularFile(p)) {
                    files.add(p);
                }
            }
        }
        files.sort(null);
        return files;
    }

    /**
     * A plan to serve {@code file} as {@code id} on the default backend, judged by its header.
     *
     * @param spec the model's options, null for the defaults of a folder's file
     * @throws UnservableModelException naming why the file cannot be served
     */
    ModelPlan plan(Path file, String id, ServingProperties.ModelSpec spec) {
        return plan(file.toAbsolutePath().normalize(), id, spec, properties.backend(), false);
    }

    private ModelPlan plan(
            Path path, String id, ServingProperties.ModelSpec spec, BackendChoice backend, boolean configured) {
        FileStamp stamp; // before the header: a file written after this reads as changed
        try {
            stamp = FileStamp.of(path);
        } catch (IOException e) {
            throw new UnservableModelException(path, null, "the file cannot be read (" + e.getMessage() + ")");
        }
        try (GgufFile file = GgufFile.open(path)) {
            String architecture =
                    file.metadata().findString("general.architecture").orElse("(none)");
            ModelKind kind = Architectures.kindOf(file);
            return new ModelPlan(
                    id, path, kind, architecture, backend, stamp.size(), stamp.modified(), configured, spec);
        } catch (UnsupportedArchitectureException e) {
            throw new UnservableModelException(path, stamp, withoutPath(e.getMessage(), path));
        } catch (IOException | RuntimeException e) {
            LOG.debug("Cannot read the GGUF header of {}", path, e);
            throw new UnservableModelException(
                    path, stamp, "not a readable GGUF file (" + withoutPath(e.getMessage(), path) + ")");
        }
    }

    /** The engine's messages start with the file, which a reason given next to its file need not repeat. */
    private static String withoutPath(String message, Path path) {
        String prefix = path + ": ";
        return message != null && message.startsWith(prefix) ? message.substring(prefix.length()) : message;
    }

    /** A file of the folder whose id another model has, logged once here. */
    static SkippedFile idTaken(Path path, String id) {
        String reason = "the id '" + id + "' is taken by another model";
        LOG.warn("Skipping {}: {}", path, reason);
        FileStamp stamp;
        try {
            stamp = FileStamp.of(path);
        } catch (IOException e) {
            stamp = null; // gone already: the watcher forgets it at its next look
        }
        return new SkippedFile(path, id, reason, stamp);
    }

    /** The file name without {@code .gguf}, as Ollama names the files of its folder. */
    static String idOf(Path path) {
        String name = path.getFileName().toString();
        return name.toLowerCase(Locale.ROOT).endsWith(SUFFIX)
                ? name.substring(0, name.length() - SUFFIX.length())
                : name;
    }

    static Path realPath(Path path) {
        try {
            return path.toRealPath();
        } catch (IOException e) {
            return path.toAbsolutePath().normalize();
        }
    }
}
