package com.llmserve.app.resilience;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CpuFallbackPolicyTests {

    @TempDir
    Path root;

    private void file(String path, String content) throws IOException {
        Path p = root.resolve(path);
        Files.createDirectories(p.getParent());
        Files.writeString(p, content);
    }

    private void meminfo(long availableKb) throws IOException {
        file(
                "proc/meminfo",
                "MemTotal:       65536000 kB\nMemFree:         1000000 kB\nMemAvailable:   " + availableKb + " kB\n");
    }

    @Test
    void theHostsAvailableMemoryCountsReclaimableCache() throws IOException {
        meminfo(32_000_000);

        assertThat(new HostMemory(root).available()).hasValue(32_000_000L * 1024);
    }

    @Test
    void aContainerLimitCapsItLessTheWorkingSet() throws IOException {
        meminfo(32_000_000);
        file("sys/fs/cgroup/memory.max", "8589934592\n");
        file("sys/fs/cgroup/memory.current", "6442450944\n");
        file("sys/fs/cgroup/memory.stat", "anon 1000\ninactive_file 2147483648\nactive_file 5\n");

        // 8 GiB limit, 6 GiB used of which 2 GiB inactive file cache: 4 GiB left
        assertThat(new HostMemory(root).available()).hasValue(4L << 30);
    }

    @Test
    void noContainerLimitLeavesTheHostsFigure() throws IOException {
        meminfo(1_000);
        file("sys/fs/cgroup/memory.max", "max\n");

        assertThat(new HostMemory(root).available()).hasValue(1_024_000L);
    }

    @Test
    void autoLoadsTheCopyOnlyWhenItFitsTheAllowedShare() throws IOException {
        meminfo(1_048_576); // 1 GiB
        CpuFallbackPolicy policy = new CpuFallbackPolicy(
                new FailoverProperties(FailoverProperties.CpuFallback.AUTO, 0.5, Duration.ofSeconds(30)),
                new HostMemory(root));

        assertThat(policy.decide(400L << 20).load()).isTrue();
        CpuFallbackPolicy.Decision tooBig = policy.decide(600L << 20);
        assertThat(tooBig.load()).isFalse();
        assertThat(tooBig.reason()).contains("600 MiB needed").contains("512 MiB allowed");
    }

    @Test
    void alwaysAndNeverDoNotLookAtMemory() {
        HostMemory none = new HostMemory(root); // nothing readable under root
        assertThat(new CpuFallbackPolicy(
                                new FailoverProperties(
                                        FailoverProperties.CpuFallback.ALWAYS, 0.8, Duration.ofSeconds(1)),
                                none)
                        .decide(Long.MAX_VALUE / 2)
                        .load())
                .isTrue();
        assertThat(new CpuFallbackPolicy(
                                new FailoverProperties(
                                        FailoverProperties.CpuFallback.NEVER, 0.8, Duration.ofSeconds(1)),
                                none)
                        .decide(1)
                        .load())
                .isFalse();
    }
}
