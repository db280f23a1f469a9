package com.llmserve.app.resilience;

import java.util.Locale;
import java.util.OptionalLong;

/** Decides whether a GPU model also gets a CPU copy, by {@link FailoverProperties#cpuFallback()} and the memory it needs. */
public final class CpuFallbackPolicy {

    /**
     * @param load   whether to load the CPU copy
     * @param reason why, for the load log and the model's health details
     */
    public record Decision(boolean load, String reason) {}

    private final FailoverProperties properties;
    private final HostMemory memory;

    public CpuFallbackPolicy(FailoverProperties properties, HostMemory memory) {
        this.properties = properties;
        this.memory = memory;
    }

    /**
     * @param bytes what the CPU copy takes: its weights (about the file's size once repacked) and its KV cache
     */
    public Decision decide(long bytes) {
        return switch (properties.cpuFallback()) {
            case NEVER -> new Decision(false, "llmserve.failover.cpu-fallback is never");
            case ALWAYS -> new Decision(true, "llmserve.failover.cpu-fallback is always (" + mib(bytes) + " needed)");
            case AUTO -> {
                OptionalLong available = memory.available();
                if (available.isEmpty()) {
                    yield new Decision(
                            false,
                            "the memory available cannot be read; set llmserve.failover.cpu-fallback=always to load it anyway");
                }
                long budget = (long) (available.getAsLong() * properties.memoryFraction());
                yield bytes <= budget
                        ? new Decision(true, mib(bytes) + " needed, " + mib(budget) + " allowed")
                        : new Decision(
                                false,
                                mib(bytes) + " needed but only " + mib(budget) + " allowed ("
                                        + properties.memoryFraction() + " of " + mib(available.getAsLong())
                                        + " available)");
            }
        };
    }

    private static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.0f MiB", bytes / 1048576.0);
    }
}
