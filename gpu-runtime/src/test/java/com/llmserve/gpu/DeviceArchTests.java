package com.llmserve.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class DeviceArchTests {

    private static final List<CodeObjectTarget> BUILT = List.of(
            new CodeObjectTarget(CodeObjectTarget.Kind.HSACO, "gfx90a"),
            new CodeObjectTarget(CodeObjectTarget.Kind.HSACO, "gfx942"),
            new CodeObjectTarget(CodeObjectTarget.Kind.HSACO, "gfx1100"),
            new CodeObjectTarget(CodeObjectTarget.Kind.CUBIN, "sm_80"),
            new CodeObjectTarget(CodeObjectTarget.Kind.CUBIN, "sm_90"),
            new CodeObjectTarget(CodeObjectTarget.Kind.PTX, "compute_80"));

    @Test
    void gcnArchNameLosesItsTargetFeatures() {
        DeviceArch arch = DeviceArch.ofGcnArchName("gfx90a:sramecc+:xnack-");
        assertThat(arch).isEqualTo(DeviceArch.GFX90A);
        assertThat(arch.name()).isEqualTo("gfx90a");
        assertThat(arch.major()).isEqualTo(9);
        assertThat(arch.minor()).isEqualTo(0x0a);
        assertThat(DeviceArch.ofGcnArchName("gfx1100").major()).isEqualTo(11);
    }

    @Test
    void malformedArchNamesAreRefused() {
        assertThatThrownBy(() -> DeviceArch.ofGcnArchName("sm_90")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void amdDevicesGetTheirExactHsaco() {
        assertThat(DeviceArch.GFX942.select(BUILT)).contains(BUILT.get(1));
        assertThat(DeviceArch.ofGcnArchName("gfx1100").select(BUILT)).contains(BUILT.get(2));
    }

    @Test
    void anAmdArchWithoutItsOwnHsacoHasNoCodeObject() {
        assertThat(DeviceArch.ofGcnArchName("gfx1030").select(BUILT)).isEmpty();
    }

    @Test
    void nvidiaDevicesGetTheCubinOfTheirMajorWithTheHighestMinorNotAboveTheirs() {
        assertThat(DeviceArch.SM_90.select(BUILT)).contains(BUILT.get(4));
        assertThat(DeviceArch.ofComputeCapability(8, 6).select(BUILT)).contains(BUILT.get(3));
    }

    @Test
    void newerNvidiaDevicesFallBackToPtx() {
        assertThat(DeviceArch.ofComputeCapability(10, 0).select(BUILT)).contains(BUILT.get(5));
        assertThat(DeviceArch.ofComputeCapability(12, 0).select(BUILT)).contains(BUILT.get(5));
    }

    @Test
    void olderNvidiaDevicesThanThePtxHaveNoCodeObject() {
        assertThat(DeviceArch.ofComputeCapability(7, 5).select(BUILT)).isEmpty();
    }

    @Test
    void ptxTargetsMapToTheirComputeCapability() {
        assertThat(BUILT.get(5).arch()).isEqualTo(DeviceArch.SM_80);
        assertThat(BUILT.get(5).fileName("norm")).isEqualTo("norm.compute_80.ptx");
    }
}
