package com.llmserve.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.openshift.api.model.monitoring.v1.PrometheusRule;
import io.fabric8.openshift.api.model.monitoring.v1.Rule;
import io.fabric8.openshift.api.model.monitoring.v1.ServiceMonitor;
import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Renders the chart with the Helm library for the AMD (default), NVIDIA and CPU value sets,
 * decodes every document as a Kubernetes object, strictly (a field the API does not know fails),
 * and checks what an operator relies on.
 */
class ChartTests {

    private static final Path CHART =
            Path.of(System.getProperty("llmserve.chart.dir", "llmserve")).toAbsolutePath();
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @Test
    void theChartLintsCleanInStrictMode() {
        LintResult lint = new Helm(CHART).lint().strict().call();
        assertThat(lint.isFailed()).as(String.join("\n", lint.getMessages())).isFalse();
    }

    /**
     * The alerting rules render from the values and pass promtool: its syntax check, and its unit
     * tests (src/test/resources/alerts-tests.yaml), in which each alert fires for the series in
     * trouble and not for the others.
     */
    @Test
    void theAlertsRenderFromTheValuesAndPassPromtoolsChecksAndUnitTests(@TempDir Path dir) throws Exception {
        PrometheusRule rule = one(render("amd-values.yaml"), PrometheusRule.class);
        List<Rule> rules = rule.getSpec().getGroups().getFirst().getRules();
        assertThat(rules)
                .extracting(Rule::getAlert)
                .containsExactly(
                        "LlmserveQueueSaturated",
                        "LlmserveTimeToFirstTokenHigh",
                        "LlmserveInterTokenLatencyHigh",
                        "LlmserveGpuBreakerOpen",
                        "LlmserveGpuMemoryNearlyFull",
                        "LlmserveModelLoadFailed");
        assertThat(rules.getFirst().getExpr().getStrVal()).endsWith("> 0.8");
        assertThat(rules.getFirst().getAnnotations().get("summary")).contains("{{ $labels.model }}");

        Path alerts = dir.resolve("alerts.yaml");
        Files.writeString(
                alerts, YAML.writeValueAsString(Map.of("groups", rule.getSpec().getGroups())));
        Path tests = dir.resolve("alerts-tests.yaml");
        try (var in = ChartTests.class.getResourceAsStream("/alerts-tests.yaml")) {
            Files.copy(in, tests);
        }
        assertThat(promtool(dir, "check", "rules", alerts.toString())).contains("SUCCESS: 6 rules found");
        assertThat(promtool(dir, "test", "rules", tests.toString())).contains("SUCCESS");
    }

    /** The dashboard is one Grafana document whose every panel asks Prometheus something. */
    @Test
    void theDashboardIsAConfigMapForGrafanasSidecar() throws Exception {
        ConfigMap cm = named(render("amd-values.yaml"), ConfigMap.class, "llm-llmserve-dashboard");
        assertThat(cm.getMetadata().getLabels()).containsEntry("grafana_dashboard", "1");
        JsonNode dashboard = new ObjectMapper().readTree(cm.getData().get("llmserve.json"));
        assertThat(dashboard.get("uid").asText()).isEqualTo("llmserve");
        int targets = 0;
        for (JsonNode panel : dashboard.get("panels")) {
            if (panel.get("type").asText().equals("row")) {
                continue;
            }
            assertThat(panel.get("targets")).as(panel.get("title").asText()).isNotEmpty();
            for (JsonNode target : panel.get("targets")) {
                assertThat(target.get("expr").asText()).containsAnyOf("llm_", "resilience4j_");
                targets++;
            }
        }
        assertThat(targets).isGreaterThan(20);
        assertThat(render("cpu-values.yaml"))
                .as("off unless asked for")
                .noneMatch(d ->
                        d instanceof PrometheusRule || d.getMetadata().getName().endsWith("-dashboard"));
    }

    /** promtool's output; fails the test when it is not installed (scripts/install-deps.sh installs it) or fails. */
    private static String promtool(Path dir, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("promtool"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.waitFor())
                .as("promtool " + String.join(" ", args) + ":\n" + out)
                .isZero();
        return out;
    }

