package com.llmserve.clients;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * SIGTERM under load, to the service's own process, as Kubernetes stops a pod: every request
 * either ends whole (a stream with its finish reason and {@code [DONE]}, a JSON answer) or is
 * refused before it starts (503 with {@code Retry-After}, or no connection once the port is closed);
 * none is cut mid-answer. The drain limit is 2 s and the generations would run far longer, so they
 * end at the limit with finish reason {@code length}; then the process exits.
 */
class GracefulShutdownIntegrationTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final int TOKENS = 1500;

    private enum Outcome {
        WHOLE,
        ENDED_BY_DRAIN,
        REFUSED,
        CUT
    }

    @Test
    void underLoadEveryRequestEndsWholeOrIsRefusedBeforeItStarts() throws Exception {
        Service service = Service.start("shutdown", "--llmserve.shutdown.drain-timeout=2s");
        URI root = service.directUri();
        HttpClient http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(2))
                .build();
        Map<Outcome, Integer> inFlight = new TreeMap<>();
        Map<Outcome, Integer> late = new TreeMap<>();
        int readiness;
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Outcome>> started = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                started.add(pool.submit(() -> send(http, root, true)));
                started.add(pool.submit(() -> send(http, root, false)));
            }
            Thread.sleep(1500); // every request admitted and generating

            long signalled = System.nanoTime();
            service.process().destroy(); // SIGTERM
            Thread.sleep(300);
            readiness = http.send(
                            HttpRequest.newBuilder(root.resolve("/actuator/health/readiness"))
                                    .build(),
                            HttpResponse.BodyHandlers.discarding())
                    .statusCode();
            AtomicBoolean closed = new AtomicBoolean();
            List<Future<Outcome>> after = new ArrayList<>();
            while (!closed.get() && System.nanoTime() - signalled < TimeUnit.SECONDS.toNanos(20)) {
                Future<Outcome> f = pool.submit(() -> send(http, root, false));
                after.add(f);
                Thread.sleep(100);
                if (f.isDone()
                        && f.get() == Outcome.REFUSED
                        && !service.process().isAlive()) {
                    closed.set(true);
                }
            }
            for (Future<Outcome> f : started) {
                inFlight.merge(f.get(60, TimeUnit.SECONDS), 1, Integer::sum);
            }
            for (Future<Outcome> f : after) {
                late.merge(f.get(60, TimeUnit.SECONDS), 1, Integer::sum);
            }
            assertThat(service.process().waitFor(30, TimeUnit.SECONDS))
                    .as("the process exits")
                    .isTrue();
            System.out.printf(
                    "SIGTERM under load: in flight %s, sent after the signal %s, exit after %d ms%n",
                    inFlight, late, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - signalled));
        } finally {
            service.close();
        }
        assertThat(readiness).as("readiness while draining").isEqualTo(503);
        assertThat(inFlight).doesNotContainKey(Outcome.CUT).doesNotContainKey(Outcome.REFUSED);
        assertThat(inFlight.getOrDefault(Outcome.ENDED_BY_DRAIN, 0))
                .as("generations far longer than the drain limit end at it")
                .isPositive();
        assertThat(late).doesNotContainKey(Outcome.CUT).containsKey(Outcome.REFUSED);
    }

    /** One request and how it ended. */
    private static Outcome send(HttpClient http, URI root, boolean stream) {
        String body = stream
                ? "{\"model\":\"" + Service.TEXT
                        + "\",\"messages\":[{\"role\":\"user\",\"content\":\"Tell me a story\"}]," + "\"max_tokens\":"
                        + TOKENS + ",\"ignore_eos\":true,\"stream\":true}"
                : "{\"model\":\"" + Service.TEXT + "\",\"prompt\":\"Once upon a time\",\"max_tokens\":" + TOKENS
                        + ",\"ignore_eos\":true}";
        HttpRequest request = HttpRequest.newBuilder(root.resolve(stream ? "/v1/chat/completions" : "/v1/completions"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        HttpResponse<String> r;
        try {
            r = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (ConnectException e) {
            return Outcome.REFUSED; // the port is closed: nothing started
        } catch (IOException e) {
            // no status came back: the connection closed before the request was taken, or mid-answer
            return e.getMessage() != null && e.getMessage().contains("header parser received no bytes")
                    ? Outcome.REFUSED
                    : Outcome.CUT;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Outcome.CUT;
        }
        if (r.statusCode() == 503 && r.headers().firstValue("Retry-After").isPresent()) {
            return Outcome.REFUSED;
        }
        if (r.statusCode() != 200) {
            return Outcome.CUT;
        }
        String finish;
        int tokens;
        if (stream) {
            if (!r.body().endsWith("data: [DONE]\n\n")) {
                return Outcome.CUT;
            }
            List<String> chunks =
                    r.body().lines().filter(l -> l.startsWith("data: {")).toList();
            JsonNode last = JSON.readTree(chunks.getLast().substring(6));
            finish = last.at("/choices/0/finish_reason").asString(null);
            tokens = chunks.size() - 2; // the role's chunk and the finish chunk carry no token
        } else {
            JsonNode answer;
            try {
                answer = JSON.readTree(r.body());
            } catch (RuntimeException e) {
                return Outcome.CUT;
            }
            finish = answer.at("/choices/0/finish_reason").asString(null);
            tokens = answer.at("/usage/completion_tokens").asInt();
        }
        if (finish == null) {
            return Outcome.CUT;
        }
        return finish.equals("length") && tokens < TOKENS ? Outcome.ENDED_BY_DRAIN : Outcome.WHOLE;
    }
}
