package com.llmserve.gpu;

import java.util.Collection;
import java.util.Comparator;
import java.util.Objects;
import java.util.Optional;

/**
 * A device's instruction-set architecture: {@code gfx942} for AMD, {@code sm_90} for NVIDIA.
 * Code-object choice and arch thresholds compare these values, never raw strings.
 *
 * @param vendor who made the device
 * @param name the canonical target name: the gfx name without target features, or {@code sm_XY}
 * @param major compute capability major (NVIDIA) or gfx major version (AMD, e.g. 9 for gfx942)
 * @param minor compute capability minor (NVIDIA) or the gfx minor+stepping digits (AMD, 0x42 for gfx942)
 */
public record DeviceArch(Vendor vendor, String name, int major, int minor) {

    /** Hopper, the first NVIDIA generation with our sm_90 cubins. */
    public static final DeviceArch SM_90 = ofComputeCapability(9, 0);
    /** Ampere data-centre parts (A100), the oldest NVIDIA target we build. */
    public static final DeviceArch SM_80 = ofComputeCapability(8, 0);
    /** MI300 (CDNA3). */
    public static final DeviceArch GFX942 = ofGcnArchName("gfx942");
    /** MI200 (CDNA2). */
    public static final DeviceArch GFX90A = ofGcnArchName("gfx90a");
    /** Radeon RX 7900 (RDNA3), wave32 by default. */
    public static final DeviceArch GFX1100 = ofGcnArchName("gfx1100");

    public DeviceArch {
        Objects.requireNonNull(vendor, "vendor");
        Objects.requireNonNull(name, "name");
    }

    /** An NVIDIA arch from its compute capability. */
    public static DeviceArch ofComputeCapability(int major, int minor) {
        return new DeviceArch(Vendor.NVIDIA, "sm_" + major + minor, major, minor);
    }

    /**
     * An AMD arch from HIP's {@code gcnArchName}, e.g. {@code gfx90a:sramecc+:xnack-}: the target
     * features after the first colon do not change which code object runs, so they are dropped.
     */
    public static DeviceArch ofGcnArchName(String gcnArchName) {
        String gfx = gcnArchName.strip();
        int colon = gfx.indexOf(':');
        if (colon >= 0) gfx = gfx.substring(0, colon);
        if (!gfx.matches("gfx[0-9]+[0-9a-f]{2}")) {
            throw new IllegalArgumentException("not a gfx arch name: '" + gcnArchName + "'");
        }
        // gfx names are <major><minor><stepping> with the last two digits in hex: gfx90a = 9, 0, a.
        String digits = gfx.substring(3);
        int major = Integer.parseInt(digits.substring(0, digits.length() - 2));
        int minor = Integer.parseInt(digits.substring(digits.length() - 2), 16);
        return new DeviceArch(Vendor.AMD, gfx, major, minor);
    }

    /** True when this NVIDIA arch is at least {@code other}'s compute capability. */
    public boolean atLeast(DeviceArch other) {
        if (vendor != other.vendor) return false;
        return major != other.major ? major > other.major : minor >= other.minor;
    }

    /**
     * Picks the code object this device can run from the targets that were built. AMD: the exact
     * gfx name (HSACO is not portable across gfx versions). NVIDIA: a cubin of the same major and
     * the highest minor not above ours (SASS is compatible within a major), else the highest PTX not
     * above our compute capability, which the driver JIT-compiles.
     */
    public Optional<CodeObjectTarget> select(Collection<CodeObjectTarget> built) {
        return switch (vendor) {
            case AMD ->
                built.stream()
                        .filter(t -> t.kind() == CodeObjectTarget.Kind.HSACO
                                && t.name().equals(name))
                        .findFirst();
            case NVIDIA ->
                built.stream()
                        .filter(t -> t.kind() == CodeObjectTarget.Kind.CUBIN)
                        .filter(t -> t.arch().major == major && t.arch().minor <= minor)
                        .max(Comparator.comparingInt(t -> t.arch().minor))
                        .or(() -> built.stream()
                                .filter(t -> t.kind() == CodeObjectTarget.Kind.PTX && atLeast(t.arch()))
                                .max(Comparator.comparingInt((CodeObjectTarget t) -> t.arch().major)
                                        .thenComparingInt(t -> t.arch().minor)));
        };
    }

    @Override
    public String toString() {
        return name;
    }
}
