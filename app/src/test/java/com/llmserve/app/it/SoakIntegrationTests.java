package com.llmserve.app.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.llmserve.app.TestModels;
import com.llmserve.app.models.ModelRegistry;
import com.llmserve.app.models.ServedEmbeddingModel;
import com.llmserve.app.models.ServedTextModel;
import com.llmserve.engine.sched.EngineStats;
import com.sun.management.UnixOperatingSystemMXBean;
import java.io.InputStream;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * 10,000 mixed requests over the CPU backend with the tiny test models: plain and streamed
 * completions and chats, n of 3, embeddings, clients that leave mid-stream and clients that give
 * up waiting for a long answer (their time limit, which the service notices as a departure), 32 at
 * a time; then nothing may be left behind: no KV block, sequence or
 * queued request in any engine, and the JVM's platform threads, direct memory and open files back
 * near where they were. The counts and figures are printed.
 */
@ExtendWith(ServiceTest.ModelsFolder.class)
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "llmserve.models-dir=" + TestModels.DIR,
            "llmserve.engine.kv-blocks=128",
            "llmserve.api.keep-alive-interval=200ms",
            "logging.level.com.llmserve=WARN"
        })
class SoakIntegrationTests {

    private static final int REQUESTS = 10_000;
    private static final int CONCURRENCY = 32;
    private static final String T = TestModels.TEXT;

    @LocalServerPort
    int port;

    @Autowired
    ModelRegistry registry;

    @BeforeEach
    void ready() throws InterruptedException {
        ModelsReady.await(registry);
    }

    private enum Kind {
        COMPLETION,
        STREAMED_CHAT,
        N_OF_3,
        EMBEDDINGS,
        LEFT_MID_STREAM,
        TIMED_OUT
    }

    private static Kind kind(int i) {
        return switch (i % 20) {
            case 0, 1, 2, 3, 4, 5, 6 -> Kind.COMPLETION;
            case 7, 8, 9, 10, 11 -> Kind.STREAMED_CHAT;
            case 12, 13 -> Kind.N_OF_3;
            case 14, 15, 16 -> Kind.EMBEDDINGS;
            case 17, 18 -> Kind.LEFT_MID_STREAM;
            default -> Kind.TIMED_OUT;
        };
    }

    @Test
    void tenThousandMixedRequestsLeaveNothingBehind() throws Exception {
        warmUp();
        Figures before = Figures.now();
        Map<String, AtomicInteger> outcomes = new ConcurrentHashMap<>();
        long start = System.nanoTime();
        HttpClient http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            Semaphore slots = new Semaphore(CONCURRENCY);
            List<Future<?>> all = new ArrayList<>(REQUESTS);
            for (int i = 0; i < REQUESTS; i++) {
                Kind kind = kind(i);
                slots.acquire();
                all.add(pool.submit(() -> {
                    try {
                        String outcome = send(http, kind);
                        outcomes.computeIfAbsent(kind + " " + outcome, k -> new AtomicInteger())
                                .incrementAndGet();
                    } finally {
                        slots.release();
                    }
                }));
            }
            for (Future<?> f : all) {
                f.get(5, TimeUnit.MINUTES);
            }
        } finally {
            http.close();
        }
        long elapsed = System.nanoTime() - start;

