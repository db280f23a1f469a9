package com.llmserve.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Peer access between the GPUs of one host (what a custom all-reduce kernel needs to read and write
 * the other devices' buffers over NVLink or XGMI): every device can access every other, enabling it
 * twice is fine, a device is not its own peer, and copies between two devices' buffers still move
 * the right bytes afterwards. Skipped on a host of one GPU.
 */
@RequiresGpu
class PeerAccessGpuTests {

    static final int N = 64 * 1024;

    @Test
    void everyPairOfDevicesCanAccessEachOtherAndEnablingTwiceIsFine(DevicePool pool) {
        List<Device> devices = pool.devices();
        assumeTrue(devices.size() >= 2, "peer access needs two GPUs; this host has " + devices.size());
        for (Device a : devices) {
            assertThat(a.canAccessPeer(a)).as(a + " is not its own peer").isFalse();
            assertThatThrownBy(() -> a.enablePeerAccess(a)).isInstanceOf(IllegalArgumentException.class);
            for (Device b : devices) {
                if (a == b) continue;
                boolean can = a.canAccessPeer(b);
                GpuReport.line(
                        "peer access %d -> %d: %s", a.info().ordinal(), b.info().ordinal(), can);
                assertThat(can).as(a + " can access " + b).isTrue();
                a.enablePeerAccess(b);
                a.enablePeerAccess(b); // already enabled: not an error
            }
        }
    }

    @Test
    void copiesBetweenTwoDevicesMoveTheBytesWithPeerAccessEnabled(DevicePool pool) throws Exception {
        List<Device> devices = pool.devices();
        assumeTrue(devices.size() >= 2, "peer access needs two GPUs; this host has " + devices.size());
        Device a = devices.get(0);
        Device b = devices.get(1);
        a.enablePeerAccess(b);
        b.enablePeerAccess(a);
        float[] values = HostData.randomFloats(N, 11);
        float[] others = HostData.randomFloats(N, 12);
        try (StreamLease la = a.streams().lease();
                StreamLease lb = b.streams().lease();
                DeviceBuffer onA = HostData.upload(la.stream(), values);
                DeviceBuffer onB = HostData.upload(lb.stream(), others)) {
            la.stream().synchronize();
            lb.stream().synchronize();
            // a's stream reads a's buffer and writes b's
            la.stream().copy(onA, onB, N * 4L);
            la.stream().synchronize();
            assertThat(HostData.download(lb.stream(), onB, N)).containsExactly(values);
            // and back: b's stream writes a's buffer
            lb.stream().fill(onB, (byte) 0);
            lb.stream().copy(onB, onA, N * 4L);
            lb.stream().synchronize();
            assertThat(HostData.download(la.stream(), onA, N)).containsOnly(0f);
        }
    }
}
