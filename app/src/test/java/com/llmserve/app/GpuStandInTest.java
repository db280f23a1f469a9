package com.llmserve.app;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;

/**
 * The running service with both test models on the {@link GpuStandIn} GPU, each with a CPU copy,
 * and a breaker quick enough for tests: open after two failures of four calls, half-open after
 * 300 ms, closed after two good probes. Classes with this annotation share one server.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(GpuStandInTest.ModelsFolder.class)
@Import(GpuStandIn.class)
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "llmserve.models-dir=" + TestModels.DIR,
            "llmserve.backend=gpu",
            "llmserve.cpu-threads=1",
            "llmserve.engine.kv-blocks=128",
            "llmserve.failover.cpu-fallback=always",
            "llmserve.gpu.telemetry-interval=100ms",
            "resilience4j.circuitbreaker.configs.gpu.sliding-window-size=4",
            "resilience4j.circuitbreaker.configs.gpu.minimum-number-of-calls=2",
            "resilience4j.circuitbreaker.configs.gpu.wait-duration-in-open-state=300ms",
            "resilience4j.circuitbreaker.configs.gpu.permitted-number-of-calls-in-half-open-state=2"
        })
public @interface GpuStandInTest {

    /** Links the test models into their folder before the context starts. */
    final class ModelsFolder implements BeforeAllCallback {
        @Override
        public void beforeAll(ExtensionContext context) {
            TestModels.folder();
        }
    }
}