        // every engine empties: no request queued, no sequence running, no KV block held
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            for (ModelRegistry.Status s : registry.statuses()) {
                if (s.model() instanceof ServedTextModel text) {
                    EngineStats stats = text.stats();
                    assertThat(stats.waitingRequests()).as("waiting").isZero();
                    assertThat(stats.runningSequences()).as("running").isZero();
                    assertThat(stats.kvBlocksUsed()).as("KV blocks").isZero();
                } else if (s.model() instanceof ServedEmbeddingModel embedding) {
                    assertThat(embedding.waitingRequests()).isZero();
                }
            }
        });
        // the JVM's resources come back near where they were (pools keep a few threads and buffers)
        Figures after = await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(500))
                .until(Figures::now, f -> f.settledNear(before));
        System.out.printf(
                "Soak: %d requests in %.1f s (%.0f/s), outcomes %s%n  before %s%n  after  %s%n",
                REQUESTS, elapsed / 1e9, REQUESTS / (elapsed / 1e9), new java.util.TreeMap<>(outcomes), before, after);
        int answered = outcomes.entrySet().stream()
                .filter(e -> e.getKey().endsWith(" 200"))
                .mapToInt(e -> e.getValue().get())
                .sum();
        assertThat(answered).as("most requests are answered").isGreaterThan(REQUESTS / 2);
        assertThat(outcomes.keySet()).noneMatch(k -> k.contains(" 500"));
        assertThat(outcomes.keySet()).as("clients gave up waiting").anyMatch(k -> k.endsWith("client timed out"));
    }

    /** One request; its outcome is its status, or how the client left. */
    private String send(HttpClient http, Kind kind) {
        try {
            if (kind == Kind.LEFT_MID_STREAM) {
                HttpResponse<InputStream> r = http.send(
                        post("/v1/chat/completions", chat(200, true, "")), HttpResponse.BodyHandlers.ofInputStream());
                try (InputStream in = r.body()) {
                    in.readNBytes(64); // the first chunk, then away
                }
                return "left";
            }
            HttpRequest request =
                    switch (kind) {
                        case COMPLETION ->
                            post(
                                    "/v1/completions",
                                    "{\"model\":\"" + T + "\",\"prompt\":\"Once upon a time\",\"max_tokens\":8}");
                        case STREAMED_CHAT -> post("/v1/chat/completions", chat(8, true, ""));
                        case N_OF_3 ->
                            post(
                                    "/v1/completions",
                                    "{\"model\":\"" + T
                                            + "\",\"prompt\":\"Lily\",\"max_tokens\":6,\"n\":3,\"temperature\":1}");
                        case EMBEDDINGS ->
                            post(
                                    "/v1/embeddings",
                                    "{\"model\":\"" + TestModels.EMBEDDING
                                            + "\",\"input\":[\"The weather is lovely\",\"A cat\"]}");
                        // the client gives up waiting; the service must notice it left
                        case TIMED_OUT ->
                            HttpRequest.newBuilder(
                                            post("/v1/chat/completions", chat(1900, false, ",\"ignore_eos\":true")),
                                            (name, value) -> true)
                                    .timeout(Duration.ofMillis(60))
                                    .build();
                        case LEFT_MID_STREAM -> throw new IllegalStateException();
                    };
            return String.valueOf(
                    http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode());
        } catch (java.net.http.HttpTimeoutException e) {
            return "client timed out";
        } catch (java.io.IOException e) {
            return "io " + e.getClass().getSimpleName();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    /** @param more further fields, each after a comma */
    private static String chat(int maxTokens, boolean stream, String more) {
        return "{\"model\":\"" + T + "\",\"messages\":[{\"role\":\"user\",\"content\":\"Tell me a story\"}],"
                + "\"max_tokens\":" + maxTokens + ",\"stream\":" + stream + more + "}";
    }

    private HttpRequest post(String path, String json) {
        return HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build();
    }

    /** A first round of each kind, so pools and caches are in their working state before the baseline. */
    private void warmUp() throws Exception {
        try (HttpClient http =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            for (int i = 0; i < 40; i++) {
                send(http, kind(i));
            }
        }
        Thread.sleep(1000);
    }

    /** The JVM's countable resources. */
    private record Figures(int platformThreads, long directBytes, long openFiles) {

        static Figures now() {
            long direct = ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class).stream()
                    .filter(b -> b.getName().equals("direct"))
                    .mapToLong(BufferPoolMXBean::getMemoryUsed)
                    .sum();
            long files = ManagementFactory.getOperatingSystemMXBean() instanceof UnixOperatingSystemMXBean unix
                    ? unix.getOpenFileDescriptorCount()
                    : -1;
            return new Figures(ManagementFactory.getThreadMXBean().getThreadCount(), direct, files);
        }

        /** Within a small margin of {@code before}: no growth with the number of requests. */
        boolean settledNear(Figures before) {
            return platformThreads <= before.platformThreads + 8
                    && directBytes <= before.directBytes + (8 << 20)
                    && openFiles <= before.openFiles + 16;
        }

        @Override
        public String toString() {
            return platformThreads + " platform threads, " + (directBytes >> 10) + " KiB direct, " + openFiles
                    + " open files";
        }
    }
}
