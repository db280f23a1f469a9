package com.llmserve.gpu;

/**
 * One target the kernels were built for, as listed in the kernels jar's {@code code-objects.tsv}.
 *
 * @param kind the code-object format
 * @param name the target as the build names it: {@code gfx942}, {@code sm_90}, {@code compute_80}
 */
public record CodeObjectTarget(Kind kind, String name) {

    /** Code-object formats, with the file extension the build gives them. */
    public enum Kind {
        HSACO,
        CUBIN,
        PTX;

        public String extension() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        static Kind ofExtension(String ext) {
            return valueOf(ext.toUpperCase(java.util.Locale.ROOT));
        }
    }

    /** The arch this target was compiled for; PTX's virtual {@code compute_XY} maps to {@code sm_XY}. */
    public DeviceArch arch() {
        return switch (kind) {
            case HSACO -> DeviceArch.ofGcnArchName(name);
            case CUBIN, PTX -> {
                String digits = name.substring(name.indexOf('_') + 1);
                yield DeviceArch.ofComputeCapability(
                        Integer.parseInt(digits.substring(0, digits.length() - 1)),
                        Character.digit(digits.charAt(digits.length() - 1), 10));
            }
        };
    }

    /** The resource file name for a module, e.g. {@code norm.gfx942.hsaco}. */
    public String fileName(String module) {
        return module + "." + name + "." + kind.extension();
    }
}