    /** preStop lets the endpoints drop the pod, the service drains, and the grace period covers both. */
    @Test
    void shutdownWaitsForTheEndpointsThenDrainsWithinTheGracePeriod() {
        PodSpec pod = one(render("amd-values.yaml"), Deployment.class)
                .getSpec()
                .getTemplate()
                .getSpec();
        Container c = pod.getContainers().getFirst();
        assertThat(c.getLifecycle().getPreStop().getSleep().getSeconds()).isEqualTo(5L);
        assertThat(c.getEnv()).anySatisfy(e -> {
            assertThat(e.getName()).isEqualTo("LLMSERVE_SHUTDOWN_DRAIN_TIMEOUT");
            assertThat(e.getValue()).isEqualTo("30s");
        });
        assertThat(pod.getTerminationGracePeriodSeconds()).isGreaterThanOrEqualTo(5 + 30 + 15);
        assertThatThrownBy(() -> new Helm(CHART)
                        .template()
                        .withName("llm")
                        .set("shutdown.drainSeconds", 120)
                        .call())
                .hasMessageContaining("terminationGracePeriodSeconds (60) must cover");
    }

    @Test
    void amdIsTheDefaultAndAsksForAnAmdGpuOnAnAmdNode() {
        List<HasMetadata> docs = render("amd-values.yaml");
        Deployment d = one(docs, Deployment.class);
        PodSpec pod = d.getSpec().getTemplate().getSpec();
        Container c = pod.getContainers().getFirst();
        assertThat(d.getSpec().getStrategy().getType()).isEqualTo("Recreate");
        assertThat(c.getResources().getLimits()).containsEntry("amd.com/gpu", new Quantity("1"));
        assertThat(c.getResources().getLimits()).doesNotContainKey("nvidia.com/gpu");
        assertThat(c.getImage()).isEqualTo("llmserve:0.1.0-rocm");
        assertThat(pod.getNodeSelector()).containsEntry("feature.node.kubernetes.io/amd-gpu", "true");
        assertThat(pod.getTolerations()).anySatisfy(t -> assertThat(t.getKey()).isEqualTo("amd.com/gpu"));
        assertRestrictedSecurity(pod);
        assertProbes(c);
        ConfigMap cm = named(docs, ConfigMap.class, "llm-llmserve");
        assertThat(cm.getData().get("models.yaml"))
                .contains("id: \"llama-8b\"")
                .contains("path: \"/models/llama-8b-q4_0.gguf\"")
                .contains("kind: embedding")
                .contains("context-size: 8192");
        assertThat(one(docs, ServiceMonitor.class)
                        .getSpec()
                        .getEndpoints()
                        .getFirst()
                        .getPath())
                .isEqualTo("/actuator/prometheus");
        HorizontalPodAutoscaler hpa = one(docs, HorizontalPodAutoscaler.class);
        assertThat(hpa.getSpec().getMetrics().getFirst().getPods().getMetric().getName())
                .isEqualTo("llm_requests_waiting");
        assertThat(d.getSpec().getReplicas())
                .as("the HPA owns the replica count")
                .isNull();
        assertThat(one(docs, Ingress.class).getMetadata().getAnnotations())
                .containsEntry("nginx.ingress.kubernetes.io/proxy-buffering", "off");
        assertThat(one(docs, PodDisruptionBudget.class)
                        .getSpec()
                        .getMaxUnavailable()
                        .getIntVal())
                .isEqualTo(1);
        assertThat(one(docs, PersistentVolumeClaim.class).getMetadata().getAnnotations())
                .containsEntry("helm.sh/resource-policy", "keep");
        assertThat(pod.getVolumes())
                .anySatisfy(v -> assertThat(v.getPersistentVolumeClaim()).isNotNull());
    }

