package com.llmserve.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.testcontainers.DockerClientFactory;

/**
 * The images the end-to-end tests build from {@code docker/} with the docker CLI (it honours
 * .dockerignore, so the context is sources only), on the local base images CI makes
 * ({@code scripts/docker-images.sh}), and remove again. The test classes run two at a time
 * (e2e/pom.xml): builds share the engine, and a prune between a build's stages would take the
 * untagged build stage its last step copies from, so a prune waits until no build runs.
 */
final class Images {

    /** Builds hold it shared, prunes exclusively. */
    private static final ReadWriteLock BUILDS = new ReentrantReadWriteLock();

    static final Path REPO = Path.of(System.getProperty("llmserve.repo.dir", ".."))
            .toAbsolutePath()
            .normalize();

    private Images() {}

    /**
     * Skips the test class without a Docker engine, unless {@code LLMSERVE_E2E_REQUIRED} is set
     * (CI sets it: there the tests must run).
     */
    static void requireDocker() {
        boolean required = System.getenv("LLMSERVE_E2E_REQUIRED") != null;
        boolean docker = DockerClientFactory.instance().isDockerAvailable();
        if (required) {
            assertThat(docker)
                    .as("a Docker engine (LLMSERVE_E2E_REQUIRED is set)")
                    .isTrue();
        }
        assumeTrue(docker, "no Docker engine: the image tests need one (bash scripts/docker-images.sh starts it)");
    }

    /** A tag of its own for one test run's image of {@code variant}. */
    static String tag(String variant) {
        return "llmserve-e2e:" + variant + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** Builds {@code dockerfile} (under docker/) as {@code tag} from the given build and base images. */
    static void build(String dockerfile, String buildImage, String baseImage, String tag)
            throws IOException, InterruptedException {
        build(dockerfile, Map.of("BUILD_IMAGE", buildImage, "BASE_IMAGE", baseImage), tag);
    }

    /** Builds {@code dockerfile} (under docker/) as {@code tag} with the given build arguments. */
    static void build(String dockerfile, Map<String, String> buildArgs, String tag)
            throws IOException, InterruptedException {
        Path log = Files.createTempFile("llmserve-image-", ".log");
        List<String> command =
                new ArrayList<>(List.of("docker", "build", "--network", "host", "-f", "docker/" + dockerfile));
        buildArgs.forEach((name, value) -> command.addAll(List.of("--build-arg", name + "=" + value)));
        command.addAll(List.of("-t", tag, "."));
        boolean done;
        Process p;
        BUILDS.readLock().lock();
        try {
            p = new ProcessBuilder(command)
                    .directory(REPO.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            done = p.waitFor(40, TimeUnit.MINUTES); // two at a time on two cores: the CUDA one took 12 min
            if (!done) {
                p.destroyForcibly().waitFor(1, TimeUnit.MINUTES);
            }
        } finally {
            BUILDS.readLock().unlock();
        }
        if (!done || p.exitValue() != 0) {
            List<String> lines = Files.readAllLines(log);
            throw new AssertionError("docker build of " + dockerfile + " failed:\n"
                    + String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size())));
        }
    }

    /** Removes the image and the dangling layers its build left. */
    static void remove(String tag) throws IOException, InterruptedException {
        if (DockerClientFactory.instance().isDockerAvailable()) {
            new ProcessBuilder("docker", "rmi", "-f", tag)
                    .redirectErrorStream(true)
                    .start()
                    .waitFor(2, TimeUnit.MINUTES);
            BUILDS.writeLock().lock();
            try {
                new ProcessBuilder("docker", "image", "prune", "-f")
                        .redirectErrorStream(true)
                        .start()
                        .waitFor(2, TimeUnit.MINUTES);
            } finally {
                BUILDS.writeLock().unlock();
            }
        }
    }
}
