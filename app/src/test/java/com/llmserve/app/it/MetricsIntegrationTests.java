package com.llmserve.app.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.llmserve.app.GpuStandIn;
import com.llmserve.app.GpuStandInTest;
import com.llmserve.app.PrometheusScrape;
import com.llmserve.app.TestModels;
import com.llmserve.app.models.ModelRegistry;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Scrapes {@code /actuator/prometheus} before and after real requests and checks every meter of
 * the models and the GPU against what the responses say: token counts to the token, one first
 * token per choice, cache hits for a repeated prompt, the stand-in device's readings.
 */
@GpuStandInTest
class MetricsIntegrationTests {

    private static final String TEXT = TestModels.TEXT;
    private static final String GPU = GpuStandIn.DEVICE;
    /** Long enough to fill whole KV blocks (16 tokens each), so asking it again hits the prefix cache. */
    private static final String LONG_PROMPT =
            "Once upon a time there was a little girl named Lily. She loved to play outside in the park "
                    + "with her friends. One day she found a big red ball under a tree.";

    @LocalServerPort
    int port;

    @Autowired
    ModelRegistry registry;

    @Autowired
    JsonMapper json;

    private PrometheusScrape scrape(Http http) {
        HttpResponse<String> r = http.get("/actuator/prometheus");
        assertThat(r.statusCode()).isEqualTo(200);
        return PrometheusScrape.parse(r.body());
    }