    @Test
    void nvidiaValuesSwitchResourceImageAndScheduling() {
        List<HasMetadata> docs = render("nvidia-values.yaml");
        PodSpec pod = one(docs, Deployment.class).getSpec().getTemplate().getSpec();
        Container c = pod.getContainers().getFirst();
        assertThat(c.getResources().getLimits())
                .containsEntry("nvidia.com/gpu", new Quantity("1"))
                .doesNotContainKey("amd.com/gpu");
        assertThat(c.getImage()).endsWith("-cuda");
        assertThat(pod.getNodeSelector()).containsEntry("nvidia.com/gpu.present", "true");
        assertThat(pod.getVolumes()).anySatisfy(v -> assertThat(v.getHostPath()).isNotNull());
        assertThat(docs).noneMatch(PersistentVolumeClaim.class::isInstance);
        assertRestrictedSecurity(pod);
        assertProbes(c);
    }

    @Test
    void cpuValuesAskForNoGpuAndRollUpdates() {
        List<HasMetadata> docs = render("cpu-values.yaml");
        Deployment d = one(docs, Deployment.class);
        PodSpec pod = d.getSpec().getTemplate().getSpec();
        Container c = pod.getContainers().getFirst();
        assertThat(c.getResources().getLimits()).doesNotContainKeys("amd.com/gpu", "nvidia.com/gpu");
        assertThat(c.getImage()).endsWith("-cpu");
        assertThat(d.getSpec().getStrategy().getType()).isEqualTo("RollingUpdate");
        assertThat(d.getSpec().getReplicas()).isEqualTo(2);
        assertThat(pod.getNodeSelector()).isNullOrEmpty();
        assertThat(pod.getTolerations()).isNullOrEmpty();
        assertThat(pod.getInitContainers()).singleElement().satisfies(i -> {
            assertThat(i.getImage()).isEqualTo("registry.example.com/models:2026-11");
            assertThat(i.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
        });
        assertThat(pod.getVolumes()).anySatisfy(v -> assertThat(v.getEmptyDir()).isNotNull());
        assertRestrictedSecurity(pod);
        assertProbes(c);
        assertThat(one(docs, Service.class).getSpec().getPorts().getFirst().getPort())
                .isEqualTo(8080);
    }

    /** Models placed on several GPUs: their devices reach the service, and the pod asks for the GPUs they name. */
    @Test
    void modelsOnSeveralGpusAskForTheGpusTheirDevicesName() throws Exception {
        List<HasMetadata> docs = render(
                Path.of(ChartTests.class.getResource("/replicas-values.yaml").toURI()));
        Container c = one(docs, Deployment.class)
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .getFirst();
        // accelerator.count is 2, but qwen3-8b names GPU 3
        assertThat(c.getResources().getLimits()).containsEntry("nvidia.com/gpu", new Quantity("4"));
        assertThat(c.getResources().getRequests()).containsEntry("nvidia.com/gpu", new Quantity("4"));
        Map<?, ?> config = YAML.readValue(
                named(docs, ConfigMap.class, "llm-llmserve").getData().get("models.yaml"), Map.class);
        List<?> models = (List<?>) ((Map<?, ?>) config.get("llmserve")).get("models");
        assertThat(models.stream()
                        .<Object>map(m -> ((Map<?, ?>) m).get("devices"))
                        .toList())
                .containsExactly("all", List.of(0, 3));
    }

    /**
     * Models split over GPUs: their tensorParallelSize reaches the service, and the pod asks for the
     * GPUs the largest needs (llama-70b names no devices: GPUs 0 to 3).
     */
    @Test
    void modelsSplitOverGpusAskForTheGpusTheirSizeSpans() throws Exception {
        List<HasMetadata> docs = render(Path.of(
                ChartTests.class.getResource("/tensor-parallel-values.yaml").toURI()));
        Container c = one(docs, Deployment.class)
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .getFirst();
        assertThat(c.getResources().getLimits()).containsEntry("nvidia.com/gpu", new Quantity("4"));
        assertThat(c.getResources().getRequests()).containsEntry("nvidia.com/gpu", new Quantity("4"));
        Map<?, ?> config = YAML.readValue(
                named(docs, ConfigMap.class, "llm-llmserve").getData().get("models.yaml"), Map.class);
        List<?> models = (List<?>) ((Map<?, ?>) config.get("llmserve")).get("models");
        assertThat(models.stream()
                        .<Object>map(m -> ((Map<?, ?>) m).get("tensor-parallel-size"))
                        .toList())
                .containsExactly(4, 2, null);
    }

    /** devices all with a tensorParallelSize: at least one group, and the pod's GPUs must cut into groups. */
    @Test
    void devicesAllWithATensorParallelSizeAsksForWholeGroups() {
        assertThat(gpusAsked(tensorParallel(2, "all"), "accelerator.count", 1)).isEqualTo("2");
        assertThat(gpusAsked(tensorParallel(2, "all"), "accelerator.count", 4)).isEqualTo("4");
        assertThatThrownBy(() -> gpusAsked(tensorParallel(2, "all"), "accelerator.count", 3))
                .hasMessageContaining("model big: devices all gives the pod's 3 GPU(s), which do not cut into"
                        + " replicas of tensorParallelSize 2");
        assertThatThrownBy(() -> gpusAsked(tensorParallel(2, 0, 1, 2)))
                .hasMessageContaining("model big: devices [0 1 2] name 3 GPU(s), which do not cut into"
                        + " replicas of tensorParallelSize 2");
        assertThat(gpusAsked(tensorParallel(2, 2, 3)))
                .as("the highest index named")
                .isEqualTo("4");
    }

    /** One model split over {@code size} GPUs a replica, on {@code devices}: {@code "all"} or GPU indexes. */
    private static Map<String, Object> tensorParallel(int size, Object... devices) {
        Map<String, Object> values = new java.util.LinkedHashMap<>(Map.of(
                "accelerator.type", "nvidia",
                "models[0].id", "big",
                "models[0].file", "big.gguf",
                "models[0].tensorParallelSize", size));
        if (devices.length == 1 && devices[0] instanceof String all) {
            values.put("models[0].devices", all);
        } else {
            for (int i = 0; i < devices.length; i++) {
                values.put("models[0].devices[" + i + "]", devices[i]);
            }
        }
        return values;
    }

    /** The nvidia.com/gpu limit of the pod rendered with {@code values} and one more key and value. */
    private static String gpusAsked(Map<String, Object> values, Object... more) {
        var template = new Helm(CHART).template().withName("llm");
        values.forEach(template::set);
        for (int i = 0; i < more.length; i += 2) {
            template.set((String) more[i], more[i + 1]);
        }
        String out = template.call();
        return out.lines()
                .filter(l -> l.strip().startsWith("nvidia.com/gpu:"))
                .map(l -> l.substring(l.indexOf(':') + 1).strip())
                .findFirst()
                .orElseThrow();
    }

    @Test
    void theSchemaRejectsBadValues() {
        assertRejected("accelerator.type", "tpu");
        assertRejected("accelerator.count", 0);
        assertRejected("securityContext.readOnlyRootFilesystem", false);
        assertRejected("podSecurityContext.runAsNonRoot", false);
        assertRejected("modelStorage.type", "s3");
        assertRejected("probes.startup.failureThreshold", 0);
        assertRejected("service.port", 70000);
        assertRejected("replicaCount", "two");
        assertRejected("acceleratr.type", "amd");
        assertThatThrownBy(() -> new Helm(CHART)
                        .template()
                        .withName("t")
                        .set("models[0].id", "big")
                        .set("models[0].file", "big.gguf")
                        .set("models[0].tensorParallelSize", 0)
                        .call())
                .hasMessageContaining("values don't meet the specifications of the schema");
    }

    private static void assertRejected(String key, Object value) {
        assertThatThrownBy(() ->
                        new Helm(CHART).template().withName("t").set(key, value).call())
                .as("%s=%s", key, value)
                .hasMessageContaining("values don't meet the specifications of the schema");
    }

    private static void assertRestrictedSecurity(PodSpec pod) {
        assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
        assertThat(pod.getSecurityContext().getRunAsUser()).isPositive();
        assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
        assertThat(pod.getAutomountServiceAccountToken()).isFalse();
        for (Container c : pod.getContainers()) {
            assertThat(c.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
            assertThat(c.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
            assertThat(c.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
            assertThat(c.getSecurityContext().getCapabilities().getAdd()).isNullOrEmpty();
            assertThat(c.getVolumeMounts())
                    .anySatisfy(m -> assertThat(m.getMountPath()).isEqualTo("/tmp"));
        }
    }

    private static void assertProbes(Container c) {
        assertThat(c.getStartupProbe().getHttpGet().getPath()).isEqualTo("/actuator/health/readiness");
        assertThat(c.getStartupProbe().getPeriodSeconds() * c.getStartupProbe().getFailureThreshold())
                .as("the startup probe waits for model load")
                .isGreaterThanOrEqualTo(300);
        assertThat(c.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/actuator/health/readiness");
        assertThat(c.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/actuator/health/liveness");
    }

    private static List<HasMetadata> render(String valuesFile) {
        return render(CHART.resolve("ci").resolve(valuesFile));
    }

    private static List<HasMetadata> render(Path valuesFile) {
        String out = new Helm(CHART)
                .template()
                .withName("llm")
                .withNamespace("serving")
                .withValuesFile(valuesFile)
                .call();
        List<HasMetadata> docs = new ArrayList<>();
        for (String doc : out.split("(?m)^---\\s*$")) {
            if (doc.lines().allMatch(l -> l.isBlank() || l.startsWith("#"))) {
                continue;
            }
            try {
                KubernetesResource r = YAML.readValue(doc, KubernetesResource.class);
                assertThat(r).as("a Kubernetes object:\n" + doc).isInstanceOf(HasMetadata.class);
                List<String> unknown = new ArrayList<>();
                unknownFields(r, ((HasMetadata) r).getKind(), unknown, new IdentityHashMap<>());
                assertThat(unknown)
                        .as("fields the Kubernetes API does not know, in:\n" + doc)
                        .isEmpty();
                docs.add((HasMetadata) r);
            } catch (Exception e) {
                throw new AssertionError("cannot decode rendered document:\n" + doc, e);
            }
        }
        assertThat(docs).isNotEmpty();
        return docs;
    }

    /**
     * The fabric8 model keeps fields it does not know in {@code additionalProperties} instead of
     * failing; strict decoding means every such map in the object graph is empty.
     */
    private static void unknownFields(Object o, String path, List<String> unknown, Map<Object, Boolean> seen)
            throws Exception {
        if (o == null
                || seen.put(o, true) != null
                || o instanceof String
                || o instanceof Number
                || o instanceof Boolean
                || o.getClass().isEnum()
                || o instanceof Quantity) {
            return;
        }
        if (o instanceof Collection<?> items) {
            int i = 0;
            for (Object item : items) {
                unknownFields(item, path + "[" + i++ + "]", unknown, seen);
            }
            return;
        }
        if (o instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> e : map.entrySet()) {
                unknownFields(e.getValue(), path + "." + e.getKey(), unknown, seen);
            }
            return;
        }
        if (!o.getClass().getName().startsWith("io.fabric8.")) {
            return;
        }
        for (PropertyDescriptor p : Introspector.getBeanInfo(o.getClass()).getPropertyDescriptors()) {
            Method getter = p.getReadMethod();
            if (getter == null || getter.getParameterCount() != 0 || p.getName().equals("class")) {
                continue;
            }
            Object value = getter.invoke(o);
            if (p.getName().equals("additionalProperties")) {
                if (value instanceof Map<?, ?> extra && !extra.isEmpty()) {
                    unknown.add(path + ": " + extra.keySet());
                }
            } else {
                unknownFields(value, path + "." + p.getName(), unknown, seen);
            }
        }
    }

    /** The document of {@code type} named {@code name}. */
    private static <T extends HasMetadata> T named(List<HasMetadata> docs, Class<T> type, String name) {
        return docs.stream()
                .filter(type::isInstance)
                .map(type::cast)
                .filter(d -> d.getMetadata().getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + type.getSimpleName() + " named " + name));
    }

    private static <T> T one(List<HasMetadata> docs, Class<T> type) {
        Optional<T> found =
                docs.stream().filter(type::isInstance).map(type::cast).findFirst();
        assertThat(docs.stream().filter(type::isInstance).count())
                .as(type.getSimpleName() + " documents")
                .isEqualTo(1);
        return found.orElseThrow();
    }
}
