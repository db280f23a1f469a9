package com.llmserve.engine.cli;

import com.llmserve.engine.backend.KvCacheType;
import com.llmserve.engine.backend.cpu.CpuBackend;
import com.llmserve.engine.generate.Generation;
import com.llmserve.engine.generate.GenerationRequest;
import com.llmserve.engine.generate.Generator;
import com.llmserve.engine.gguf.GgufFile;
import com.llmserve.engine.kv.BlockPool;
import com.llmserve.engine.model.Architectures;
import com.llmserve.engine.model.LanguageModel;
import com.llmserve.engine.model.ModelOptions;
import com.llmserve.engine.sampling.SamplingParams;
import com.llmserve.engine.tokenizer.StreamingDecoder;
import com.llmserve.engine.tokenizer.Tokenizer;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * Generates from a GGUF model on the CPU and reports prefill and decode speed; usable for
 * benchmarks. Run {@code Generate --help} for the options.
 */
public final class Generate {

    private static final String USAGE = """
            usage: Generate --model FILE (--prompt TEXT | --prompt-tokens 1,2,3 | --prompt-length N) [options]
              --model FILE          GGUF model (llama, mistral, qwen2, qwen3, qwen3moe, gemma2, gemma3, phi3, gpt-oss)
              --prompt TEXT         text, tokenized with the model's tokenizer (BOS as the model asks;
                                    control tokens written as text are recognised)
              --prompt-tokens IDS   comma-separated prompt token ids (BOS included if wanted)
              --prompt-length N     a synthetic prompt of N tokens (BOS, then ids counting up), for benchmarks
              -n, --max-tokens N    tokens to generate (default 128)
              --ignore-eos          keep generating past end-of-generation tokens
              --threads N           CPU threads (default: all processors)
              --batch-tokens N      tokens per forward pass chunk (default 512)
              --ctx N               context length limit (default: the model's)
              --cache-type T        KV cache type: f16 (default) or q8_0
              --temperature T       0 for greedy (default 0)
              --top-k K, --top-p P, --min-p P, --seed S
              --repeat N            run N times (the first warms the JIT up) and report each run
            """;

    private static final int KV_BLOCK = 16;

    private Generate() {}

    public static void main(String[] args) throws IOException {
        try {
            System.exit(run(Options.parse(args), System.out));
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            System.err.print(USAGE);
            System.exit(2);
        }
    }

    static int run(Options o, PrintStream out) throws IOException {
        if (o.help) {
            out.print(USAGE);
            return 0;
        }
        long loadStart = System.nanoTime();
        try (GgufFile file = GgufFile.open(o.model);
                CpuBackend backend = new CpuBackend(o.threads);
                LanguageModel model = Architectures.loadLanguageModel(
                        file, backend, new ModelOptions(o.batchTokens, o.ctx, o.kvCacheType))) {
            out.printf(
                    "model: %s (%s, %.1f MiB) on %s, loaded in %d ms%n",
                    o.model, model, file.fileSize() / 1048576.0, backend, (System.nanoTime() - loadStart) / 1_000_000);
            Tokenizer tokenizer = Tokenizer.fromGguf(file.metadata());
            int[] prompt = o.prompt != null
                    ? tokenizer.encode(o.prompt, tokenizer.addsBos(), true)
                    : o.promptTokens != null
                            ? o.promptTokens
                            : syntheticPrompt(tokenizer, model.vocabSize(), o.promptLength);
            Set<Integer> stop = new HashSet<>();
            if (!o.ignoreEos) {
                for (int t = 0; t < tokenizer.vocabSize(); t++) {
                    if (tokenizer.isEndOfGeneration(t)) {
                        stop.add(t);
                    }
                }
            }
            SamplingParams sampling = SamplingParams.GREEDY
                    .withTemperature(o.temperature)
                    .withTopK(o.topK)
                    .withTopP(o.topP)
                    .withMinP(o.minP);
            if (o.seed != null) {
                sampling = sampling.withSeed(o.seed);
            }
            GenerationRequest request = new GenerationRequest(prompt, o.maxTokens, sampling, stop);
            // a KV cache for this one sequence, not for the model's whole context
            long tokens = Math.min(model.contextLength(), (long) prompt.length + o.maxTokens);
            BlockPool pool = new BlockPool(1 + (int) ((tokens + KV_BLOCK - 1) / KV_BLOCK), KV_BLOCK);
            try (Generator generator = new Generator(model, pool)) {
                for (int run = 1; run <= o.repeat; run++) {
                    StreamingDecoder text = tokenizer.streamingDecoder();
                    boolean show = o.prompt != null && run == o.repeat;
                    if (show) {
                        out.print(o.prompt);
                    }
                    Generation g = generator.generate(request, t -> {
                        if (show) {
                            out.print(text.next(t));
                            out.flush();
                        }
                    });
                    if (show) {
                        out.println(text.finish());
                    }
                    out.printf(
                            "run %d: prefill %d tokens in %.1f ms = %.2f tok/s; decode %d tokens in %.1f ms = %.2f tok/s (%s)%n",
                            run,
                            g.promptTokens(),
                            g.prefillNanos() / 1e6,
                            g.prefillTokensPerSecond(),
                            Math.max(0, g.tokens().length - 1),
                            g.decodeNanos() / 1e6,
                            g.decodeTokensPerSecond(),
                            g.finish());
                    if (run == o.repeat) {
                        out.println("tokens: " + Arrays.toString(g.tokens()));
                    }
                }
            }
            out.printf("resident memory: %s (model file %.1f MiB)%n", residentMemory(), file.fileSize() / 1048576.0);
        }
        return 0;
    }

