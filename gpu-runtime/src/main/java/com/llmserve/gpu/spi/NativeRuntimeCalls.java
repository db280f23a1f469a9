package com.llmserve.gpu.spi;

import com.llmserve.gpu.LaunchConfig;
import java.lang.foreign.MemorySegment;

/**
 * {@link RuntimeCalls} over a vendor library: the calls both vendors share ({@link SharedCalls}) are
 * made here, each status checked with the vendor's {@link StatusCheck} under the vendor's name for
 * the call. A vendor's adapter adds only what its API does differently: how a device becomes
 * current and its properties are read, pinned allocation and freeing, the copies and fills, peer
 * access (the peer is named by device ordinal in HIP, by context in CUDA), graph instantiation,
 * its management, BLAS and DNN libraries.
 */
public abstract class NativeRuntimeCalls implements RuntimeCalls {

    private final SharedCalls shared;
    private final StatusCheck status;

    protected NativeRuntimeCalls(SharedCalls shared, StatusCheck status) {
        this.shared = shared;
        this.status = status;
    }

    /** The vendor's status check, for the calls its adapter makes itself. */
    protected final StatusCheck status() {
        return status;
    }

    @Override
    public final void memoryInfo(MemorySegment free, MemorySegment total) {
        shared.memGetInfo.call(status, h -> (int) h.invokeExact(free, total));
    }

    @Override
    public final void synchronize() {
        shared.synchronize.call(status, h -> (int) h.invokeExact());
    }

    @Override
    public final void malloc(MemorySegment pointer, long bytes) {
        shared.malloc.call(status, h -> (int) h.invokeExact(pointer, bytes));
    }

    @Override
    public final void hostFree(MemorySegment memory) {
        shared.hostFree.call(status, h -> (int) h.invokeExact(memory));
    }

    @Override
    public final void createStream(MemorySegment stream) {
        int flags = shared.codes.streamNonBlocking();
        shared.streamCreate.call(status, h -> (int) h.invokeExact(stream, flags));
    }

    @Override
    public final void destroyStream(MemorySegment stream) {
        shared.streamDestroy.call(status, h -> (int) h.invokeExact(stream));
    }

    @Override
    public final void synchronizeStream(MemorySegment stream) {
        shared.streamSynchronize.call(status, h -> (int) h.invokeExact(stream));
    }

    @Override
    public final void createEvent(MemorySegment event, boolean timing) {
        int flags = timing ? shared.codes.eventDefault() : shared.codes.eventDisableTiming();
        shared.eventCreate.call(status, h -> (int) h.invokeExact(event, flags));
    }

    @Override
    public final void destroyEvent(MemorySegment event) {
        shared.eventDestroy.call(status, h -> (int) h.invokeExact(event));
    }

    @Override
    public final void recordEvent(MemorySegment event, MemorySegment stream) {
        shared.eventRecord.call(status, h -> (int) h.invokeExact(event, stream));
    }

    @Override
    public final void synchronizeEvent(MemorySegment event) {
        shared.eventSynchronize.call(status, h -> (int) h.invokeExact(event));
    }

    @Override
    public final boolean eventDone(MemorySegment event) {
        return shared.eventQuery.answer(status, shared.codes.notReady(), h -> (int) h.invokeExact(event));
    }

    @Override
    public final void streamWaitEvent(MemorySegment stream, MemorySegment event) {
        shared.streamWaitEvent.call(status, h -> (int) h.invokeExact(stream, event, 0));
    }

    @Override
    public final void elapsedMillis(MemorySegment millis, MemorySegment start, MemorySegment end) {
        shared.eventElapsedTime.call(status, h -> (int) h.invokeExact(millis, start, end));
    }

    @Override
    public final void loadModule(MemorySegment module, MemorySegment image) {
        shared.moduleLoadData.call(status, h -> (int) h.invokeExact(module, image));
    }

    @Override
    public final void unloadModule(MemorySegment module) {
        shared.moduleUnload.call(status, h -> (int) h.invokeExact(module));
    }

    @Override
    public final boolean function(MemorySegment function, MemorySegment module, MemorySegment symbol) {
        int notFound = shared.codes.notFound();
        return shared.moduleGetFunction.answer(status, notFound, h -> (int) h.invokeExact(function, module, symbol));
    }

    @Override
    public final void launch(MemorySegment function, LaunchConfig c, MemorySegment stream, MemorySegment arguments) {
        if (c.dependent()) {
            launchDependent(function, c, stream, arguments);
            return;
        }
        shared.launchKernel.call(status, h -> (int) h.invokeExact(
                function,
                c.gridX(),
                c.gridY(),
                c.gridZ(),
                c.blockX(),
                c.blockY(),
                c.blockZ(),
                c.sharedBytes(),
                stream,
                arguments,
                MemorySegment.NULL));
    }

    /**
     * A {@link LaunchConfig#dependent} launch; this vendor has none, so an ordinary one (HIP's
     * launches never overlap the kernel ahead of them).
     */
    protected void launchDependent(
            MemorySegment function, LaunchConfig c, MemorySegment stream, MemorySegment arguments) {
        launch(
                function,
                new LaunchConfig(c.gridX(), c.gridY(), c.gridZ(), c.blockX(), c.blockY(), c.blockZ(), c.sharedBytes()),
                stream,
                arguments);
    }

    @Override
    public final void beginCapture(MemorySegment stream) {
        int mode = shared.codes.captureModeRelaxed();
        shared.streamBeginCapture.call(status, h -> (int) h.invokeExact(stream, mode));
    }

    @Override
    public final void endCapture(MemorySegment stream, MemorySegment graph) {
        shared.streamEndCapture.call(status, h -> (int) h.invokeExact(stream, graph));
    }

    @Override
    public final void launchGraph(MemorySegment graphExec, MemorySegment stream) {
        shared.graphLaunch.call(status, h -> (int) h.invokeExact(graphExec, stream));
    }

    @Override
    public final void destroyGraph(MemorySegment graph) {
        shared.graphDestroy.call(status, h -> (int) h.invokeExact(graph));
    }

    @Override
    public final void destroyGraphExec(MemorySegment graphExec) {
        shared.graphExecDestroy.call(status, h -> (int) h.invokeExact(graphExec));
    }
}
