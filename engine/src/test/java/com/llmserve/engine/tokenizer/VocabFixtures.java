package com.llmserve.engine.tokenizer;

import com.llmserve.engine.TestData;
import com.llmserve.engine.gguf.GgufFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/** Loads shared vocabularies once per test run and reads llama.cpp's .inp/.out test vectors. */
final class VocabFixtures {

    private static final ConcurrentHashMap<Path, Tokenizer> CACHE = new ConcurrentHashMap<>();

    private VocabFixtures() {}

    static Path vocabDir() {
        return TestData.shared().resolve("tokenizers").resolve("llama.cpp-vocab");
    }

    static Tokenizer load(Path gguf) {
        return CACHE.computeIfAbsent(gguf, p -> {
            try (GgufFile file = GgufFile.open(p)) {
                return Tokenizer.fromGguf(file.metadata());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    static Tokenizer model(String fileName) {
        return load(TestData.model(fileName));
    }

    /** One test string and the ids Hugging Face produced for it. */
    record Vector(int index, String text, int[] expected) {
        @Override
        public String toString() {
            String shown = text.length() > 40 ? text.substring(0, 40) + "…" : text;
            return "#" + index + " " + shown.replace("\n", "\\n").replace("\t", "\\t");
        }
    }

    /**
     * The strings of {@code name.inp} (joined by {@code "\n__ggml_vocab_test__\n"}, which also
     * ends the file) with the matching lines of {@code name.out}.
     */
    static List<Vector> vectors(Path inp) {
        try {
            String input = Files.readString(inp, StandardCharsets.UTF_8);
            Path out = inp.resolveSibling(inp.getFileName().toString().replaceAll("\\.inp$", ".out"));
            List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
            String separator = "\n__ggml_vocab_test__\n";
            if (input.endsWith(separator)) {
                input = input.substring(0, input.length() - separator.length());
            }
            String[] texts = input.split(Pattern.quote(separator), -1);
            if (texts.length != lines.size()) {
                throw new IllegalStateException(
                        inp + ": " + texts.length + " strings but " + lines.size() + " id lines");
            }
            Vector[] vectors = new Vector[texts.length];
            for (int i = 0; i < texts.length; i++) {
                String line = lines.get(i).strip();
                int[] ids = line.isEmpty()
                        ? new int[0]
                        : Arrays.stream(line.split(" "))
                                .mapToInt(Integer::parseInt)
                                .toArray();
                vectors[i] = new Vector(i, texts[i], ids);
            }
            return List.of(vectors);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
