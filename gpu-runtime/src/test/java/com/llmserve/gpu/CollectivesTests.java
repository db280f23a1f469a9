package com.llmserve.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.llmserve.gpu.cuda.nccl_h;
import com.llmserve.gpu.hip.rccl_h;
import com.llmserve.gpu.spi.NativeLibrary;
import com.llmserve.gpu.spi.NcclCalls;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The collective layer without a GPU or NCCL: the holders load and say why NCCL and RCCL are
 * unavailable, and {@link Collectives} runs over {@link SimulatedGpu} devices through the real
 * {@link NcclCalls} downcalls into {@code src/test/native/fake-nccl} (compiled here), a stand-in
 * library with NCCL's symbols that sums host memory at group end. What this proves: the FFM
 * signatures as called (the 128-byte id by value included), the group discipline, ranks, offsets,
 * element types, failure and abort. Not NCCL's own behaviour: {@code CollectivesGpuTests}.
 */
class CollectivesTests {

    static final Path FAKE_LIBRARY = Path.of("target/fake-nccl/libfake_nccl.so");

    static FakeNccl fake;
    static NcclCalls calls;

    SimulatedGpu gpu;

    @BeforeAll
    static void buildFakeNccl() throws Exception {
        fake = FakeNccl.build(FakeNccl.SOURCE, FAKE_LIBRARY);
        calls = NcclCalls.bind(fake.library(), "nccl", "NCCL", "test", new NcclCalls.Codes(0, 7, 6, 9, 0));
    }

    @BeforeEach
    void open() throws Throwable {
        fake.reset();
        gpu = SimulatedGpu.open(1L << 30, 3);
    }

    @AfterEach
    void close() {
        gpu.close();
    }

    /** destroyed, aborted, group ends, all-reduces run, communicators created, group depth. */
    static int[] counts() throws Throwable {
        return fake.counts();
    }

    // --- without the libraries ---

    @Test
    void theHoldersLoadWithoutTheLibrariesAndSayWhy() {
        assumeFalse(nccl_h.LIBRARY.isLoaded(), "libnccl.so.2 is installed here");
        assertThat(nccl_h.CALLS.unavailable()).hasValueSatisfying(reason -> assertThat(reason)
                .startsWith("NCCL not found: ")
                .contains("libnccl.so.2")
                .contains(nccl_h.LIBRARY_PROPERTY)
                .contains(nccl_h.LIBRARY_ENV));
        assertThatThrownBy(nccl_h.CALLS::version)
                .isInstanceOf(GpuUnavailableException.class)
                .hasMessageStartingWith("NCCL not found: ");
        assumeFalse(rccl_h.LIBRARY.isLoaded(), "librccl.so.1 is installed here");
        assertThat(rccl_h.CALLS.unavailable())
                .hasValueSatisfying(reason ->
                        assertThat(reason).startsWith("RCCL not found: ").contains("librccl.so.1"));
        assertThat(rccl_h.LIBRARY.functions())
                .containsOnlyKeys(
                        "ncclGetVersion",
                        "ncclGetUniqueId",
                        "ncclCommInitRank",
                        "ncclCommInitAll",
                        "ncclGroupStart",
                        "ncclGroupEnd",
                        "ncclAllReduce",
                        "ncclCommDestroy",
                        "ncclCommAbort",
                        "ncclCommGetAsyncError",
                        "ncclGetErrorString");
    }

    @Test
    void aPoolWithoutNcclReportsItAndRefusesToOpen() {
        assumeFalse(nccl_h.LIBRARY.isLoaded(), "libnccl.so.2 is installed here");
        BackendStatus status = Collectives.status(gpu.pool()); // the simulated devices are NVIDIA's
        assertThat(status.available()).isFalse();
        assertThat(status.backend()).isEqualTo("nccl");
        assertThat(status.detail()).startsWith("NCCL not found: ");
        assertThatThrownBy(() -> Collectives.open(gpu.pool()))
                .isInstanceOf(GpuUnavailableException.class)
                .hasMessageStartingWith("NCCL not found: ");
    }

    @Test
    void anEmptyPoolHasNoCollectives() {
        try (DevicePool none = DevicePool.open(RuntimeChoice.NONE)) {
            assertThat(Collectives.status(none).available()).isFalse();
            assertThatThrownBy(() -> Collectives.open(none)).isInstanceOf(GpuUnavailableException.class);
        }
    }

