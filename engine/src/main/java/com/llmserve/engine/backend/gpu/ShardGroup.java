package com.llmserve.engine.backend.gpu;

import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.Cleanup;
import com.llmserve.gpu.Collectives;
import com.llmserve.gpu.Device;
import com.llmserve.gpu.GpuException;
import com.llmserve.gpu.Graph;
import com.llmserve.gpu.Stream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The shards of a tensor-parallel model: one {@link GpuBackend} per device, rank {@code i} on the
 * {@code i}-th, and one NCCL/RCCL communicator each. One thread (the engine loop) drives them all:
 * each shard records its part of a step, and the first sync point of any shard runs every shard's
 * recording together, because a shard's all-reduce waits on device for the others' parts.
 *
 * <p>Running together: the recordings are cut at their all-reduces; each piece launches on its
 * shard's stream, then the shards' all-reduces launch as one collective group (NCCL's rule for one
 * thread driving several devices), and so on. A graphable step is captured that way once, each
 * shard's stream into a graph of its own, and later steps of the same operations replay each
 * shard's graph. Small all-reduces (a decode step's) skip NCCL where the GPUs reach each other's
 * memory ({@link PeerAllReduce}). Shard 0 leads: it is the backend the model is loaded on, and
 * closing it closes the other shards and the communicators.
 */
public final class ShardGroup {

    private final Collectives comms;
    private final List<GpuBackend> shards = new ArrayList<>();
    /** The small all-reduces' kernel over peer access, where the devices allow it. */
    private Optional<PeerAllReduce> peer = Optional.empty();

    private ShardGroup(Collectives comms) {
        this.comms = comms;
    }

