package com.llmserve.gpu;

import com.llmserve.kernels.Kernel;
import com.llmserve.kernels.KernelModuleId;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The device's loaded modules, in an array indexed by the build-time {@link KernelModuleId}. A
 * module is loaded on first use, under the device's lock, from the code object matching the
 * device's arch; later lookups read the array without locking.
 */
public final class ModuleCache {

    private final Device device;
    private final CodeObjectCatalog catalog;
    private final AtomicReferenceArray<KernelModule> modules =
            new AtomicReferenceArray<>(KernelModuleId.values().length);
    private final AtomicIntegerArray loads = new AtomicIntegerArray(KernelModuleId.values().length);
    private final Object loadLock = new Object();
    private boolean closed;

    ModuleCache(Device device, CodeObjectCatalog catalog) {
        this.device = device;
        this.catalog = catalog;
    }

    public KernelFunction function(Kernel kernel) {
        return module(kernel.module()).function(kernel);
    }

    public KernelModule module(KernelModuleId id) {
        KernelModule m = modules.get(id.ordinal());
        if (m != null) return m;
        synchronized (loadLock) {
            if (closed) throw new IllegalStateException(device + " is closed");
            m = modules.get(id.ordinal());
            if (m == null) {
                CodeObjectCatalog.Entry entry = catalog.entries(id).stream()
                        .filter(e -> e.target()
                                .equals(device.info()
                                        .arch()
                                        .select(catalog.targets(id))
                                        .orElse(null)))
                        .findFirst()
                        .orElseThrow(() -> new MissingKernelException(
                                id,
                                device.info().arch(),
                                "no code object for this arch; built: " + catalog.targets(id)));
                m = KernelModule.load(device, id, entry, catalog.image(entry));
                loads.incrementAndGet(id.ordinal());
                modules.set(id.ordinal(), m);
            }
            return m;
        }
    }

    /** How often a module was loaded on this device: 0 or 1, whatever the number of lookups. */
    public int loadCount(KernelModuleId id) {
        return loads.get(id.ordinal());
    }

    void close() {
        synchronized (loadLock) {
            closed = true;
            for (int i = 0; i < modules.length(); i++) {
                KernelModule m = modules.getAndSet(i, null);
                if (m != null) m.unload(device);
            }
        }
    }
}