    @Test
    void anExplicitLibraryPathIsTriedBeforeTheSoname() {
        String property = "llmserve.test.collectives-library";
        System.setProperty(property, " /nowhere/libnccl.so.2 ");
        try {
            String[] names = NativeLibrary.withOverride(property, "LLMSERVE_TEST_UNSET_VARIABLE", "libnccl.so.2");
            assertThat(names).containsExactly("/nowhere/libnccl.so.2", "libnccl.so.2");
            NativeLibrary missing = NativeLibrary.load(names);
            assertThat(missing.loadFailure())
                    .hasValueSatisfying(f ->
                            assertThat(f).contains("/nowhere/libnccl.so.2: ").contains("; libnccl.so.2: "));
        } finally {
            System.clearProperty(property);
        }
        assertThat(NativeLibrary.withOverride(property, "LLMSERVE_TEST_UNSET_VARIABLE", "libnccl.so.2"))
                .containsExactly("libnccl.so.2");
    }

    @Test
    void versionCodesDecodeBothSchemes() {
        assertThat(NcclCalls.decodeVersion(22907)).isEqualTo("2.29.7");
        assertThat(NcclCalls.decodeVersion(21304)).isEqualTo("2.13.4");
        assertThat(NcclCalls.decodeVersion(2804)).isEqualTo("2.8.4");
    }

    // --- over the fake library ---

    @ParameterizedTest
    @CsvSource({
        "ALL, F32, 1000, 0",
        "ALL, F16, 257, 5",
        "ALL, BF16, 64, 1",
        "UNIQUE_ID, F32, 1000, 3",
        "UNIQUE_ID, F16, 33, 0"
    })
    void everyRankEndsWithTheSum(Collectives.Init init, BlasType type, int count, int offset) throws Throwable {
        try (Collectives comms = Collectives.open(gpu.pool().devices(), calls, init)) {
            assertThat(comms.size()).isEqualTo(3);
            assertThat(comms.version()).isEqualTo("2.29.7");
            assertThat(CollectiveCheck.allReduceAndCheck(comms, type, count, offset))
                    .isEqualTo(3L * count);
        }
        int[] c = counts();
        assertThat(c[4]).as("communicators created").isEqualTo(3);
        assertThat(c[3]).as("ranks reduced").isEqualTo(3);
        assertThat(c[0]).as("destroyed").isEqualTo(3);
        assertThat(c[1]).as("aborted").isZero();
        assertThat(c[5]).as("group depth").isZero();
    }

    @Test
    void aWorldOfOneKeepsItsInputAndNeedsNoGroup() throws Throwable {
        Device only = gpu.pool().device(1);
        try (Collectives comms = Collectives.open(List.of(only), calls, Collectives.Init.UNIQUE_ID)) {
            CollectiveCheck.allReduceAndCheck(comms, BlasType.F32, 100, 2);
            try (StreamLease lease = only.streams().lease();
                    DeviceBuffer b = only.allocate(64)) {
                comms.allReduceSum(0, b, 0, 16, BlasType.F32, lease.stream()); // outside any group
            }
        }
        assertThat(counts()[3]).isEqualTo(2);
    }

    @Test
    void severalRanksFromOneThreadNeedAGroup() throws Throwable {
        try (Collectives comms = Collectives.open(gpu.pool().devices(), calls, Collectives.Init.ALL);
                StreamLease lease = comms.device(0).streams().lease();
                DeviceBuffer b = comms.device(0).allocate(64)) {
            assertThatThrownBy(() -> comms.allReduceSum(0, b, 0, 16, BlasType.F32, lease.stream()))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("inside group()");
            assertThat(comms.failed()).isFalse();
        }
    }

