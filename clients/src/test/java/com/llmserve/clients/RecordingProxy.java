package com.llmserve.clients;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A reverse proxy in front of the service that keeps every request body the clients send and the
 * status it got: the tests read what a client library put on the wire without touching the
 * library. Responses, streams included, are passed through as they come. Each request is also
 * appended to a log file (status, method, path, body), to see what a failing test sent.
 */
final class RecordingProxy implements AutoCloseable {

    /**
     * One request through the proxy.
     *
     * @param body   the request body as JSON, or null when it had none or was not JSON
     * @param status the service's answer
     */
    record Exchange(String method, String path, JsonNode body, int status) {}

    /** Hop-by-hop headers and those java.net.http sets itself. */
    private static final Set<String> NOT_FORWARDED = Set.of(
            "host",
            "connection",
            "content-length",
            "transfer-encoding",
            "expect",
            "upgrade",
            "keep-alive",
            "te",
            "trailer",
            // the service does not compress; keep the bodies as they are
            "accept-encoding");

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final URI target;
    private final HttpServer server;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final HttpClient client =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final List<Exchange> exchanges = new ArrayList<>();

    private final Path log;

    RecordingProxy(URI target, Path log) throws IOException {
        this.target = target;
        this.log = log;
        Files.deleteIfExists(log);
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(executor);
        server.createContext("/", this::forward);
        server.start();
    }

    /** The service's address, behind the proxy. */
    URI target() {
        return target;
    }

    /** The file each request is written to. */
    Path log() {
        return log;
    }

    /** The proxy's address, to give the clients instead of the service's. */
    URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** How many requests have gone through so far: a mark for {@link #since}. */
    synchronized int mark() {
        return exchanges.size();
    }

    /** The requests since {@code mark}, oldest first. */
    synchronized List<Exchange> since(int mark) {
        return List.copyOf(exchanges.subList(mark, exchanges.size()));
    }

    private synchronized void record(Exchange exchange) throws IOException {
        exchanges.add(exchange);
        Files.writeString(
                log,
                exchange.status() + " " + exchange.method() + " " + exchange.path() + " " + exchange.body() + "\n",
                StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
    }

    private void forward(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            HttpRequest.Builder request = HttpRequest.newBuilder(
                            target.resolve(exchange.getRequestURI().toString()))
                    .method(
                            exchange.getRequestMethod(),
                            body.length == 0
                                    ? HttpRequest.BodyPublishers.noBody()
                                    : HttpRequest.BodyPublishers.ofByteArray(body));
            for (Map.Entry<String, List<String>> h :
                    exchange.getRequestHeaders().entrySet()) {
                if (!NOT_FORWARDED.contains(h.getKey().toLowerCase(Locale.ROOT))) {
                    h.getValue().forEach(v -> request.header(h.getKey(), v));
                }
            }
            HttpResponse<InputStream> response;
            try {
                response = client.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(e);
            }
            record(new Exchange(
                    exchange.getRequestMethod(),
                    exchange.getRequestURI().getPath(),
                    json(body),
                    response.statusCode()));
            response.headers().map().forEach((name, values) -> {
                if (!NOT_FORWARDED.contains(name.toLowerCase(Locale.ROOT))) {
                    exchange.getResponseHeaders().put(name, values);
                }
            });
            long length = response.headers().firstValueAsLong("content-length").orElse(-1);
            // 0 is "chunked" for HttpServer, -1 "no body"
            exchange.sendResponseHeaders(response.statusCode(), length == 0 ? -1 : length < 0 ? 0 : length);
            try (InputStream in = response.body();
                    OutputStream out = exchange.getResponseBody()) {
                byte[] buffer = new byte[8192];
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    out.write(buffer, 0, n);
                    // server-sent events go on at once, as the service wrote them
                    out.flush();
                }
            }
        }
    }

    private static JsonNode json(byte[] body) {
        if (body.length == 0) {
            return null;
        }
        try {
            return JSON.readTree(new String(body, StandardCharsets.UTF_8));
        } catch (RuntimeException notJson) {
            return null;
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.close();
        client.close();
    }
}
