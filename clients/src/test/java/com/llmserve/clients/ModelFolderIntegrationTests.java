package com.llmserve.clients;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Models without restarts, on the service's jar: a GGUF file copied into its models folder is
 * served once loaded; deleting it while a stream reads from it takes the model out of the list at
 * once, and the stream still ends whole (its finish reason and {@code [DONE]}); then the model is
 * gone. Waits poll with generous limits: nothing here depends on how fast the machine is.
 */
class ModelFolderIntegrationTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Duration LIMIT = Duration.ofMinutes(2);
    private static final String HOT = "hot";
    private static final int TOKENS = 1500;

    @Test
    void aFileCopiedInIsServedAndDeletingItDuringAStreamEndsTheStreamWholeThenTheModelIsGone() throws Exception {
        Path folder = Files.createTempDirectory(Path.of("target"), "hot-models").toAbsolutePath();
        Path shared = Path.of(System.getProperty("llmserve.shared.dir")).resolve("models");
        Service service = Service.start(
                "hot-models", folder, "--llmserve.watch.interval=250ms", "--llmserve.watch.quiet-period=500ms");
        try (HttpClient http = HttpClient.newHttpClient()) {
            URI root = service.directUri();
            assertThat(ids(http, root)).doesNotContain(HOT);

            Files.copy(shared.resolve("stories260K-q8_0.gguf"), folder.resolve(HOT + ".gguf"));
            await("the copied file's model is ready", () -> "ready".equals(status(http, root)));
            HttpResponse<String> completion = post(
                    http,
                    root,
                    "/v1/completions",
                    "{\"model\":\"hot\",\"prompt\":\"Once upon a time\",\"max_tokens\":8}");
            assertThat(completion.statusCode()).as(completion.body()).isEqualTo(200);
            assertThat(JSON.readTree(completion.body()).at("/choices/0/text").asString())
                    .isNotEmpty();

            try (SlowReader stream = SlowReader.open(
                    root,
                    "/v1/completions",
                    "{\"model\":\"hot\",\"prompt\":\"Once upon a time\",\"max_tokens\":" + TOKENS
                            + ",\"ignore_eos\":true,\"stream\":true}")) {
                String first = stream.readUntil("\n\ndata: ");
                assertThat(first).startsWith("HTTP/1.1 200");

                Files.delete(folder.resolve(HOT + ".gguf"));
                await("the model leaves the list while the stream is open", () -> !ids(http, root)
                        .contains(HOT));

                String body = stream.readToEnd();
                assertThat(body).endsWith("data: [DONE]\n\n").doesNotContain("\"error\"");
                List<String> chunks = body.lines()
                        .filter(l -> l.startsWith("data: {"))
                        .map(l -> l.substring(6))
                        .toList();
                JsonNode last = JSON.readTree(chunks.getLast());
                assertThat(last.at("/choices/0/finish_reason").asString()).isEqualTo("length");
            }

            HttpResponse<String> gone =
                    post(http, root, "/v1/completions", "{\"model\":\"hot\",\"prompt\":\"Once\",\"max_tokens\":1}");
            assertThat(gone.statusCode()).isEqualTo(404);
            assertThat(JSON.readTree(gone.body()).at("/error/code").asString()).isEqualTo("model_not_found");
            assertThat(get(http, root, "/v1/models/hot").statusCode()).isEqualTo(404);
            assertThat(ids(http, root)).contains(Service.TEXT);
        } finally {
            service.close();
        }
    }

    /** The ids listed in {@code data} of {@code /v1/models}. */
    private static List<String> ids(HttpClient http, URI root) {
        JsonNode list = JSON.readTree(get(http, root, "/v1/models").body());
        return list.get("data").valueStream().map(m -> m.get("id").asString()).toList();
    }

    private static String status(HttpClient http, URI root) {
        HttpResponse<String> r = get(http, root, "/v1/models/" + HOT);
        return r.statusCode() == 200 ? JSON.readTree(r.body()).get("status").asString() : null;
    }

    private static HttpResponse<String> get(HttpClient http, URI root, String path) {
        return send(http, HttpRequest.newBuilder(root.resolve(path)).build());
    }

    private static HttpResponse<String> post(HttpClient http, URI root, String path, String json) {
        return send(
                http,
                HttpRequest.newBuilder(root.resolve(path))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(json))
                        .build());
    }

    private static HttpResponse<String> send(HttpClient http, HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as(what).isLessThan(deadline);
            Thread.sleep(100);
        }
    }

    /**
     * A streaming request over a socket with a small receive buffer, read only when the test asks:
     * while the test does not read, the server's writes wait, so the request is still in flight. It
     * asks for {@code Connection: close}, so the body ends where the connection does and is read as
     * it is sent (the chunk framing is removed).
     */
    private static final class SlowReader implements AutoCloseable {

        private final Socket socket;
        private final InputStream in;
        private final ByteArrayOutputStream read = new ByteArrayOutputStream();

        private SlowReader(Socket socket) throws IOException {
            this.socket = socket;
            this.in = socket.getInputStream();
        }

        static SlowReader open(URI root, String path, String json) throws IOException {
            Socket socket = new Socket();
            socket.setReceiveBufferSize(4096);
            socket.connect(new InetSocketAddress(root.getHost(), root.getPort()));
            socket.setSoTimeout((int) LIMIT.toMillis());
            byte[] body = json.getBytes(StandardCharsets.UTF_8);
            String head = "POST " + path + " HTTP/1.1\r\nHost: " + root.getHost() + "\r\n"
                    + "Content-Type: application/json\r\nContent-Length: " + body.length + "\r\n"
                    + "Connection: close\r\n\r\n";
            socket.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().write(body);
            socket.getOutputStream().flush();
            return new SlowReader(socket);
        }

        /** Reads until the body holds {@code marker}; returns the response so far. */
        String readUntil(String marker) throws IOException {
            return read(s -> s.contains(marker));
        }

        /** Reads to the end of the connection; returns the whole response. */
        String readToEnd() throws IOException {
            return read(s -> false);
        }

        /**
         * The response read so far, its body without chunk framing. Bytes are read as ISO-8859-1, one
         * character each, so that chunk sizes count characters; the markers and JSON keys are ASCII.
         */
        private String read(Predicate<String> done) throws IOException {
            byte[] buffer = new byte[512];
            while (!done.test(response())) {
                int n = in.read(buffer);
                if (n < 0) {
                    break;
                }
                read.write(buffer, 0, n);
            }
            return response();
        }

        private String response() {
            String raw = read.toString(StandardCharsets.ISO_8859_1);
            int headEnd = raw.indexOf("\r\n\r\n");
            if (headEnd < 0
                    || !raw.substring(0, headEnd).toLowerCase(Locale.ROOT).contains("chunked")) {
                return raw;
            }
            StringBuilder out = new StringBuilder(raw.substring(0, headEnd + 4));
            int at = headEnd + 4;
            while (at < raw.length()) {
                int lineEnd = raw.indexOf("\r\n", at);
                if (lineEnd < 0) {
                    break; // a size line not read in full yet
                }
                int size = Integer.parseInt(raw.substring(at, lineEnd).strip(), 16);
                int start = lineEnd + 2;
                int end = Math.min(raw.length(), start + size);
                out.append(raw, start, end);
                at = end + 2;
                if (size == 0) {
                    break;
                }
            }
            return out.toString();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
