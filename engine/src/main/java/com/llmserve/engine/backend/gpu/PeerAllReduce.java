package com.llmserve.engine.backend.gpu;

import static com.llmserve.kernels.KernelConstants.LS_AR_MAX_BLOCKS;
import static com.llmserve.kernels.KernelConstants.LS_AR_MAX_RANKS;
import static com.llmserve.kernels.KernelConstants.LS_AR_PER_THREAD;
import static com.llmserve.kernels.KernelConstants.LS_AR_THREADS;

import com.llmserve.engine.backend.Cleanup;
import com.llmserve.gpu.Device;
import com.llmserve.gpu.DeviceBuffer;
import com.llmserve.gpu.KernelArgs;
import com.llmserve.gpu.LaunchConfig;
import com.llmserve.gpu.Vendor;
import com.llmserve.kernels.Kernel;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A shard group's small all-reduces without NCCL: {@code ls_allreduce_f32}, launched on every
 * shard's stream, pushes each shard's part into the others' memory over peer access in lines that
 * carry their own flags, and sums every part in rank order. A decode step of a split 70B model
 * makes 160 all-reduces of one row; on two H100s they cost 0.49 ms of a 12.1 ms step this way and
 * 1.55 ms through NCCL ({@code bench/kernels/run.sh allreduce}). On by default
 * ({@link GpuOptions#peerAllReduce()}): it takes sums of at most {@link #MAX_VALUES} values on
 * NVIDIA GPUs that reach each other, NCCL the rest. Not on AMD: spinning on lines another GPU writes
 * needs fine-grained (uncached) memory there, which the allocator does not hand out, so RCCL sums
 * everything.
 */
final class PeerAllReduce implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(PeerAllReduce.class.getName());

    /** The most values one launch sums: every block's threads, each sending and summing its share. */
    static final int MAX_VALUES = LS_AR_MAX_BLOCKS * LS_AR_THREADS * LS_AR_PER_THREAD;

    /** Lines of two values a rank's receive area holds per sender and parity. */
    private static final int CAP = MAX_VALUES / 2;

    private static final long COUNTER_BYTES = (long) LS_AR_MAX_BLOCKS * Integer.BYTES;

    /** Per rank: its receive area (2 parities x ranks senders x {@link #CAP} lines of 16 bytes), then its counters. */
    private final List<DeviceBuffer> areas;

    private final long areaBytes;

    private PeerAllReduce(List<DeviceBuffer> areas, long areaBytes) {
        this.areas = areas;
        this.areaBytes = areaBytes;
    }

    /**
     * The kernel's state over {@code shards}, with peer access enabled between every two of their
     * devices; empty (saying why in the log) where it cannot run or is switched off.
     */
    static Optional<PeerAllReduce> open(List<GpuBackend> shards, GpuOptions options) {
        List<Device> devices = shards.stream().map(GpuBackend::device).toList();
        String why = unavailable(devices, options);
        if (why != null) {
            LOG.log(System.Logger.Level.INFO, "{0}: all-reduces through NCCL/RCCL only ({1})", devices, why);
            return Optional.empty();
        }
        for (Device d : devices) {
            for (Device peer : devices) {
                if (d != peer) {
                    d.enablePeerAccess(peer);
                }
            }
        }
        long areaBytes = 2L * shards.size() * CAP * 16;
        List<DeviceBuffer> areas = new ArrayList<>();
        try {
            for (GpuBackend s : shards) {
                areas.add(s.allocateZeroed(areaBytes + COUNTER_BYTES));
            }
        } catch (RuntimeException e) {
            areas.forEach(DeviceBuffer::close);
            throw e;
        }
        LOG.log(
                System.Logger.Level.INFO,
                "{0}: all-reduces of up to {1} values over peer access, larger ones through NCCL",
                devices,
                MAX_VALUES);
        return Optional.of(new PeerAllReduce(areas, areaBytes));
    }

    private static String unavailable(List<Device> devices, GpuOptions options) {
        if (!options.peerAllReduce()) {
            return "llmserve.gpu.peer-all-reduce is off";
        }
        if (devices.size() > LS_AR_MAX_RANKS) {
            return devices.size() + " GPUs, the kernel takes " + LS_AR_MAX_RANKS;
        }
        for (Device d : devices) {
            if (d.info().vendor() != Vendor.NVIDIA) {
                return "AMD GPUs sum through RCCL";
            }
            for (Device peer : devices) {
                if (d != peer && !d.canAccessPeer(peer)) {
                    return d + " cannot reach " + peer + "'s memory";
                }
            }
        }
        return null;
    }

    /** Whether an all-reduce of {@code values} values runs here rather than through NCCL. */
    boolean takes(long values) {
        return values <= MAX_VALUES;
    }

    /** Rank {@code rank}'s launch of one all-reduce, {@code round} holding every rank's part in rank order. */
    void launch(int rank, Launch l, List<AllReduce> round) {
        AllReduce mine = round.get(rank);
        int values = Math.multiplyExact(mine.n(), mine.x().cols());
        KernelArgs args = KernelArgs.of().pointer(mine.x().buffer);
        for (int r = 0; r < LS_AR_MAX_RANKS; r++) {
            args = r < areas.size() ? args.pointer(areas.get(r)) : args.nullPointer();
        }
        args.pointer(areas.get(rank), areaBytes)
                .i32(rank)
                .i32(round.size())
                .i32(values)
                .i32(CAP);
        int blocks = Math.ceilDiv(values, LS_AR_THREADS * LS_AR_PER_THREAD);
        l.kernel(Kernel.ALLREDUCE_F32, LaunchConfig.of(blocks, LS_AR_THREADS), args);
    }

    @Override
    public void close() {
        Cleanup.each(areas, DeviceBuffer::close);
    }
}
