package com.llmserve.engine.backend.gpu;

import com.llmserve.gpu.Graph;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Captured graphs by what they launch: the list of operations (handles compare by identity, so a
 * closed buffer's graph is never found again) and the workspace generation they were captured at
 * (a moved scratch or metadata buffer makes every older graph stale: they are dropped on the first
 * lookup of a newer generation). The least recently used graph goes beyond the capacity.
 */
final class GraphCache implements AutoCloseable {

    private record Key(long generation, List<DeviceOp> ops) {}

    private final int capacity;
    private final LinkedHashMap<Key, Graph> graphs = new LinkedHashMap<>(16, 0.75f, true);
    private long generation;
    // the graph found last and a copy of its operations: consecutive steps of one bucket (a batch-1
    // decode) ask for it again, and comparing with it first spares hashing every operation (such
    // hits leave the eviction order as it was)
    private List<DeviceOp> lastOps;
    private Graph last;

    GraphCache(int capacity) {
        this.capacity = capacity;
    }

    /** Whether a lookup at {@code generation} drops the graphs kept (they were captured at another). */
    boolean stale(long generation) {
        return generation != this.generation && !graphs.isEmpty();
    }

    /** The graph of {@code ops} at {@code generation}, or null. */
    Graph get(long generation, List<DeviceOp> ops) {
        if (generation != this.generation) {
            close(); // none of them is running: the executor waits for runs still out first (stale)
            this.generation = generation;
        }
        if (last != null && lastOps.equals(ops)) {
            return last;
        }
        Graph g = graphs.get(new Key(generation, ops));
        if (g != null) {
            lastOps = List.copyOf(ops);
            last = g;
        }
        return g;
    }

    /** Keeps {@code graph} for a copy of {@code ops}; evicts the least recently used beyond the capacity. */
    void put(long generation, List<DeviceOp> ops, Graph graph) {
        Graph replaced = graphs.put(new Key(generation, List.copyOf(ops)), graph);
        if (replaced != null && replaced != graph) {
            forget(replaced);
            replaced.close(); // a shard group recaptures every shard when one shard's graph is missing
        }
        if (graphs.size() > capacity) {
            Iterator<Map.Entry<Key, Graph>> eldest = graphs.entrySet().iterator();
            Graph evicted = eldest.next().getValue();
            forget(evicted);
            evicted.close();
            eldest.remove();
        }
    }

    int size() {
        return graphs.size();
    }

    private void forget(Graph g) {
        if (g == last) {
            last = null;
            lastOps = null;
        }
    }

    @Override
    public void close() {
        graphs.values().forEach(Graph::close);
        graphs.clear();
        last = null;
        lastOps = null;
    }
}
