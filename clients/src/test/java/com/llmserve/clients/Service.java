package com.llmserve.clients;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * The service as users run it: its boot jar in a JVM of its own ({@code java -jar}), serving
 * {@link #TEXT} and {@link #EMBEDDING} from {@code ../shared/models}, behind a
 * {@link RecordingProxy}. One is started for the whole test run, on the first test that asks for
 * it, and stopped when the run ends.
 *
 * <p>It runs with {@code llmserve.api.unknown-fields=reject}, the strictest policy, so a field that
 * a client sends by default and the service does not know fails these tests instead of being
 * ignored with a warning.
 */
final class Service implements AutoCloseable {

    /** The text model: stories260K (a tiny llama with random-ish stories, no chat template). */
    static final String TEXT = "stories260K";
    /** The embedding model: all-MiniLM-L6-v2 Q8_0, 384 dimensions. */
    static final String EMBEDDING = "all-MiniLM-L6-v2-q8_0";

    static final int EMBEDDING_DIMENSIONS = 384;

    private static final Duration START_TIMEOUT = Duration.ofMinutes(3);

    private final Process process;
    private final RecordingProxy proxy;
    private final Path log;

    private Service(Process process, RecordingProxy proxy, Path log) {
        this.process = process;
        this.proxy = proxy;
        this.log = log;
    }

    /** Test classes with this annotation get the running {@link Service} as a parameter. */
    @Target(ElementType.TYPE)
    @Retention(RetentionPolicy.RUNTIME)
    @ExtendWith(Service.Extension.class)
    @interface Running {}

    /** The base URL OpenAI clients take: {@code http://host:port/v1}, through the proxy. */
    String baseUrl() {
        return proxy.uri() + "/v1";
    }

    /** The root URL, through the proxy (Spring AI appends {@code /v1} itself). */
    String rootUrl() {
        return proxy.uri().toString();
    }

    RecordingProxy proxy() {
        return proxy;
    }

    /** The service itself, not through the proxy. */
    URI directUri() {
        return proxy.target();
    }

    /** The service's process, to signal it. */
    Process process() {
        return process;
    }

    static Service start() throws IOException, InterruptedException {
        return start("service");
    }

    /**
     * A service of its own, logging to {@code target/<name>.log}, with more command-line
     * properties ({@code --llmserve.shutdown.drain-timeout=2s}).
     */
    static Service start(String name, String... properties) throws IOException, InterruptedException {
        return start(name, null, properties);
    }

    /**
     * A service of its own that also serves the files of {@code modelsDir} and watches it (with
     * no folder, only the two configured models).
     */
    static Service start(String name, Path modelsDir, String... properties) throws IOException, InterruptedException {
        Path jar = Path.of(property("llmserve.app.jar"));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(
                    "the service jar " + jar + " is missing: build with -pl app,clients -am (or the whole project)");
        }
        Path models = Path.of(property("llmserve.shared.dir")).resolve("models");
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of(property("llmserve.jvm.flags").trim().split("\\s+")));
        command.addAll(List.of(
                "-Xmx1g",
                "-jar",
                jar.toString(),
                "--server.port=" + port,
                "--server.address=127.0.0.1",
                modelsDir == null ? "--llmserve.scan-models-dir=false" : "--llmserve.models-dir=" + modelsDir,
                "--llmserve.models[0].id=" + TEXT,
                "--llmserve.models[0].path=" + models.resolve(TEXT + ".gguf"),
                // the model's own window: a prompt with tool signatures takes ~600 of its short tokens
                "--llmserve.models[0].context-size=2048",
                "--llmserve.models[1].id=" + EMBEDDING,
                "--llmserve.models[1].path=" + models.resolve(EMBEDDING + ".gguf"),
                "--llmserve.engine.kv-blocks=256",
                "--llmserve.api.unknown-fields=reject"));
        command.addAll(List.of(properties));
        Path log = Path.of("target", name + ".log").toAbsolutePath();
        Files.createDirectories(log.getParent());
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        Service service;
        try {
            awaitReady(process, URI.create("http://127.0.0.1:" + port), log);
            service = new Service(
                    process,
                    new RecordingProxy(
                            URI.create("http://127.0.0.1:" + port), log.resolveSibling(name + "-requests.log")),
                    log);
        } catch (IOException | InterruptedException | RuntimeException e) {
            process.destroyForcibly();
            throw e;
        }
        // a test JVM that dies without closing its store must not leave the service running
        Runtime.getRuntime().addShutdownHook(new Thread(process::destroyForcibly));
        return service;
    }

    /** Waits until readiness answers 200: every model loaded and warmed up. */
    private static void awaitReady(Process process, URI root, Path log) throws InterruptedException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        try (HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build()) {
            HttpRequest probe = HttpRequest.newBuilder(root.resolve("/actuator/health/readiness"))
                    .timeout(Duration.ofSeconds(5))
                    .build();
            while (System.nanoTime() < deadline) {
                if (!process.isAlive()) {
                    throw new IllegalStateException(
                            "the service exited with " + process.exitValue() + ":\n" + tail(log));
                }
                try {
                    if (http.send(probe, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                        return;
                    }
                } catch (IOException notYet) {
                    // not listening yet
                }
                Thread.sleep(250);
            }
        }
        throw new IllegalStateException("the service was not ready within " + START_TIMEOUT + ":\n" + tail(log));
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String property(String name) {
        String value = System.getProperty(name);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("system property " + name + " is not set (the pom's failsafe sets it)");
        }
        return value;
    }

    @Override
    public void close() {
        proxy.close();
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        System.out.println("service log: " + log + ", requests: " + proxy.log());
    }

    /** Starts one service per test run (kept in the root store, which closes it at the end). */
    static final class Extension implements ParameterResolver {

        private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(Service.class);

        @Override
        public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
            return parameter.getParameter().getType() == Service.class;
        }

        @Override
        public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
            return context.getRoot().getStore(NAMESPACE).computeIfAbsent(Service.class, key -> {
                try {
                    return start();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            });
        }
    }
}
