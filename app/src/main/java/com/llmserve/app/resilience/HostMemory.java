package com.llmserve.app.resilience;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * Memory a new allocation can take without the kernel swapping or the container being killed:
 * the kernel's {@code MemAvailable} (free memory plus reclaimable caches, such as a model file's
 * pages), capped by the container's cgroup limit less its working set (usage without the
 * inactive file cache, as the kubelet counts it). Off Linux, the JVM's view of free memory.
 */
public final class HostMemory {

    private final Path root;

    /**
     * @param root where {@code proc} and {@code sys} are found; {@code /} but for tests
     */
    public HostMemory(Path root) {
        this.root = root;
    }

    public static HostMemory system() {
        return new HostMemory(Path.of("/"));
    }

    /** Bytes available now; empty when nothing says. */
    public OptionalLong available() {
        OptionalLong host = memAvailable();
        if (host.isEmpty()) {
            host = jvmFree();
        }
        OptionalLong container = cgroupRoom();
        if (host.isPresent() && container.isPresent()) {
            return OptionalLong.of(Math.min(host.getAsLong(), container.getAsLong()));
        }
        return host.isPresent() ? host : container;
    }

    private OptionalLong memAvailable() {
        try {
            for (String line : Files.readAllLines(root.resolve("proc/meminfo"))) {
                if (line.startsWith("MemAvailable:")) {
                    String[] parts =
                            line.substring("MemAvailable:".length()).trim().split("\\s+");
                    return OptionalLong.of(Long.parseLong(parts[0]) * 1024); // the kernel writes kB
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or an older kernel: try the JVM
        }
        return OptionalLong.empty();
    }

    /** cgroup v2, then v1: the limit less the working set; empty without a limit. */
    private OptionalLong cgroupRoom() {
        OptionalLong v2 = room(
                root.resolve("sys/fs/cgroup/memory.max"),
                root.resolve("sys/fs/cgroup/memory.current"),
                root.resolve("sys/fs/cgroup/memory.stat"),
                "inactive_file");
        return v2.isPresent()
                ? v2
                : room(
                        root.resolve("sys/fs/cgroup/memory/memory.limit_in_bytes"),
                        root.resolve("sys/fs/cgroup/memory/memory.usage_in_bytes"),
                        root.resolve("sys/fs/cgroup/memory/memory.stat"),
                        "total_inactive_file");
    }

    private static OptionalLong room(Path limitFile, Path usageFile, Path statFile, String inactiveKey) {
        try {
            String limitText = Files.readString(limitFile).trim();
            if (limitText.equals("max")) {
                return OptionalLong.empty();
            }
            long limit = Long.parseLong(limitText);
            if (limit >= Long.MAX_VALUE / 2) {
                return OptionalLong.empty(); // cgroup v1 writes a huge number for "no limit"
            }
            long usage = Long.parseLong(Files.readString(usageFile).trim());
            long inactive = 0;
            if (Files.exists(statFile)) {
                for (String line : Files.readAllLines(statFile)) {
                    if (line.startsWith(inactiveKey + " ")) {
                        inactive = Long.parseLong(
                                line.substring(inactiveKey.length() + 1).trim());
                    }
                }
            }
            return OptionalLong.of(Math.max(0, limit - Math.max(0, usage - inactive)));
        } catch (IOException | RuntimeException e) {
            return OptionalLong.empty();
        }
    }

    private static OptionalLong jvmFree() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return OptionalLong.of(os.getFreeMemorySize());
        }
        return OptionalLong.empty();
    }
}
