package com.llmserve.app.gpu;

import com.llmserve.gpu.GpuCallException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.LivenessState;
import org.springframework.context.ApplicationEventPublisher;

/**
 * What went wrong on each GPU, and who runs on it. Most device errors are the circuit breakers'
 * business: they open, traffic moves to the CPU, and half-open probes bring it back. A lost
 * context is different: the driver refuses every later call on it, so nothing inside this process
 * can bring the device back. Then the models on the device are shut off it at once (their breakers
 * forced open) and, when a model was placed on it, liveness is marked broken so that Kubernetes
 * restarts the pod: the only cure. A lost device that no model uses only shows in its health.
 */
public final class DeviceFaults {

    private static final Logger LOG = LoggerFactory.getLogger(DeviceFaults.class);

    /** No GPU runtime: nothing to track, liveness left alone. */
    public static DeviceFaults none() {
        return new DeviceFaults(null);
    }

    private final ApplicationEventPublisher events;
    private final Map<String, List<DeviceUser>> users = new ConcurrentHashMap<>();
    private final Map<String, String> lost = new ConcurrentHashMap<>();

    /**
     * @param events where the liveness change is published; null to leave liveness alone
     */
    public DeviceFaults(ApplicationEventPublisher events) {
        this.events = events;
    }

    /** A model replica runs on {@code device} from now on. */
    public void register(String device, DeviceUser user) {
        users.computeIfAbsent(device, d -> new CopyOnWriteArrayList<>()).add(user);
        String reason = lost.get(device);
        if (reason != null) {
            // lost before this model came (the telemetry sampler saw it): the model cannot use it either
            user.deviceLost(reason);
            breakLiveness();
        }
    }

    public void unregister(String device, DeviceUser user) {
        List<DeviceUser> list = users.get(device);
        if (list != null) {
            list.remove(user);
        }
    }

    /** The model replicas on {@code device}. */
    public List<DeviceUser> users(String device) {
        return List.copyOf(users.getOrDefault(device, List.of()));
    }

    /** Why the context of {@code device} is lost; empty while it is not. */
    public Optional<String> lostContext(String device) {
        return Optional.ofNullable(lost.get(device));
    }

    /**
     * Looks at a failure of work on {@code device}. A sticky driver error anywhere in its causes
     * (see {@link GpuCallException#isContextLost()}) marks the context lost, once.
     */
    public void report(String device, Throwable failure) {
        GpuCallException sticky = stickyCause(failure);
        if (sticky == null) {
            return;
        }
        String reason = sticky.codeName() + " from " + sticky.call();
        if (lost.putIfAbsent(device, reason) != null) {
            return;
        }
        List<DeviceUser> on = users(device);
        LOG.error(
                "GPU {} lost its context ({}); {} model(s) on it are shut off it{}",
                device,
                reason,
                on.size(),
                on.isEmpty() ? "" : "; a restart is the only way back, so liveness is marked broken");
        for (DeviceUser user : on) {
            user.deviceLost(reason);
        }
        if (!on.isEmpty()) {
            breakLiveness();
        }
    }

    private void breakLiveness() {
        if (events != null) {
            AvailabilityChangeEvent.publish(events, this, LivenessState.BROKEN);
        }
    }

    private static GpuCallException stickyCause(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof GpuCallException g && g.isContextLost()) {
                return g;
            }
            for (Throwable s : t.getSuppressed()) {
                if (s instanceof GpuCallException g && g.isContextLost()) {
                    return g;
                }
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return null;
    }
}
