package com.llmserve.gpu.spi;

import com.llmserve.gpu.GpuUnavailableException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One vendor shared library as the binding holder classes see it: loaded by its versioned names,
 * with one downcall handle per exported symbol.
 *
 * <p>Binding never fails: a library that is not installed, or a symbol an older release lacks,
 * yields a handle that throws {@link GpuUnavailableException} when called. So a holder class can be
 * initialised on any machine (the binding checks enumerate its descriptors in CI without any GPU
 * runtime), and backends decide availability by {@link #isLoaded()} and their own probe calls.
 * Every descriptor bound is recorded, which is what the header checks are generated from.
 */
public final class NativeLibrary {

    private static final Linker LINKER = Linker.nativeLinker();

    private final List<String> names;
    private final SymbolLookup lookup;
    private final String loadFailure;
    private final Map<String, FunctionDescriptor> functions = Collections.synchronizedMap(new LinkedHashMap<>());

    private NativeLibrary(List<String> names, SymbolLookup lookup, String loadFailure) {
        this.names = names;
        this.lookup = lookup;
        this.loadFailure = loadFailure;
    }

    /**
     * Loads the first of {@code names} the dynamic linker finds. Versioned names only
     * ({@code libcuda.so.1}): the unversioned ones belong to -dev packages and may be absent or a
     * different ABI. The library stays loaded for the life of the process, as a shared library does.
     */
    public static NativeLibrary load(String... names) {
        StringBuilder failures = new StringBuilder();
        for (String name : names) {
            try {
                return new NativeLibrary(List.of(names), SymbolLookup.libraryLookup(name, Arena.global()), null);
            } catch (IllegalArgumentException e) {
                if (!failures.isEmpty()) failures.append("; ");
                failures.append(name).append(": ").append(e.getMessage());
            }
        }
        return new NativeLibrary(List.of(names), null, failures.toString());
    }

    /**
     * {@code names} preceded by the library path that the system property {@code property}, else
     * the environment variable {@code env}, names, where one is set: for libraries installed off
     * the dynamic linker's path (NCCL in a Python environment's {@code site-packages}, say). A path
     * that does not load is reported with the others and the sonames are still tried.
     */
    public static String[] withOverride(String property, String env, String... names) {
        String path = System.getProperty(property, System.getenv(env));
        if (path == null || path.isBlank()) return names;
        String[] all = new String[names.length + 1];
        all[0] = path.strip();
        System.arraycopy(names, 0, all, 1, names.length);
        return all;
    }

    public boolean isLoaded() {
        return lookup != null;
    }

    /** The names tried, in order, for messages. */
    public List<String> names() {
        return names;
    }

    /** Why none of the names loaded; empty when loaded. */
    public Optional<String> loadFailure() {
        return Optional.ofNullable(loadFailure);
    }

    public boolean hasSymbol(String symbol) {
        return lookup != null && lookup.find(symbol).isPresent();
    }

    /** A downcall handle for {@code symbol}, recorded for the header checks. */
    public MethodHandle downcall(String symbol, FunctionDescriptor descriptor) {
        functions.put(symbol, descriptor);
        if (lookup == null) {
            return failing(
                    descriptor, names.getFirst() + " is not loaded (" + loadFailure + "), cannot call " + symbol);
        }
        Optional<MemorySegment> address = lookup.find(symbol);
        if (address.isEmpty()) {
            return failing(descriptor, symbol + " is not exported by " + names.getFirst() + " (older release?)");
        }
        return LINKER.downcallHandle(address.get(), descriptor);
    }

    /** Every symbol bound so far with its descriptor, in binding order. */
    public Map<String, FunctionDescriptor> functions() {
        synchronized (functions) {
            return Map.copyOf(functions);
        }
    }

    /** Ordered view for generators that want a stable output. */
    public List<Map.Entry<String, FunctionDescriptor>> functionsInOrder() {
        synchronized (functions) {
            return List.copyOf(functions.entrySet());
        }
    }

    /**
     * Holder wrappers call {@code invokeExact}, which declares {@code Throwable}; our handles only
     * throw unchecked exceptions, so anything else is a bug.
     */
    public static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException e) return e;
        if (t instanceof Error e) throw e;
        return new IllegalStateException("unexpected checked exception from a downcall", t);
    }

    private static MethodHandle failing(FunctionDescriptor descriptor, String message) {
        MethodType type = descriptor.toMethodType();
        try {
            MethodHandle create = MethodHandles.lookup()
                    .findConstructor(GpuUnavailableException.class, MethodType.methodType(void.class, String.class));
            MethodHandle supplier = MethodHandles.insertArguments(create, 0, message);
            MethodHandle thrower = MethodHandles.throwException(type.returnType(), GpuUnavailableException.class);
            MethodHandle throwing = MethodHandles.foldArguments(thrower, supplier);
            return MethodHandles.dropArguments(throwing, 0, type.parameterList());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
