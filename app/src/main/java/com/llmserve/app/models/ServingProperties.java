package com.llmserve.app.models;

import static com.llmserve.app.system.PropertyChecks.atLeast;
import static com.llmserve.app.system.PropertyChecks.notNegative;

import com.llmserve.engine.backend.BackendChoice;
import com.llmserve.engine.backend.KvCacheType;
import com.llmserve.engine.backend.cpu.CpuKernels;
import com.llmserve.engine.model.ModelKind;
import com.llmserve.engine.model.ModelOptions;
import com.llmserve.engine.sched.EmbeddingOptions;
import com.llmserve.engine.sched.EngineOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Which models the service serves and how it runs them. The engine's option records
 * ({@link EngineOptions}, {@link EmbeddingOptions}, {@link ModelOptions}) own the defaults; the
 * nested records turn these properties into them.
 *
 * @param models        models configured one by one; they win over a file of the folder with the same id or path
 * @param modelsDir     folder whose {@code *.gguf} files are all served, each under its file name
 *                      without {@code .gguf}, its kind taken from its architecture ({@code bert} is
 *                      an embedding model); {@code MODELS_DIR} sets it
 * @param scanModelsDir whether to serve the files of {@code modelsDir}; off to serve only {@code models}
 * @param backend       the backend of every model that names none
 * @param cpuThreads    threads of each CPU backend; 0 for every available processor
 * @param warmUp        run one short request through each model before it reports ready, so the
 *                      first client does not pay for JIT compilation and page faults
 * @param engine        scheduling of every completion model
 * @param embedding     batching of every embedding model
 * @param watch         how files added to, changed in or removed from {@code modelsDir} are picked up while the service runs
 * @param admin         the {@code /admin/models} endpoints that add and remove models
 */