    @Test
    void aScrapeAfterRealRequestsHoldsEveryMeterWithPlausibleValues() throws Exception {
        ModelsReady.await(registry);
        Http http = new Http(port);
        PrometheusScrape before = scrape(http);

        JsonNode first = ok(http.post(
                "/v1/completions",
                "{\"model\":\"" + TEXT + "\",\"prompt\":\"" + LONG_PROMPT
                        + "\",\"max_tokens\":6,\"n\":2,\"temperature\":0.8,\"seed\":1,\"ignore_eos\":true}"));
        JsonNode again = ok(http.post(
                "/v1/completions",
                "{\"model\":\"" + TEXT + "\",\"prompt\":\"" + LONG_PROMPT
                        + "\",\"max_tokens\":5,\"temperature\":0,\"ignore_eos\":true}"));
        HttpResponse<String> streamed = http.post(
                "/v1/chat/completions",
                "{\"model\":\"" + TEXT
                        + "\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}],\"max_tokens\":4,\"stream\":true,"
                        + "\"stream_options\":{\"include_usage\":true},\"ignore_eos\":true}");
        assertThat(streamed.statusCode()).isEqualTo(200);
        JsonNode streamUsage = json.readTree(Http.events(streamed.body())
                        .get(Http.events(streamed.body()).size() - 2))
                .get("usage");
        ok(http.post(
                "/v1/embeddings",
                "{\"model\":\"" + TestModels.EMBEDDING + "\",\"input\":[\"one\",\"two\",\"three\"]}"));

        PrometheusScrape after = scrape(http);
        int choices = 2 + 1 + 1;
        int generated = first.get("usage").get("completion_tokens").asInt()
                + again.get("usage").get("completion_tokens").asInt()
                + streamUsage.get("completion_tokens").asInt();
        int prompts = first.get("usage").get("prompt_tokens").asInt()
                + again.get("usage").get("prompt_tokens").asInt()
                + streamUsage.get("prompt_tokens").asInt();
        assertThat(generated).isEqualTo(6 * 2 + 5 + 4);

        // counters: every token the clients got, and the prompt tokens computed (cache hits and the n=2 twin excluded)
        assertThat(delta(before, after, "llm_tokens_generated_tokens_total")).isEqualTo(generated);
        assertThat(delta(before, after, "llm_tokens_prompt_tokens_total"))
                .isPositive()
                .isLessThan(prompts);
        assertThat(again.get("usage")
                        .get("prompt_tokens_details")
                        .get("cached_tokens")
                        .asInt())
                .isPositive();
        assertThat(delta(before, after, "llm_prefix_cache_hits_blocks_total"))
                .isGreaterThanOrEqualTo(again.get("usage")
                                .get("prompt_tokens_details")
                                .get("cached_tokens")
                                .asInt()
                        / 16);
        assertThat(delta(before, after, "llm_prefix_cache_queries_blocks_total"))
                .isGreaterThanOrEqualTo(delta(before, after, "llm_prefix_cache_hits_blocks_total"));
        assertThat(delta(before, after, "llm_embedding_inputs_total")).isEqualTo(3);

        // latency histograms: one first token and one queue time per choice, a gap between each later token
        assertThat(delta(before, after, "llm_request_ttft_seconds_count")).isEqualTo(choices);
        assertThat(delta(before, after, "llm_request_queue_seconds_count")).isEqualTo(choices);
        assertThat(delta(before, after, "llm_request_inter_token_seconds_count"))
                .isEqualTo(generated - choices);
        assertThat(delta(before, after, "llm_request_duration_seconds_count", "outcome", "length"))
                .isEqualTo(choices);
        assertThat(delta(before, after, "llm_request_ttft_seconds_sum"))
                .isPositive()
                .isLessThan(60);
        assertThat(after.value("llm_request_ttft_seconds_bucket", "model", TEXT, "device", GPU, "le", "+Inf"))
                .isEqualTo(after.value("llm_request_ttft_seconds_count", "model", TEXT, "device", GPU));
        assertThat(after.find("llm_request_ttft_seconds_bucket", "model", TEXT, "device", GPU))
                .extracting(s -> s.labels().get("le"))
                .contains("0.1", "0.5", "1.0", "2.5", "10.0");
        assertThat(after.find("llm_request_inter_token_seconds_bucket", "model", TEXT, "device", GPU))
                .extracting(s -> s.labels().get("le"))
                .contains("0.01", "0.05", "0.1");
        assertThat(after.find("llm_request_duration_seconds_bucket", "model", TEXT, "device", GPU, "outcome", "length"))
                .extracting(s -> s.labels().get("le"))
                .contains("1.0", "30.0", "600.0");
        assertThat(after.find("llm_request_queue_seconds_bucket", "model", TEXT, "device", GPU))
                .isNotEmpty();

        // batch sizes: the two choices of n=2 decode together
        assertThat(delta(before, after, "llm_batch_size_sequences_count")).isPositive();
        assertThat(after.value("llm_batch_size_sequences_max", "model", TEXT, "device", GPU))
                .isGreaterThanOrEqualTo(2);
        assertThat(delta(before, after, "llm_batch_tokens_sum")).isGreaterThanOrEqualTo(generated);
        assertThat(delta(before, after, "llm_step_duration_seconds_count")).isPositive();
        assertThat(delta(before, after, "llm_embedding_batch_size_inputs_sum")).isEqualTo(3);

        // gauges of live state: everything finished, the KV pool whole again
        assertThat(after.value("llm_requests_waiting_requests", "model", TEXT, "device", GPU))
                .isZero();
        assertThat(after.value("llm_requests_running_sequences", "model", TEXT, "device", GPU))
                .isZero();
        assertThat(after.value("llm_kv_blocks_total_blocks", "model", TEXT, "device", GPU))
                .isEqualTo(127);
        assertThat(after.value("llm_kv_blocks_used_blocks", "model", TEXT, "device", GPU))
                .isZero();
        assertThat(after.value("llm_embedding_requests_waiting_requests", "model", TestModels.EMBEDDING, "device", GPU))
                .isZero();
        // the CPU copy has its own series, idle while the GPU serves
        assertThat(after.value("llm_kv_blocks_total_blocks", "model", TEXT, "device", "cpu"))
                .isEqualTo(127);

        // the device, as its fixture reads
        assertThat(after.value("llm_gpu_memory_used_bytes", "device", GPU)).isEqualTo(GpuStandIn.MEMORY.used());
        assertThat(after.value("llm_gpu_memory_total_bytes", "device", GPU)).isEqualTo(GpuStandIn.MEMORY.total());
        assertThat(after.value("llm_gpu_utilization_ratio", "device", GPU)).isCloseTo(0.42, within(1e-9));
        assertThat(after.value("llm_gpu_temperature_celsius", "device", GPU)).isEqualTo(55.0);
        assertThat(after.value("llm_gpu_power_watts", "device", GPU)).isEqualTo(312.5);
        assertThat(after.value("llm_gpu_allocator_memory_used_bytes", "device", GPU))
                .isEqualTo(GpuStandIn.ALLOCATOR.bytesInUse());
        assertThat(after.value("llm_gpu_allocator_memory_cached_bytes", "device", GPU))
                .isEqualTo(GpuStandIn.ALLOCATOR.bytesCached());
        assertThat(after.value("llm_gpu_allocator_driver_allocations_total", "device", GPU))
                .isEqualTo(17);
        assertThat(after.value("llm_gpu_allocator_cache_hits_allocations_total", "device", GPU))
                .isEqualTo(1234);
        assertThat(after.value("llm_gpu_streams_leased_streams", "device", GPU)).isEqualTo(1);
        assertThat(after.value("llm_gpu_streams_capacity_streams", "device", GPU))
                .isEqualTo(8);
        assertThat(after.value("llm_gpu_info", "device", GPU, "name", "Stand-in GPU"))
                .isEqualTo(1);

        // resilience: breaker state, the admission bulkhead, the time limiter's outcomes
        assertThat(after.value("resilience4j_circuitbreaker_state", "name", "gpu-" + TEXT, "state", "closed"))
                .isEqualTo(1);
        assertThat(after.value("resilience4j_circuitbreaker_state", "name", "gpu-" + TEXT, "state", "open"))
                .isZero();
        assertThat(after.value("resilience4j_bulkhead_max_allowed_concurrent_calls", "name", "admission"))
                .isEqualTo(1024);
        assertThat(after.value("resilience4j_bulkhead_available_concurrent_calls", "name", "admission"))
                .isEqualTo(1024);
        assertThat(delta(
                        before,
                        after,
                        "resilience4j_timelimiter_calls_total",
                        "name",
                        "generation",
                        "kind",
                        "successful"))
                .isEqualTo(3);

        // every family of ours is described, and its tags are the few bounded ones
        Set<String> names = after.samples().stream()
                .map(PrometheusScrape.Sample::name)
                .filter(n -> n.startsWith("llm_"))
                .collect(Collectors.toSet());
        assertThat(names).allSatisfy(n -> assertThat(help(after, n)).as(n).isNotBlank());
        assertThat(names.stream()
                        .map(n -> n.replaceAll("_(bucket|count|sum|max)$", ""))
                        .distinct())
                .hasSizeGreaterThanOrEqualTo(30);
        assertThat(after.samples()).filteredOn(s -> s.name().startsWith("llm_")).allSatisfy(s -> assertThat(
                        Set.of("model", "device", "outcome", "le", "name", "state"))
                .containsAll(s.labels().keySet()));

        // the model's state and its queue's capacity, which the chart's alerts divide by
        assertThat(after.value("llm_model_state", "model", TEXT, "state", "ready"))
                .isEqualTo(1);
        assertThat(after.value("llm_model_state", "model", TEXT, "state", "failed"))
                .isZero();
        assertThat(after.value("llm_requests_waiting_capacity_requests", "model", TEXT, "device", GPU))
                .isEqualTo(256);

        // every series the Helm chart's dashboard and alerts ask for is one this service writes
        Set<String> written =
                after.samples().stream().map(PrometheusScrape.Sample::name).collect(Collectors.toSet());
        for (String file : List.of("alerts.yaml", "dashboard.json")) {
            String text = Files.readString(Path.of("..", "helm", "llmserve", "files", file));
            Matcher m = Pattern.compile("\\b(llm|resilience4j)_[a-z0-9_]+").matcher(text);
            Set<String> asked = new java.util.TreeSet<>();
            while (m.find()) {
                asked.add(m.group());
            }
            assertThat(asked).as(file).isNotEmpty();
            assertThat(written).as("series of " + file).containsAll(asked);
        }
    }

    private JsonNode ok(HttpResponse<String> r) {
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return json.readTree(r.body());
    }

    /** How much the sum of a metric's samples with these labels grew. */
    private static double delta(PrometheusScrape before, PrometheusScrape after, String name, String... labels) {
        return sum(after, name, labels) - sum(before, name, labels);
    }

    private static double sum(PrometheusScrape s, String name, String... labels) {
        return s.find(name, labels).stream()
                .mapToDouble(PrometheusScrape.Sample::value)
                .sum();
    }

    /** The description of the family a sample belongs to: its own name, or the name without a histogram's suffix. */
    private static String help(PrometheusScrape scrape, String sample) {
        String own = scrape.help(sample);
        return own != null ? own : scrape.help(sample.replaceAll("_(bucket|count|sum)$", ""));
    }
}
