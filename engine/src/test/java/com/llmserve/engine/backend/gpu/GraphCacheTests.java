package com.llmserve.engine.backend.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import com.llmserve.gpu.Device;
import com.llmserve.gpu.Graph;
import com.llmserve.gpu.SimulatedGpu;
import com.llmserve.gpu.StreamLease;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Graphs found by equal operation lists, the last one found first, never a closed one. */
class GraphCacheTests {

    private static SimulatedGpu gpu;
    private static Device device;

    /** An operation that launches nothing: equal when its id is. */
    private record Op(int id) implements DeviceOp {
        @Override
        public void launch(Launch l) {}

        @Override
        public int n() {
            return 1;
        }

        @Override
        public String profileKey() {
            return "op " + id;
        }
    }

    @BeforeAll
    static void open() {
        gpu = SimulatedGpu.open(1L << 30);
        device = gpu.pool().device(0);
    }

    @AfterAll
    static void close() {
        gpu.close();
    }

    @Test
    void anEqualListOfNewOperationsFindsTheGraphAgainAndAnotherListDoesNot() {
        try (GraphCache cache = new GraphCache(4)) {
            Graph g = capture();
            cache.put(0, ops(1, 2), g);
            assertThat(cache.get(0, ops(1, 2))).isSameAs(g);
            assertThat(cache.get(0, ops(1, 2)))
                    .as("again, compared with the last one found")
                    .isSameAs(g);
            assertThat(cache.get(0, ops(2, 1))).isNull();
            assertThat(cache.get(0, ops(1, 2, 3))).isNull();
            assertThat(cache.get(0, ops(1, 2))).isSameAs(g);
        }
    }

    @Test
    void theLastGraphFoundIsForgottenOnceEvictedOrOfAnOlderGeneration() {
        try (GraphCache cache = new GraphCache(1)) {
            cache.put(0, ops(1), capture());
            assertThat(cache.get(0, ops(1))).isNotNull();
            cache.put(0, ops(2), capture()); // evicts the graph of (1), the last one found
            assertThat(cache.get(0, ops(1))).as("evicted and closed").isNull();
            Graph two = cache.get(0, ops(2));
            assertThat(two).isNotNull();
            assertThat(cache.get(2, ops(2)))
                    .as("a newer generation drops every graph")
                    .isNull();
            assertThat(cache.size()).isZero();
        }
    }

    @Test
    void aRecordingClearedAfterItsLookupDoesNotChangeWhatTheCacheCompares() {
        try (GraphCache cache = new GraphCache(4)) {
            Graph g = capture();
            List<DeviceOp> recording = ops(1, 2);
            cache.put(0, recording, g);
            assertThat(cache.get(0, recording)).isSameAs(g);
            recording.clear(); // as StepRecorder clears its list after each run
            recording.addAll(ops(3));
            assertThat(cache.get(0, recording)).isNull();
            assertThat(cache.get(0, ops(1, 2))).isSameAs(g);
        }
    }

    private static List<DeviceOp> ops(int... ids) {
        List<DeviceOp> ops = new ArrayList<>();
        for (int id : ids) {
            ops.add(new Op(id));
        }
        return ops;
    }

    private static Graph capture() {
        try (StreamLease lease = device.streams().lease()) {
            return lease.stream().beginCapture().end();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