    @Test
    void buffersAndStreamsMustBeTheRanksAndInRange() throws Throwable {
        try (Collectives comms = Collectives.open(gpu.pool().devices(), calls, Collectives.Init.ALL);
                StreamLease lease0 = comms.device(0).streams().lease();
                StreamLease lease1 = comms.device(1).streams().lease();
                DeviceBuffer b0 = comms.device(0).allocate(64);
                Collectives.Group g = comms.group()) {
            assertThatThrownBy(() -> comms.allReduceSum(1, b0, 0, 16, BlasType.F32, lease1.stream()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("rank 1");
            assertThatThrownBy(() -> comms.allReduceSum(0, b0, 0, 16, BlasType.F32, lease1.stream()))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> comms.allReduceSum(0, b0, 4, 16, BlasType.F32, lease0.stream()))
                    .isInstanceOf(IndexOutOfBoundsException.class);
            assertThat(comms.failed()).isFalse();
        } // the group ends with nothing queued
        assertThat(counts()[3]).isZero();
    }

    @Test
    void aFailedCallFailsTheCommunicatorsAndCloseAbortsThem() throws Throwable {
        Collectives comms = Collectives.open(gpu.pool().devices(), calls, Collectives.Init.ALL);
        fake.failNext(3); // ncclInternalError on the next all-reduce
        try (StreamLease lease = comms.device(0).streams().lease();
                DeviceBuffer b = comms.device(0).allocate(64)) {
            Collectives.Group g = comms.group();
            assertThatThrownBy(() -> comms.allReduceSum(0, b, 0, 16, BlasType.F32, lease.stream()))
                    .isInstanceOfSatisfying(GpuCallException.class, e -> {
                        assertThat(e.library()).isEqualTo("nccl");
                        assertThat(e.call()).isEqualTo("ncclAllReduce");
                        assertThat(e.codeName()).isEqualTo("ncclInternalError");
                        assertThat(e.vendorMessage()).startsWith("internal error");
                    });
            assertThat(comms.failed()).isTrue();
            g.close(); // ends the group: nothing else queued
            assertThatThrownBy(comms::group).isInstanceOf(IllegalStateException.class);
        }
        comms.close();
        int[] c = counts();
        assertThat(c[1]).as("aborted").isEqualTo(3);
        assertThat(c[0]).as("destroyed").isZero();
    }

    @Test
    void anAsyncErrorIsReportedAndFailsTheCommunicators() throws Throwable {
        try (Collectives comms = Collectives.open(gpu.pool().devices(), calls, Collectives.Init.ALL)) {
            comms.checkAsyncErrors();
            fake.failNext(6); // the comm records it as its async error, as a remote failure would
            try (StreamLease lease = comms.device(2).streams().lease();
                    DeviceBuffer b = comms.device(2).allocate(64);
                    Collectives.Group g = comms.group()) {
                assertThatThrownBy(() -> comms.allReduceSum(2, b, 0, 16, BlasType.F32, lease.stream()))
                        .isInstanceOf(GpuCallException.class);
            }
            assertThatThrownBy(comms::checkAsyncErrors).isInstanceOfSatisfying(GpuCallException.class, e -> {
                assertThat(e.call()).isEqualTo("ncclCommGetAsyncError");
                assertThat(e.codeName()).isEqualTo("ncclRemoteError");
            });
        }
        assertThat(counts()[1]).isEqualTo(3);
    }

    @Test
    void anIncompleteGroupFailsAtItsEnd() throws Throwable {
        Collectives comms = Collectives.open(gpu.pool().devices(), calls, Collectives.Init.ALL);
        try (StreamLease lease = comms.device(0).streams().lease();
                DeviceBuffer b = comms.device(0).allocate(64)) {
            Collectives.Group g = comms.group();
            comms.allReduceSum(0, b, 0, 16, BlasType.F32, lease.stream()); // ranks 1 and 2 never issued
            assertThatThrownBy(g::close).isInstanceOfSatisfying(GpuCallException.class, e -> assertThat(e.codeName())
                    .isEqualTo("ncclInvalidUsage"));
            assertThat(comms.failed()).isTrue();
        } finally {
            comms.close();
        }
        assertThat(counts()[1]).isEqualTo(3);
    }

    @Test
    void groupsNestAndOnlyTheOutermostLaunches() throws Throwable {
        try (Collectives comms = Collectives.open(gpu.pool().devices(), calls, Collectives.Init.ALL)) {
            try (Collectives.Group outer = comms.group()) {
                try (Collectives.Group inner = comms.group()) {
                    assertThat(counts()[5]).isEqualTo(2);
                }
                assertThat(counts()[5]).isEqualTo(1);
            }
            assertThat(counts()[5]).isZero();
            assertThat(counts()[2]).isEqualTo(2);
        }
    }

    @Test
    void aGroupEndsOnTheThreadThatStartedIt() throws Throwable {
        try (Collectives comms = Collectives.open(gpu.pool().devices(), calls, Collectives.Init.ALL)) {
            Collectives.Group g = comms.group();
            AtomicReference<Throwable> elsewhere = new AtomicReference<>();
            Thread t = Thread.ofPlatform().start(() -> {
                try {
                    g.close();
                } catch (Throwable e) {
                    elsewhere.set(e);
                }
            });
            t.join();
            assertThat(elsewhere.get()).isInstanceOf(IllegalStateException.class);
            assertThat(counts()[5]).isEqualTo(1);
            g.close();
            assertThat(counts()[5]).isZero();
        }
    }
}
