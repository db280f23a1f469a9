package com.llmserve.engine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/** Locates {@code ../shared} (models, goldens, tokenizers) that CI places beside the checkout. */
public final class TestData {

    private TestData() {}

    public static Path shared() {
        String configured = System.getProperty("llmserve.shared.dir");
        Path p = configured != null ? Path.of(configured) : Path.of("..", "..", "shared");
        if (!Files.isDirectory(p)) {
            throw new IllegalStateException(
                    "test data folder " + p.toAbsolutePath().normalize()
                            + " not found: clone the repository next to ../shared or set -Dllmserve.shared.dir");
        }
        return p.toAbsolutePath().normalize();
    }

    /**
     * A model of {@code ../shared/models}, of this module's own {@code llama-cpp/models} test
     * resources, or one of {@code llama-cpp/synthesized-models.tsv}, written from its recipe on first
     * use.
     */
    public static Path model(String fileName) {
        Path own = own("models");
        if (own != null && Files.exists(own.resolve(fileName))) {
            return own.resolve(fileName);
        }
        Path made = synthesized(fileName);
        return made != null ? made : shared().resolve("models").resolve(fileName);
    }

    /**
     * The model {@code fileName} of {@code synthesized-models.tsv} in {@code target/synthesized-models},
     * written by {@code bench/tools/synth_gguf.py} (with numpy) and checked against the recipe's
     * sha256; null when the recipes are not plain files (test classes in a jar) or name no such file.
     */
    private static synchronized Path synthesized(String fileName) {
        Path recipes = own("synthesized-models.tsv");
        if (recipes == null) {
            return null;
        }
        try {
            for (String line : Files.readAllLines(recipes)) {
                String[] f = line.split("\t");
                if (!line.startsWith("#") && f.length == 3 && f[0].equals(fileName)) {
                    return synthesize(recipes, f[0], f[1], f[2]);
                }
            }
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path synthesize(Path recipes, String fileName, String sha256, String arguments) throws IOException {
        // recipes: <module>/target/test-classes/llama-cpp/synthesized-models.tsv
        Path target = recipes.getParent().getParent().getParent();
        Path made = target.resolve("synthesized-models").resolve(fileName);
        if (Files.exists(made) && sha256(made).equals(sha256)) {
            return made;
        }
        Files.createDirectories(made.getParent());
        Path script = target.getParent().getParent().resolve("bench/tools/synth_gguf.py");
        Path partial = made.resolveSibling(fileName + ".part");
        String failures = "";
        for (String python : List.of("python3", "/usr/bin/python3")) {
            List<String> command = new ArrayList<>(List.of(
                    python,
                    script.toString(),
                    "--tokenizer-from",
                    shared().resolve("models/stories260K.gguf").toString(),
                    "--out",
                    partial.toString()));
            command.addAll(List.of(arguments.split(" ")));
            try {
                Process p =
                        new ProcessBuilder(command).redirectErrorStream(true).start();
                String output = new String(p.getInputStream().readAllBytes());
                if (p.waitFor() == 0 && sha256(partial).equals(sha256)) {
                    return Files.move(partial, made, StandardCopyOption.REPLACE_EXISTING);
                }
                failures += "\n" + python + ": exit " + p.exitValue() + "\n" + output;
            } catch (IOException e) {
                failures += "\n" + python + ": " + e.getMessage();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new IllegalStateException("cannot write " + fileName + " with sha256 " + sha256 + " from " + script
                + " (it needs python3 with numpy: scripts/install-deps.sh installs python3-numpy):" + failures);
    }

    private static String sha256(Path file) throws IOException {
        if (!Files.exists(file)) {
            return "";
        }
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The goldens this module recorded itself ({@code src/test/resources/llama-cpp/golden}, see its
     * README); none when the test classes run from a jar (a device bundle copies them into its
     * {@code shared/golden/generation} instead).
     */
    public static List<Path> ownGoldens() {
        Path own = own("golden");
        if (own == null) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(own)) {
            return files.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A folder of the {@code llama-cpp} test resources, or null unless they are plain files. */
    private static Path own(String folder) {
        URL readme = TestData.class.getResource("/llama-cpp/README.md");
        if (readme == null || !readme.getProtocol().equals("file")) {
            return null;
        }
        try {
            return Path.of(readme.toURI()).resolveSibling(folder);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Every llama-family model in {@code ../shared/models}: each file type, tokenizer and shape the tests cover. */
    public static List<String> llamaFamilyModels() {
        return List.of(
                "stories260K.gguf",
                "stories260K-q8_0.gguf",
                "stories260K-q4_0.gguf",
                "llama-2-tiny-random.gguf",
                "tiny-F16.gguf",
                "tiny-Q8_0.gguf",
                "tiny-Q6_K.gguf",
                "tiny-Q5_K_M.gguf",
                "tiny-Q5_1.gguf",
                "tiny-Q5_0.gguf",
                "tiny-Q4_K_M.gguf",
                "tiny-Q4_1.gguf",
                "tiny-Q4_0.gguf",
                "tiny-Q3_K_M.gguf",
                "tiny-Q2_K.gguf");
    }

    /**
     * The llama.cpp goldens of {@code ../shared/golden/architectures} whose architectures load (the
     * goldens' README keeps them apart from {@code generation/} until then), those present.
     */
    public static List<Path> architectureGoldens() {
        return List.of(
                        "tiny-qwen3-F16.json",
                        "tiny-qwen3-Q8_0.json",
                        "tiny-qwen3moe-F16.json",
                        "tiny-qwen3moe-Q8_0.json",
                        "tiny-gemma3-F16.json",
                        "tiny-gemma3-Q8_0.json")
                .stream()
                .map(name -> golden("architectures").resolve(name))
                .filter(Files::exists) // a device bundle carries some
                .toList();
    }

    /** Every decoder model in {@code ../shared/models}: the llama family's and the newer architectures'. */
    public static List<String> decoderModels() {
        return Stream.concat(llamaFamilyModels().stream(), newerArchitectureModels().stream())
                .toList();
    }

    /**
     * The synthetic tiny models of the architectures beyond llama's own layers (qwen3, qwen3moe,
     * gemma3 in {@code ../shared/models}; gemma2, phi3 and gpt-oss recorded in this module's resources).
     */
    public static List<String> newerArchitectureModels() {
        return List.of(
                "tiny-qwen3-F16.gguf",
                "tiny-qwen3-Q8_0.gguf",
                "tiny-qwen3moe-F16.gguf",
                "tiny-qwen3moe-Q8_0.gguf",
                "tiny-gemma3-F16.gguf",
                "tiny-gemma3-Q8_0.gguf",
                "tiny-gemma2-F16.gguf",
                "tiny-phi3-Q8_0.gguf",
                "tiny-gpt-oss-MXFP4.gguf");
    }

    public static Path golden(String relative) {
        return shared().resolve("golden").resolve(relative);
    }
}
