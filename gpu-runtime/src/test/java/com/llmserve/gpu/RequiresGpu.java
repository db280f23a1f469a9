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
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag("gpu")
@ExtendWith(RequiresGpu.Extension.class)
public @interface RequiresGpu {

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
                    .computeIfAbsent(DevicePool.class, k -> DevicePool.open(RuntimeChoice.AUTO), DevicePool.class);
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
