package com.llmserve.engine.sched;

/**
 * A snapshot of an engine loop's state and totals, read from any thread.
 *
 * @param waitingRequests   requests queued for admission
 * @param waitingCapacity   the most requests that may queue ({@code max-waiting}); more are refused
 * @param runningSequences  sequences admitted and not finished
 * @param kvBlocksUsed      KV blocks holding live sequences, in blocks of every layer: with KV groups
 *                          (windowed and global layers apart, see {@code KvLayout}) each group's
 *                          blocks count by its share of the layers, rounded up, so this stays the
 *                          share of the cache's memory in use ({@code InferenceEngine.kvBlocksUsedPerGroup}
 *                          has the groups' own counts)
 * @param kvBlocksTotal     KV blocks in the pools (the reserved ones excluded), in blocks of every layer
 * @param prefixCacheHits   blocks reused from the prefix cache since start (of group 0)
 * @param prefixCacheQueries blocks looked up in the prefix cache since start (of group 0)
 * @param promptTokens      prompt tokens computed since start (cache hits excluded)
 * @param generatedTokens   tokens generated since start
 * @param steps             forward passes since start
 * @param preemptions       sequences preempted (to be recomputed) since start
 */
public record EngineStats(
        int waitingRequests,
        int waitingCapacity,
        int runningSequences,
        int kvBlocksUsed,
        int kvBlocksTotal,
        long prefixCacheHits,
        long prefixCacheQueries,
        long promptTokens,
        long generatedTokens,
        long steps,
        long preemptions) {}