    /**
     * Shard 0's backend of a new group over {@code devices} (at least two, distinct).
     *
     * @throws IllegalStateException when the collective library cannot be opened, saying why
     */
    public static Backend open(List<Device> devices, GpuOptions options) {
        if (devices.size() < 2) {
            throw new IllegalArgumentException("a shard group needs two devices or more: " + devices);
        }
        Collectives comms;
        try {
            comms = Collectives.open(devices);
        } catch (GpuException e) {
            throw new IllegalStateException("tensor parallelism over " + devices + ": " + e.getMessage(), e);
        }
        ShardGroup g = new ShardGroup(comms);
        try {
            for (int rank = 0; rank < devices.size(); rank++) {
                g.shards.add(GpuBackend.openShard(devices.get(rank), options, g, rank));
            }
            g.peer = PeerAllReduce.open(g.shards, options);
        } catch (RuntimeException | Error e) {
            try {
                g.peer.ifPresent(PeerAllReduce::close);
                g.shards.forEach(GpuBackend::close);
                comms.close();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        return g.shards.getFirst();
    }

    Collectives comms() {
        return comms;
    }

    List<GpuBackend> shards() {
        return List.copyOf(shards);
    }

    int size() {
        return shards.size();
    }

    /**
     * Runs what every shard recorded, together, then {@code copyBack} on {@code caller}'s stream,
     * and waits for every shard; the recordings are cleared whether they ran or failed.
     */
    void run(GpuBackend caller, Consumer<Stream> copyBack) {
        if (copyBack == null && shards.stream().allMatch(b -> b.recorder().isEmpty())) {
            return;
        }
        List<StepExecutor.Run> runs = new ArrayList<>(shards.size());
        try {
            for (GpuBackend b : shards) {
                runs.add(b.executor().begin(b.recorder()));
            }
            List<List<List<DeviceOp>>> pieces = pieces(runs);
            launch(runs, pieces);
            for (int i = 0; i < shards.size(); i++) {
                GpuBackend b = shards.get(i);
                b.executor().finish(runs.get(i), b == caller ? copyBack : null);
            }
        } finally {
            Cleanup.each(runs, StepExecutor.Run::close);
        }
    }

    private void launch(List<StepExecutor.Run> runs, List<List<List<DeviceOp>>> pieces) {
        List<Integer> busy = new ArrayList<>();
        boolean graphs = true;
        for (int i = 0; i < runs.size(); i++) {
            if (!runs.get(i).ops().isEmpty()) {
                busy.add(i);
                graphs &= shards.get(i).executor().graphable(runs.get(i));
            }
        }
        if (busy.isEmpty()) {
            return;
        }
        if (!graphs) {
            launchTogether(runs, pieces);
            busy.forEach(i -> shards.get(i).executor().countEagerRun());
            return;
        }
        Graph[] captured = new Graph[runs.size()];
        boolean complete = true;
        for (int i : busy) {
            captured[i] = shards.get(i).executor().cachedGraph(runs.get(i));
            complete &= captured[i] != null;
        }
        if (!complete) {
            // every shard's graph is captured in the same pass: their all-reduces are grouped
            for (int i : busy) {
                shards.get(i).executor().beginCapture(runs.get(i));
            }
            launchTogether(runs, pieces);
            for (int i : busy) {
                captured[i] = shards.get(i).executor().endCapture(runs.get(i));
            }
        }
        for (int i : busy) {
            shards.get(i).executor().launchGraph(runs.get(i), captured[i]);
        }
    }

    /** Each run's operations cut after each all-reduce; every run has as many pieces, of matching all-reduces. */
    private static List<List<List<DeviceOp>>> pieces(List<StepExecutor.Run> runs) {
        List<List<List<DeviceOp>>> all = new ArrayList<>();
        for (StepExecutor.Run r : runs) {
            List<List<DeviceOp>> pieces = new ArrayList<>();
            List<DeviceOp> piece = new ArrayList<>();
            for (DeviceOp op : r.ops()) {
                piece.add(op);
                if (op instanceof AllReduce) {
                    pieces.add(piece);
                    piece = new ArrayList<>();
                }
            }
            pieces.add(piece);
            all.add(pieces);
        }
        List<List<DeviceOp>> first = all.getFirst();
        for (int i = 1; i < all.size(); i++) {
            List<List<DeviceOp>> other = all.get(i);
            if (other.size() != first.size()) {
                throw new GpuBackendException("shard 0 recorded " + (first.size() - 1) + " all-reduces and shard " + i
                        + " " + (other.size() - 1) + ": every shard runs the same collectives");
            }
            for (int k = 0; k + 1 < first.size(); k++) {
                AllReduce a = (AllReduce) first.get(k).getLast();
                AllReduce b = (AllReduce) other.get(k).getLast();
                if ((long) a.n() * a.x().cols() != (long) b.n() * b.x().cols()) {
                    // NCCL would wait forever on a count the other ranks do not send
                    throw new GpuBackendException("all-reduce " + k + " sums " + a.n() + " x " + a.x().cols()
                            + " on shard 0 and " + b.n() + " x " + b.x().cols() + " on shard " + i);
                }
            }
        }
        return all;
    }

    /** Every shard's pieces in turn, each round's all-reduces in one collective group. */
    private void launchTogether(List<StepExecutor.Run> runs, List<List<List<DeviceOp>>> pieces) {
        int rounds = pieces.getFirst().size();
        for (int k = 0; k < rounds; k++) {
            boolean reduces = k + 1 < rounds;
            for (int i = 0; i < runs.size(); i++) {
                List<DeviceOp> piece = pieces.get(i).get(k);
                Launch l = runs.get(i).launch;
                for (int j = 0; j < piece.size() - (reduces ? 1 : 0); j++) {
                    piece.get(j).launch(l);
                }
            }
            if (reduces) {
                List<AllReduce> round = new ArrayList<>(runs.size());
                for (int i = 0; i < runs.size(); i++) {
                    round.add((AllReduce) pieces.get(i).get(k).getLast());
                }
                reduce(runs, round);
            }
        }
    }

    /** One all-reduce, every rank's part: over peer access when it is small enough, else one NCCL group. */
    private void reduce(List<StepExecutor.Run> runs, List<AllReduce> round) {
        AllReduce first = round.getFirst();
        if (peer.isPresent() && peer.get().takes((long) first.n() * first.x().cols())) {
            for (int i = 0; i < runs.size(); i++) {
                peer.get().launch(i, runs.get(i).launch, round);
            }
            return;
        }
        try (Collectives.Group g = comms.group()) {
            for (int i = 0; i < runs.size(); i++) {
                round.get(i).launch(runs.get(i).launch);
            }
        }
    }

    /** Closes the shards but the leader (whose close calls this), then the communicators. */
    void closeFollowers() {
        Cleanup.all(
                () -> peer.ifPresent(PeerAllReduce::close),
                () -> shards.subList(1, shards.size()).forEach(GpuBackend::close),
                comms::close);
    }
}
