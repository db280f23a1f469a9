package com.llmserve.app.it;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** A plain HTTP client for driving the running service the way curl would. */
public final class Http {

    private final HttpClient client =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;

    public Http(int port) {
        this.base = "http://localhost:" + port;
    }

    public HttpResponse<String> get(String path) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).GET().build());
    }

    /** POSTs a JSON body. */
    public HttpResponse<String> post(String path, String json) {
        return send(HttpRequest.newBuilder(URI.create(base + path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build());
    }

    public HttpResponse<String> send(HttpRequest request) {
        try {
            return client.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(base + path));
    }

    /** The payloads of the {@code data:} events of an SSE body, {@code [DONE]} included. */
    /** The events of a Responses stream: each {@code event:} name and its {@code data:} JSON text. */
    public record Named(String name, String data) {}

    public static List<Named> namedEvents(String body) {
        List<Named> out = new ArrayList<>();
        for (String event : body.split("\n\n")) {
            String name = null;
            String data = null;
            for (String line : event.split("\n")) {
                if (line.startsWith("event: ")) {
                    name = line.substring("event: ".length());
                } else if (line.startsWith("data: ")) {
                    data = line.substring("data: ".length());
                }
            }
            if (data != null) {
                out.add(new Named(name, data));
            }
        }
        return out;
    }

    public static List<String> events(String body) {
        List<String> out = new ArrayList<>();
        for (String event : body.split("\n\n")) {
            if (event.startsWith("data: ")) {
                out.add(event.substring("data: ".length()));
            }
        }
        return out;
    }
}
