package com.llmserve.gpu;

import com.llmserve.gpu.cuda.CudaBackend;
import com.llmserve.gpu.hip.HipBackend;
import com.llmserve.gpu.spi.Backend;
import com.llmserve.gpu.spi.DeviceDriver;
import com.llmserve.gpu.spi.Driver;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Every visible device of the one backend discovery chose, opened once and owned here. Nothing
 * in this module is a static singleton: the application holds one pool (a bean) and passes
 * {@link Device}s down.
 *
 * <pre>{@code
 * try (DevicePool pool = DevicePool.open(RuntimeChoice.AUTO)) {
 *   if (pool.isEmpty()) { ... run on the CPU; pool.statuses() says why ... }
 *   Device gpu = pool.devices().getFirst();
 * }
 * }</pre>
 */
public final class DevicePool implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(DevicePool.class.getName());

    private final Driver driver;
    private final List<Device> devices;
    private final List<BackendStatus> statuses;
    private final CodeObjectCatalog catalog;

    private DevicePool(Driver driver, List<Device> devices, List<BackendStatus> statuses, CodeObjectCatalog catalog) {
        this.driver = driver;
        this.devices = devices;
        this.statuses = statuses;
        this.catalog = catalog;
    }

    /** Discovers with the default options. */
    public static DevicePool open(RuntimeChoice choice) {
        return open(choice, DeviceOptions.defaults());
    }

    /**
     * Discovers devices. {@code AUTO} tries HIP, then CUDA, and keeps the first backend that opens
     * at least one device; an unavailable backend is never an error, only a status.
     */
    public static DevicePool open(RuntimeChoice choice, DeviceOptions options) {
        if (choice == RuntimeChoice.NONE) {
            BackendStatus off = new BackendStatus("gpu", false, "disabled by configuration");
            LOG.log(System.Logger.Level.INFO, "GPU backend {0}", off);
            return new DevicePool(null, List.of(), List.of(off), CodeObjectCatalog.load());
        }
        return open(
                switch (choice) {
                    case HIP -> List.of(new HipBackend());
                    case CUDA -> List.of(new CudaBackend());
                    default -> List.of(new HipBackend(), new CudaBackend());
                },
                options);
    }

    /**
     * Discovers the devices of the first of {@code order} that opens at least one: the runtime's
     * own backends, or another implementation of the SPI (a simulated device in tests).
     */
    public static DevicePool open(List<Backend> order, DeviceOptions options) {
        CodeObjectCatalog catalog = CodeObjectCatalog.load();
        List<BackendStatus> statuses = new ArrayList<>();
        for (Backend backend : order) {
            switch (backend.probe()) {
                case Backend.Probe.Unavailable u -> statuses.add(new BackendStatus(backend.name(), false, u.reason()));
                case Backend.Probe.Available a -> {
                    Optional<List<Device>> opened = openAll(backend, a.driver(), options, catalog, statuses);
                    if (opened.isPresent()) {
                        for (Backend rest : order.subList(order.indexOf(backend) + 1, order.size())) {
                            statuses.add(new BackendStatus(
                                    rest.name(), false, "not probed: " + backend.name() + " was chosen first"));
                        }
                        statuses.forEach(s -> LOG.log(System.Logger.Level.INFO, "GPU backend {0}", s));
                        return new DevicePool(a.driver(), List.copyOf(opened.get()), List.copyOf(statuses), catalog);
                    }
                }
            }
        }
        statuses.forEach(s -> LOG.log(System.Logger.Level.INFO, "GPU backend {0}", s));
        return new DevicePool(null, List.of(), List.copyOf(statuses), catalog);
    }

    private static Optional<List<Device>> openAll(
            Backend backend,
            Driver driver,
            DeviceOptions options,
            CodeObjectCatalog catalog,
            List<BackendStatus> statuses) {
        List<Device> opened = new ArrayList<>();
        try {
            for (int i = 0; i < driver.deviceCount(); i++) {
                DeviceDriver dd = driver.openDevice(i);
                opened.add(new Device(dd, catalog, options));
            }
            statuses.add(new BackendStatus(
                    backend.name(),
                    true,
                    driver.version() + ", " + opened.size() + " device(s): "
                            + opened.stream()
                                    .map(d -> d.info().name() + " (" + d.info().arch() + ")")
                                    .toList()));
            return Optional.of(opened);
        } catch (GpuException e) {
            // A backend whose devices cannot all be opened is not used at all: half a pool would
            // place replicas on devices the health check cannot vouch for.
            opened.reversed().forEach(Device::close);
            driver.close();
            statuses.add(new BackendStatus(backend.name(), false, "opening devices failed: " + e.getMessage()));
            return Optional.empty();
        }
    }

    public List<Device> devices() {
        return devices;
    }

    public Device device(int index) {
        return devices.get(index);
    }

    /** True when no GPU is usable: the engine runs on the CPU. */
    public boolean isEmpty() {
        return devices.isEmpty();
    }

    /** The chosen backend's vendor, when there is one. */
    public Optional<Vendor> vendor() {
        return Optional.ofNullable(driver).map(Driver::vendor);
    }

    /** One entry per backend considered, in discovery order. */
    public List<BackendStatus> statuses() {
        return statuses;
    }

    /** The code objects the kernels jar provides. */
    public CodeObjectCatalog codeObjects() {
        return catalog;
    }

    /** Closes every device (streams, modules, memory, context), then the runtime. */
    @Override
    public void close() {
        for (Device device : devices.reversed()) device.close();
        if (driver != null) driver.close();
    }
}
