package com.llmserve.gpu;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.ArgumentsProvider;
import org.junit.jupiter.params.support.ParameterDeclarations;

/**
 * A test class (or method) that needs a GPU: tagged {@code gpu} (excluded from the default build,
 * run on a GPU host with {@code -Dgroups=gpu} or the device scripts), it opens the device pool once
 * for the class, is skipped with each runtime's status as the reason when no device answers, and
 * closes the pool after the class. Tests (and their constructors and {@code @BeforeAll} methods)
 * take the {@link DevicePool} as a parameter, or run once per {@link Device} with
 * {@code @ArgumentsSource(RequiresGpu.EveryDevice.class)}.
 *
 * <p>The pool opens {@link RuntimeChoice#AUTO} unless the system property {@value #RUNTIME_PROPERTY}
 * (or the environment variable {@value #RUNTIME_ENV}) names a runtime: {@code hip} runs the suites on
 * the HIP backend, e.g. over the hip-on-cuda translation library on an NVIDIA host (docs/amd.md). A
 * named runtime that finds no device fails the tests instead of skipping them, so such a run cannot
 * pass by quietly testing nothing.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag("gpu")
@ExtendWith(RequiresGpu.Extension.class)
public @interface RequiresGpu {

    /** The system property naming the runtime the GPU tests open: auto (default), hip or cuda. */
    String RUNTIME_PROPERTY = "llmserve.test.gpu-runtime";

    /** The environment variable read when {@value #RUNTIME_PROPERTY} is not set. */
    String RUNTIME_ENV = "LLMSERVE_TEST_GPU_RUNTIME";

    /** Which runtime the GPU tests open, and opening it. */
    final class Runtime {

        private Runtime() {}

        /** The runtime the GPU tests open: {@value RequiresGpu#RUNTIME_PROPERTY}, else {@value RequiresGpu#RUNTIME_ENV}, else auto. */
        public static RuntimeChoice runtime() {
            String value = System.getProperty(RUNTIME_PROPERTY, System.getenv(RUNTIME_ENV));
            return value == null || value.isBlank() ? RuntimeChoice.AUTO : RuntimeChoice.parse(value);
        }

        /**
         * Opens the tests' pool with {@link #runtime()}; a named runtime without a device is an error.
         */
        public static DevicePool openPool(DeviceOptions options) {
            RuntimeChoice choice = runtime();
            DevicePool pool = DevicePool.open(choice, options);
            if (pool.isEmpty() && choice != RuntimeChoice.AUTO) {
                pool.close();
                throw new IllegalStateException(RUNTIME_PROPERTY + "="
                        + choice.name().toLowerCase(java.util.Locale.ROOT) + " found no device: " + pool.statuses());
            }
            return pool;
        }
    }

    /** Opens the pool, skips what it is on without a device, and resolves pool parameters. */
    final class Extension implements ExecutionCondition, ParameterResolver {

        private static final ExtensionContext.Namespace NAMESPACE =
                ExtensionContext.Namespace.create(RequiresGpu.class);

        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            DevicePool pool = pool(context);
            return pool.isEmpty()
                    ? ConditionEvaluationResult.disabled("no GPU: " + pool.statuses())
                    : ConditionEvaluationResult.enabled(pool.devices().size() + " GPU(s)");
        }

        /** The pool of the annotated class or method, opened on first use; its store closes it after. */
        static DevicePool pool(ExtensionContext context) {
            return context.getStore(NAMESPACE)
                    .computeIfAbsent(
                            DevicePool.class, k -> Runtime.openPool(DeviceOptions.defaults()), DevicePool.class);
        }

        @Override
        public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
            // pools only: a device parameter is a parameterized test's argument (EveryDevice)
            return parameter.getParameter().getType() == DevicePool.class;
        }

        @Override
        public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
            return pool(context);
        }
    }

    /** Every device of the pool, one argument each. */
    final class EveryDevice implements ArgumentsProvider {
        @Override
        public Stream<? extends Arguments> provideArguments(
                ParameterDeclarations parameters, ExtensionContext context) {
            return Extension.pool(context).devices().stream().map(Arguments::of);
        }
    }
}
