package com.llmserve.gpu.spi;

import static com.llmserve.gpu.spi.CTypes.C_INT;
import static com.llmserve.gpu.spi.CTypes.C_POINTER;
import static com.llmserve.gpu.spi.CTypes.C_SIZE_T;

/**
 * The runtime calls whose C signatures the CUDA driver API and HIP share (HIP mirrors CUDA for
 * streams, events, modules, launches and graphs), bound from one vendor's library by that vendor's
 * exported names. The signatures are written here once; a vendor's binding holder names its
 * symbols and numbers, and binds them when it loads, so the binding checks compile each one
 * against the vendor's header like every other binding. {@link NativeRuntimeCalls} calls them.
 */
public final class SharedCalls {

    /** Each shared call's exported name in one vendor's library. */
    public record Names(
            String memGetInfo,
            String synchronize,
            String malloc,
            String hostFree,
            String streamCreate,
            String streamDestroy,
            String streamSynchronize,
            String streamWaitEvent,
            String eventCreate,
            String eventDestroy,
            String eventRecord,
            String eventSynchronize,
            String eventQuery,
            String eventElapsedTime,
            String moduleLoadData,
            String moduleUnload,
            String moduleGetFunction,
            String launchKernel,
            String streamBeginCapture,
            String streamEndCapture,
            String graphLaunch,
            String graphDestroy,
            String graphExecDestroy) {}

    /** The flags the shared calls take and the answers they give, in one vendor's numbers. */
    public record Codes(
            int notReady,
            int notFound,
            int streamNonBlocking,
            int eventDefault,
            int eventDisableTiming,
            int captureModeRelaxed) {}

    final Codes codes;
    final BoundCall memGetInfo; // (size_t* free, size_t* total)
    final BoundCall synchronize; // ()
    final BoundCall malloc; // (void** pointer, size_t bytes)
    final BoundCall hostFree; // (void* pointer)
    final BoundCall streamCreate; // (stream* out, unsigned flags)
    final BoundCall streamDestroy;
    final BoundCall streamSynchronize;
    final BoundCall streamWaitEvent; // (stream, event, unsigned flags)
    final BoundCall eventCreate; // (event* out, unsigned flags)
    final BoundCall eventDestroy;
    final BoundCall eventRecord; // (event, stream)
    final BoundCall eventSynchronize;
    final BoundCall eventQuery;
    final BoundCall eventElapsedTime; // (float* millis, event start, event end)
    final BoundCall moduleLoadData; // (module* out, const void* image)
    final BoundCall moduleUnload;
    final BoundCall moduleGetFunction; // (function* out, module, const char* name)
    final BoundCall
            launchKernel; // (function, grid x y z, block x y z, shared bytes, stream, void** args, void** extra)
    final BoundCall streamBeginCapture; // (stream, capture mode)
    final BoundCall streamEndCapture; // (stream, graph* out)
    final BoundCall graphLaunch; // (graph exec, stream)
    final BoundCall graphDestroy;
    final BoundCall graphExecDestroy;

    private SharedCalls(NativeLibrary library, Names n, Codes codes) {
        this.codes = codes;
        memGetInfo = BoundCall.bind(library, n.memGetInfo(), C_POINTER, C_POINTER);
        synchronize = BoundCall.bind(library, n.synchronize());
        malloc = BoundCall.bind(library, n.malloc(), C_POINTER, C_SIZE_T);
        hostFree = BoundCall.bind(library, n.hostFree(), C_POINTER);
        streamCreate = BoundCall.bind(library, n.streamCreate(), C_POINTER, C_INT);
        streamDestroy = BoundCall.bind(library, n.streamDestroy(), C_POINTER);
        streamSynchronize = BoundCall.bind(library, n.streamSynchronize(), C_POINTER);
        streamWaitEvent = BoundCall.bind(library, n.streamWaitEvent(), C_POINTER, C_POINTER, C_INT);
        eventCreate = BoundCall.bind(library, n.eventCreate(), C_POINTER, C_INT);
        eventDestroy = BoundCall.bind(library, n.eventDestroy(), C_POINTER);
        eventRecord = BoundCall.bind(library, n.eventRecord(), C_POINTER, C_POINTER);
        eventSynchronize = BoundCall.bind(library, n.eventSynchronize(), C_POINTER);
        eventQuery = BoundCall.bind(library, n.eventQuery(), C_POINTER);
        eventElapsedTime = BoundCall.bind(library, n.eventElapsedTime(), C_POINTER, C_POINTER, C_POINTER);
        moduleLoadData = BoundCall.bind(library, n.moduleLoadData(), C_POINTER, C_POINTER);
        moduleUnload = BoundCall.bind(library, n.moduleUnload(), C_POINTER);
        moduleGetFunction = BoundCall.bind(library, n.moduleGetFunction(), C_POINTER, C_POINTER, C_POINTER);
        launchKernel = BoundCall.bind(
                library,
                n.launchKernel(),
                C_POINTER,
                C_INT,
                C_INT,
                C_INT,
                C_INT,
                C_INT,
                C_INT,
                C_INT,
                C_POINTER,
                C_POINTER,
                C_POINTER);
        streamBeginCapture = BoundCall.bind(library, n.streamBeginCapture(), C_POINTER, C_INT);
        streamEndCapture = BoundCall.bind(library, n.streamEndCapture(), C_POINTER, C_POINTER);
        graphLaunch = BoundCall.bind(library, n.graphLaunch(), C_POINTER, C_POINTER);
        graphDestroy = BoundCall.bind(library, n.graphDestroy(), C_POINTER);
        graphExecDestroy = BoundCall.bind(library, n.graphExecDestroy(), C_POINTER);
    }

    /** Binds every shared call from {@code library} by {@code names}; recorded for the binding checks. */
    public static SharedCalls bind(NativeLibrary library, Names names, Codes codes) {
        return new SharedCalls(library, names, codes);
    }
}