    /** BOS (when the model uses one) then ids counting up from 100, wrapping inside the vocabulary. */
    static int[] syntheticPrompt(Tokenizer tokenizer, int vocab, int length) {
        int[] p = new int[length];
        int start = 0;
        if (tokenizer.addsBos() && tokenizer.bos().isPresent() && length > 0) {
            p[0] = tokenizer.bos().getAsInt();
            start = 1;
        }
        for (int i = start; i < length; i++) {
            p[i] = 100 + (i * 7) % Math.max(1, vocab - 100);
        }
        return p;
    }

    private static String residentMemory() throws IOException {
        Path status = Path.of("/proc/self/status");
        if (!Files.exists(status)) {
            return "unknown";
        }
        return Files.readAllLines(status).stream()
                .filter(l -> l.startsWith("VmRSS:"))
                .map(l -> l.substring(6).trim())
                .findFirst()
                .orElse("unknown");
    }

    static final class Options {
        Path model;
        String prompt;
        int[] promptTokens;
        int promptLength = 128;
        int maxTokens = 128;
        boolean ignoreEos;
        int threads = Runtime.getRuntime().availableProcessors();
        int batchTokens = 512;
        int ctx;
        KvCacheType kvCacheType = KvCacheType.F16;
        float temperature;
        int topK;
        float topP = 1f;
        float minP;
        Long seed;
        int repeat = 1;
        boolean help;

        static Options parse(String[] args) {
            Options o = new Options();
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                switch (a) {
                    case "--help", "-h" -> o.help = true;
                    case "--model", "-m" -> o.model = Path.of(value(args, ++i, a));
                    case "--prompt", "-p" -> o.prompt = value(args, ++i, a);
                    case "--prompt-tokens" ->
                        o.promptTokens = Arrays.stream(value(args, ++i, a).split(","))
                                .map(String::trim)
                                .filter(s -> !s.isEmpty())
                                .mapToInt(s -> number(s, a))
                                .toArray();
                    case "--prompt-length" -> o.promptLength = positive(value(args, ++i, a), a);
                    case "--max-tokens", "-n" -> o.maxTokens = number(value(args, ++i, a), a);
                    case "--ignore-eos" -> o.ignoreEos = true;
                    case "--threads", "-t" -> o.threads = positive(value(args, ++i, a), a);
                    case "--batch-tokens" -> o.batchTokens = positive(value(args, ++i, a), a);
                    case "--ctx" -> o.ctx = number(value(args, ++i, a), a);
                    case "--cache-type" -> o.kvCacheType = KvCacheType.parse(value(args, ++i, a));
                    case "--temperature" -> o.temperature = Float.parseFloat(value(args, ++i, a));
                    case "--top-k" -> o.topK = number(value(args, ++i, a), a);
                    case "--top-p" -> o.topP = Float.parseFloat(value(args, ++i, a));
                    case "--min-p" -> o.minP = Float.parseFloat(value(args, ++i, a));
                    case "--seed" -> o.seed = Long.parseLong(value(args, ++i, a));
                    case "--repeat" -> o.repeat = positive(value(args, ++i, a), a);
                    default -> throw new IllegalArgumentException("unknown option " + a);
                }
            }
            if (!o.help && o.model == null) {
                throw new IllegalArgumentException("--model is required");
            }
            if (o.promptTokens != null && o.promptTokens.length == 0) {
                throw new IllegalArgumentException("--prompt-tokens is empty");
            }
            return o;
        }

        private static String value(String[] args, int i, String option) {
            if (i >= args.length) {
                throw new IllegalArgumentException(option + " needs a value");
            }
            return args[i];
        }

        private static int number(String s, String option) {
            try {
                return Integer.parseInt(s);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(option + ": '" + s + "' is not a number");
            }
        }

        private static int positive(String s, String option) {
            int n = number(s, option);
            if (n <= 0) {
                throw new IllegalArgumentException(option + " must be positive");
            }
            return n;
        }
    }
}
