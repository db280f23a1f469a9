package com.llmserve.gpu;

import com.llmserve.kernels.Kernel;
import com.llmserve.kernels.KernelModuleId;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.EnumMap;
import java.util.Map;

/**
 * One code object loaded on one device, with every function it exports looked up at load time.
 * Owned by the device's {@link ModuleCache}.
 */
public final class KernelModule {

    private final KernelModuleId id;
    private final CodeObjectTarget target;
    private final long handle;
    private final Arena image;
    private final Map<Kernel, KernelFunction> functions;

    private KernelModule(
            KernelModuleId id,
            CodeObjectTarget target,
            long handle,
            Arena image,
            Map<Kernel, KernelFunction> functions) {
        this.id = id;
        this.target = target;
        this.handle = handle;
        this.image = image;
        this.functions = functions;
    }

    static KernelModule load(Device device, KernelModuleId id, CodeObjectCatalog.Entry entry, byte[] bytes) {
        // The image stays mapped for the module's life: HIP may read it lazily after load.
        Arena arena = Arena.ofShared();
        long handle = 0;
        try {
            MemorySegment segment = arena.allocate(bytes.length + 1L); // NUL-terminated, as PTX text must be
            segment.copyFrom(MemorySegment.ofArray(bytes));
            handle = device.driver().loadModule(segment);
            Map<Kernel, KernelFunction> functions = new EnumMap<>(Kernel.class);
            for (Kernel kernel : Kernel.values()) {
                if (kernel.module() != id) continue;
                long fn = device.driver()
                        .function(handle, kernel.symbol())
                        .orElseThrow(() -> new MissingKernelException(
                                id, device.info().arch(), entry.file() + " does not export " + kernel.symbol()));
                functions.put(kernel, new KernelFunction(kernel, device, fn));
            }
            return new KernelModule(id, entry.target(), handle, arena, functions);
        } catch (RuntimeException e) {
            if (handle != 0) device.driver().unloadModule(handle);
            arena.close();
            throw e;
        }
    }

    public KernelModuleId id() {
        return id;
    }

    /** The code object chosen for the device: e.g. {@code sm_90} cubin, or PTX when no cubin fits. */
    public CodeObjectTarget target() {
        return target;
    }

    public KernelFunction function(Kernel kernel) {
        KernelFunction f = functions.get(kernel);
        if (f == null) throw new IllegalArgumentException(kernel + " is not in module " + id);
        return f;
    }

    void unload(Device device) {
        device.driver().unloadModule(handle);
        image.close();
    }
}