@ConfigurationProperties("llmserve")
public record ServingProperties(
        @DefaultValue("../shared/models") String modelsDir,
        @DefaultValue("true") boolean scanModelsDir,
        @DefaultValue List<ModelSpec> models,
        @DefaultValue("auto") BackendChoice backend,
        @DefaultValue("0") int cpuThreads,
        @DefaultValue("true") boolean warmUp,
        @DefaultValue Engine engine,
        @DefaultValue Embedding embedding,
        @DefaultValue Watch watch,
        @DefaultValue Admin admin) {

    public ServingProperties {
        if (cpuThreads < 0) {
            throw new IllegalArgumentException(
                    "llmserve.cpu-threads must be 0 (all processors) or more: " + cpuThreads);
        }
        models = models == null ? List.of() : List.copyOf(models);
    }

    /**
     * Watching the models folder (only while {@code scan-models-dir} is on). A new file is read once
     * its size and modification time have stayed the same for {@code quietPeriod}, so a file still
     * being copied is not read half-written; a removed file's model leaves at once and closes after
     * the requests using it; a file that changed is loaded again.
     *
     * @param enabled     whether to watch
     * @param interval    how often the folder is looked at (file-system events wake the watcher sooner
     *                    where the platform has them; the periodic look catches what events miss, as
     *                    on network file systems)
     * @param quietPeriod how long a file must stay unchanged before it is read
     */
    public record Watch(
            @DefaultValue("true") boolean enabled,
            @DefaultValue("2s") Duration interval,
            @DefaultValue("2s") Duration quietPeriod) {

        public Watch {
            if (interval.toMillis() < 10) {
                throw new IllegalArgumentException("llmserve.watch.interval must be at least 10ms: " + interval);
            }
            notNegative("llmserve.watch.quiet-period", quietPeriod);
        }
    }

    /**
     * The admin endpoints ({@code POST /admin/models}, {@code DELETE /admin/models/{id}}), behind
     * the same API keys as {@code /v1}.
     *
     * @param enabled            whether they are served (off: 404)
     * @param allowAnyPath       whether {@code POST} may load a file outside {@code modelsDir}; off,
     *                           such a path is refused (400), so a caller with a key cannot make the
     *                           service open any file it can read
     */
    public record Admin(
            @DefaultValue("true") boolean enabled,
            @DefaultValue("false") boolean allowAnyPath) {}

    /** {@link #modelsDir} as a path (bound as text: Spring would resolve a {@code Path} as a resource location). */
    public Path modelsDirectory() {
        return Path.of(modelsDir);
    }

    /** Threads a CPU backend gets. */
    public int effectiveCpuThreads() {
        return cpuThreads > 0 ? cpuThreads : Runtime.getRuntime().availableProcessors();
    }

    /**
     * One configured model.
     *
     * @param id               the name clients send as {@code model}; defaults to the file name without {@code .gguf}
     * @param path             the GGUF file
     * @param kind             completion or embedding; by default from the file's architecture
     * @param backend          auto, cpu or gpu; by default {@code llmserve.backend}
     * @param contextSize      the longest sequence served (prompt and output); 0 for the model's own
     * @param kvBlocks         KV cache blocks of this model; 0 for {@code llmserve.engine.kv-blocks}
     * @param chatTemplate     a Jinja2 chat template that replaces the file's
     * @param chatTemplateFile a file holding such a template (the inline one wins)
     * @param devices          the GPUs a GPU model is placed on, one replica on each (their indexes, or
     *                         {@code all}); requests go to the replica with the fewest in flight. Empty:
     *                         one replica, the models spread over the GPUs in turn
     * @param tensorParallelSize the GPUs each replica spans, the model split over them (tensor
     *                         parallelism): {@code devices} is cut into consecutive groups of this many,
     *                         one replica per group, so it must name a multiple of it; without
     *                         {@code devices}, one replica on GPUs 0 to this minus 1. 1 (the default):
     *                         one GPU per replica
     */
    public record ModelSpec(
            String id,
            String path,
            ModelKind kind,
            BackendChoice backend,

            @DefaultValue("" + ModelOptions.DEFAULT_CONTEXT_LENGTH)
            int contextSize,

            @DefaultValue("0") int kvBlocks,
            String chatTemplate,
            String chatTemplateFile,
            List<String> devices,
            @DefaultValue("1") int tensorParallelSize) {

        /** The value of {@code devices} that places a replica on every GPU. */
        public static final String ALL_DEVICES = "all";

        public ModelSpec {
            String model = id == null ? path : id;
            if (path == null || path.isBlank()) {
                throw new IllegalArgumentException(
                        "llmserve.models[].path is required" + (id == null ? "" : " (model " + id + ")"));
            }
            if (contextSize < 0 || kvBlocks < 0) {
                throw new IllegalArgumentException(
                        "llmserve.models[].context-size and kv-blocks must not be negative (model " + model + ")");
            }
            if (tensorParallelSize < 1) {
                throw new IllegalArgumentException("llmserve.models[].tensor-parallel-size must be at least 1"
                        + " (the GPUs each replica spans): " + tensorParallelSize + " (model " + model + ")");
            }
            devices = devices == null ? List.of() : List.copyOf(devices);
            boolean all = devices.contains(ALL_DEVICES);
            if (all && devices.size() > 1) {
                throw new IllegalArgumentException(
                        "llmserve.models[].devices is 'all' or a list of GPU indexes, not both (model " + model + ")");
            }
            if (!all && devices.stream().anyMatch(d -> !d.matches("\\d{1,4}"))) {
                throw new IllegalArgumentException("llmserve.models[].devices must hold GPU indexes (0, 1, ...) or"
                        + " 'all', not " + devices + " (model " + model + ")");
            }
            if (!all && devices.stream().distinct().count() < devices.size()) {
                throw new IllegalArgumentException(
                        "llmserve.models[].devices names a GPU twice: " + devices + " (model " + model + ")");
            }
        }

        /**
         * The GPU indexes of the replicas among {@code gpus} GPUs; empty for the default placement.
         *
         * @throws IllegalStateException when an index is not one of the GPUs
         */
        public List<Integer> gpuDevices(int gpus) {
            if (devices.equals(List.of(ALL_DEVICES))) {
                if (gpus == 0) {
                    throw new IllegalStateException("devices: all, but there is no GPU");
                }
                return java.util.stream.IntStream.range(0, gpus).boxed().toList();
            }
            List<Integer> chosen = devices.stream().map(Integer::valueOf).toList();
            for (int d : chosen) {
                if (d >= gpus) {
                    throw new IllegalStateException(
                            "devices " + devices + " names GPU " + d + ", but the GPUs are " + gpuRange(gpus));
                }
            }
            return chosen;
        }

        private static String gpuRange(int gpus) {
            return gpus == 0 ? "none" : gpus == 1 ? "0 only" : "0 to " + (gpus - 1);
        }

        /** The GGUF file. */
        public Path file() {
            return Path.of(path);
        }
    }

    /**
     * How each completion model's engine loop schedules requests (continuous batching). The
     * longest a generation may take is the {@code generation} time limiter's timeout
     * ({@code resilience4j.timelimiter.instances.generation.timeout-duration}).
     *
     * @param kvBlocks       KV cache blocks per model; with {@code blockSize} this bounds the tokens
     *                       of all running sequences together. 0 (the default): on a GPU, sized from
     *                       its memory ({@code gpuKvShare}); on the CPU, {@value EngineOptions#DEFAULT_KV_BLOCKS}
     * @param blockSize      token slots per KV block
     * @param maxBatchTokens tokens per forward pass, shared by decodes and prefill chunks
     * @param maxRunning     the most sequences decoding at once
     * @param maxWaiting     the most requests waiting for admission; more are answered 429
     * @param prefixCaching  reuse the KV blocks of an earlier prompt with the same prefix
     * @param batchInvariant where a request's results do not depend on what else runs in its batch
     *                       (greedy output equals its solo run): {@code cpu} (the default: CPU models;
     *                       free for the types the native kernels multiply, prompt speed for the others),
     *                       {@code all} (GPU models too, at the cost of their batched speed) or {@code off}
     * @param gpuKvShare     with {@code kvBlocks} 0, the share of a GPU's free memory, once a replica's
     *                       weights are on it, that its KV cache takes, split with the GPU models still
     *                       to load at startup (the rest stays for activations, graphs and BLAS workspace)
     * @param cpuKernels     which kernels CPU models multiply quantized weights with: {@code auto}
     *                       (the native ones where they run: x86-64 Linux with AVX2; else the Java
     *                       ones), {@code java} (the portable Vector API kernels) or {@code native}
     *                       (required: a CPU model refuses to load without them)
     * @param kvCacheType    how the KV cache stores keys and values, as llama.cpp's
     *                       {@code --cache-type-k/-v}: {@code f16} (the default) or {@code q8_0}
     *                       (blocks of 32 values with an f16 scale, 0.53x the memory; CPU models
     *                       only, with heads of a multiple of 32 values: a GPU model, or one with
     *                       other heads, is refused at load)
     * @param overlapSteps   GPU models: issue a greedy step's successor (no grammar, no log-probs,
     *                       nobody waiting for admission) before reading it, its tokens taken on the
     *                       device, so the device does not wait for the host between steps
     */
    public record Engine(
            @DefaultValue("0") int kvBlocks,

            @DefaultValue("" + EngineOptions.DEFAULT_BLOCK_SIZE)
            int blockSize,

            @DefaultValue("" + EngineOptions.DEFAULT_MAX_BATCH_TOKENS)
            int maxBatchTokens,

            @DefaultValue("" + EngineOptions.DEFAULT_MAX_RUNNING)
            int maxRunning,

            @DefaultValue("" + EngineOptions.DEFAULT_MAX_WAITING)
            int maxWaiting,

            @DefaultValue("" + EngineOptions.DEFAULT_PREFIX_CACHING)
            boolean prefixCaching,

            @DefaultValue("cpu") BatchInvariance batchInvariant,

            @DefaultValue("" + DEFAULT_GPU_KV_SHARE) double gpuKvShare,

            @DefaultValue("auto") String cpuKernels,

            @DefaultValue("f16") String kvCacheType,

            @DefaultValue("" + EngineOptions.DEFAULT_OVERLAP_STEPS)
            boolean overlapSteps) {

        /** Most of what is free: activations, graphs and the BLAS workspace keep the rest. */
        public static final double DEFAULT_GPU_KV_SHARE = 0.8;

        /** Which backends compute every row as if it were alone in its batch. */
        public enum BatchInvariance {
            /** None: every backend batches for speed. */
            OFF,
            /** CPU backends (the GPU's batched speed is left alone). */
            CPU,
            /** CPU and GPU backends. */
            ALL;

            public boolean cpu() {
                return this != OFF;
            }

            public boolean gpu() {
                return this == ALL;
            }
        }

        public Engine {
            CpuKernels.parse(cpuKernels); // refuses a value other than auto, java or native at startup
            kvCacheType(kvCacheType);
            if (kvBlocks != 0) {
                atLeast("llmserve.engine.kv-blocks", EngineOptions.MIN_KV_BLOCKS, kvBlocks);
            }
            atLeast("llmserve.engine.block-size", 1, blockSize);
            atLeast("llmserve.engine.max-batch-tokens", 1, maxBatchTokens);
            atLeast("llmserve.engine.max-running", 1, maxRunning);
            atLeast("llmserve.engine.max-waiting", 0, maxWaiting);
            if (!(gpuKvShare > 0 && gpuKvShare < 1)) {
                throw new IllegalArgumentException(
                        "llmserve.engine.gpu-kv-share must lie between 0 and 1 (exclusive): " + gpuKvShare);
            }
        }

        /**
         * The options of one model's engine loop with {@code kvBlocks} blocks.
         *
         * @param defaultTimeout the limit of requests that set none
         */
        public EngineOptions options(int kvBlocks, Duration defaultTimeout) {
            return new EngineOptions(
                    kvBlocks,
                    blockSize,
                    maxBatchTokens,
                    maxRunning,
                    maxWaiting,
                    prefixCaching,
                    defaultTimeout,
                    overlapSteps);
        }

        /**
         * The blocks set for a model: its own {@code kv-blocks}, else {@link #kvBlocks}; 0 when neither
         * is set (sized from the device on a GPU, {@value EngineOptions#DEFAULT_KV_BLOCKS} on the CPU).
         */
        public int configuredKvBlocks(int modelKvBlocks) {
            return modelKvBlocks > 0 ? modelKvBlocks : kvBlocks;
        }

        /** How a completion model is loaded: scratch for one step's tokens, its KV cache's type. */
        public ModelOptions modelOptions(int contextSize) {
            return new ModelOptions(maxBatchTokens, contextSize, kvCache());
        }

        /** {@link #kvCacheType} parsed. */
        public KvCacheType kvCache() {
            return kvCacheType(kvCacheType);
        }

        private static KvCacheType kvCacheType(String value) {
            try {
                return KvCacheType.parse(value);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("llmserve.engine.kv-cache-type must be one of " + KvCacheType.names()
                        + ", not '" + value + "'");
            }
        }
    }

    /**
     * How each embedding model's loop gathers concurrent requests into one forward pass.
     *
     * @param maxBatchTokens tokens per batch; requests join in arrival order until the next would pass it.
     *                       0 (the default) for {@value EmbeddingOptions#DEFAULT_CPU_BATCH_TOKENS} on the CPU and
     *                       {@value EmbeddingOptions#DEFAULT_GPU_BATCH_TOKENS} on a GPU, where a batch of several
     *                       32-input requests costs little more than one
     * @param maxWait        how long the first request of a batch waits for others to join, while requests
     *                       come together (after a batch of one request there is no wait)
     * @param maxWaiting     the most requests waiting; more are answered 429
     */
    public record Embedding(
            @DefaultValue("0") int maxBatchTokens,

            @DefaultValue(EmbeddingOptions.DEFAULT_MAX_WAIT_MILLIS + "ms")
            Duration maxWait,

            @DefaultValue("" + EmbeddingOptions.DEFAULT_MAX_WAITING)
            int maxWaiting) {

        public Embedding {
            atLeast("llmserve.embedding.max-batch-tokens", 0, maxBatchTokens);
            notNegative("llmserve.embedding.max-wait", maxWait);
            atLeast("llmserve.embedding.max-waiting", 0, maxWaiting);
        }

        /** The token budget of a batch on a backend that is, or is not, a GPU. */
        public int batchTokens(boolean accelerated) {
            return maxBatchTokens > 0
                    ? maxBatchTokens
                    : EmbeddingOptions.defaults(accelerated).maxBatchTokens();
        }

        /** The options of one model's loop on a backend that is, or is not, a GPU. */
        public EmbeddingOptions options(boolean accelerated) {
            return new EmbeddingOptions(batchTokens(accelerated), maxWait, maxWaiting);
        }

        /** How an embedding model is loaded: scratch for one batch's tokens. */
        public ModelOptions modelOptions(boolean accelerated, int contextSize) {
            return new ModelOptions(batchTokens(accelerated), contextSize);
        }
    }
}
