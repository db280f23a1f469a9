package com.llmserve.app;

import com.llmserve.engine.backend.Activations;
import com.llmserve.engine.backend.Backend;
import com.llmserve.engine.backend.Step;
import com.llmserve.engine.backend.Weight;
import com.llmserve.engine.backend.cpu.CpuBackend;
import com.llmserve.gpu.GpuCallException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * A backend that stands in for a GPU: it computes as the CPU backend does (results are the CPU's
 * to the bit) and, on command, fails every forward pass from its first operation on, the way a
 * failing device fails a step. Each failure is a new exception, as a real device raises a new one
 * per failed call.
 */
public final class FaultInjectingBackend extends CpuBackend {

    private final AtomicReference<Supplier<RuntimeException>> fault = new AtomicReference<>();
    private final AtomicLong work = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private volatile List<Backend> shards = List.of(this);

    public FaultInjectingBackend(String name, int threads) {
        super(name, threads, true);
    }

    /** A device's faults are its own: the service guards it with a breaker, as it guards a GPU. */
    @Override
    public boolean accelerated() {
        return true;
    }

    /** Fails every forward pass from now on with what {@code error} makes (a pass it makes null for runs). */
    public void failWith(Supplier<RuntimeException> error) {
        fault.set(error);
    }

    /** Fails like a device whose kernel launch was refused: a plain driver error, the context intact. */
    public void failLikeABadLaunch() {
        failWith(() -> new GpuCallException(
                "cuda", "cuLaunchKernel", 1, "CUDA_ERROR_INVALID_VALUE", "invalid argument", false));
    }

    /** Fails like a device that lost its context (an illegal memory access): sticky, only a restart helps. */
    public void failLikeALostContext() {
        failWith(() -> new GpuCallException(
                "cuda",
                "cuStreamSynchronize",
                700,
                "CUDA_ERROR_ILLEGAL_ADDRESS",
                "an illegal memory access was encountered",
                false));
    }

    /**
     * Fails each forward pass with probability {@code p} from now on, each failure a bad launch:
     * faults at random steps, mid-batch, as a flaky device has them.
     */
    public void failAtRandom(double p, long seed) {
        java.util.random.RandomGenerator random = new java.util.SplittableRandom(seed);
        Object lock = new Object();
        failWith(() -> {
            boolean fail;
            synchronized (lock) {
                fail = random.nextDouble() < p;
            }
            return fail
                    ? new GpuCallException(
                            "cuda", "cuLaunchKernel", 1, "CUDA_ERROR_INVALID_VALUE", "invalid argument", false)
                    : null;
        });
    }

    /**
     * Stands in for a model split over GPUs: {@link #shards()} lists this backend, then one named
     * {@code peers} each (which never compute: this one does all the work), closed with this one.
     */
    public FaultInjectingBackend splitWith(List<String> peers) {
        List<Backend> all = new ArrayList<>(List.of(this));
        peers.forEach(name -> all.add(new FaultInjectingBackend(name, 1)));
        shards = List.copyOf(all);
        return this;
    }

    @Override
    public List<? extends Backend> shards() {
        return shards;
    }

    @Override
    protected void doClose() {
        shards.stream().skip(1).forEach(Backend::close);
        super.doClose();
    }

    /** Computes again. */
    public void heal() {
        fault.set(null);
    }

    /** Embedding gathers computed: grows with every forward pass that ran here (by one or more). */
    public long work() {
        return work.get();
    }

    /** Forward passes failed on command. */
    public long failures() {
        return failures.get();
    }

    /** Every forward pass, decoder or encoder, starts by gathering token embeddings: the fault point. */
    @Override
    protected void doEmbed(Step step, Weight table, int[] ids, int n, Activations out) {
        Supplier<RuntimeException> f = fault.get();
        RuntimeException error = f == null ? null : f.get();
        if (error != null) {
            failures.incrementAndGet();
            throw error;
        }
        work.incrementAndGet();
        super.doEmbed(step, table, ids, n, out);
    }
}
