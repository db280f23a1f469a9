package com.llmserve.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.llmserve.kernels.Kernel;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

class KernelArgsTests {

    @Test
    void eachPointerOfTheArrayAddressesItsArgumentsValue() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment scratch = arena.allocate(KernelArgs.scratchBytes(), 16);
            KernelArgs args = KernelArgs.of().i64(0x1234_5678_9abcL).i32(-7).f32(1.5f);
            args.writeTo(scratch);
            MemorySegment[] value = new MemorySegment[3];
            for (int i = 0; i < 3; i++) {
                value[i] = scratch.get(ValueLayout.ADDRESS, i * 8L).reinterpret(8);
            }
            assertThat(value[0].get(ValueLayout.JAVA_LONG, 0)).isEqualTo(0x1234_5678_9abcL);
            assertThat(value[1].get(ValueLayout.JAVA_INT, 0)).isEqualTo(-7);
            assertThat(value[2].get(ValueLayout.JAVA_FLOAT, 0)).isEqualTo(1.5f);
            assertThat(value[0].address() - scratch.address()).isEqualTo(3 * 8L);
        }
    }

    @Test
    void aNullPointerIsAnEightByteZero() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment scratch = arena.allocate(KernelArgs.scratchBytes(), 16);
            scratch.fill((byte) -1);
            KernelArgs.of().nullPointer().writeTo(scratch);
            assertThat(scratch.get(ValueLayout.ADDRESS, 0).reinterpret(8).get(ValueLayout.JAVA_LONG, 0))
                    .isZero();
        }
    }

    @Test
    void argumentsMatchingTheDeclaredParametersPass() {
        // ls_rms_norm_q8_v4(x, r, weight, y, q, d, sums, cols, eps) with r null: the plain rmsnorm
        KernelArgs args = pointers(7).i32(4096).f32(1e-5f);
        assertThatCode(() -> args.check(Kernel.RMS_NORM_Q8_V4)).doesNotThrowAnyException();
        KernelArgs repack = pointers(3).i64(1L << 33);
        assertThatCode(() -> repack.check(Kernel.REPACK_Q8_0)).doesNotThrowAnyException();
    }

    @Test
    void anArgumentOfAnotherKindIsRefusedNamingTheParameterAndBothKinds() {
        // the old way of passing a null pointer: a 64-bit integer
        KernelArgs args = KernelArgs.of().nullPointer().i64(0);
        for (int i = 0; i < 5; i++) args.nullPointer();
        args.i32(4096).f32(1e-5f);
        assertThatThrownBy(() -> args.check(Kernel.RMS_NORM_Q8_V4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("ls_rms_norm_q8_v4: parameter 1 (r) is POINTER, the launch passes I64");
        KernelArgs swapped = pointers(3).f32(1e-5f).i32(4096);
        assertThatThrownBy(() -> swapped.check(Kernel.RMS_NORM_V4))
                .hasMessage("ls_rms_norm_v4: parameter 3 (cols) is I32, the launch passes F32");
    }

    @Test
    void aMissingOrExtraArgumentIsRefused() {
        assertThatThrownBy(() -> pointers(3).i32(4096).check(Kernel.RMS_NORM_V4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("ls_rms_norm_v4 takes 5 arguments, the launch passes 4: parameter 4 (eps, F32) is missing");
        assertThatThrownBy(() -> pointers(3).i32(4096).f32(1e-5f).i32(1).check(Kernel.RMS_NORM_V4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("ls_rms_norm_v4 takes 5 arguments, the launch passes 6: argument 5 (I32) has no parameter");
    }

    @Test
    void theCheckAllocatesNothing() {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        KernelArgs args = pointers(6).i32(1).i32(2).i32(3).i32(4);
        Kernel kernel = Kernel.MMVQ_Q4_0_8;
        long thread = Thread.currentThread().threadId();
        args.check(kernel);
        long before = threads.getThreadAllocatedBytes(thread);
        for (int i = 0; i < 100_000; i++) args.check(kernel);
        long allocated = threads.getThreadAllocatedBytes(thread) - before;
        assertThat(allocated).as("bytes allocated by 100000 checks").isLessThan(10_000);
    }

    /** {@code n} pointer arguments (null: the check looks at kinds only). */
    private static KernelArgs pointers(int n) {
        KernelArgs args = KernelArgs.of();
        for (int i = 0; i < n; i++) args.nullPointer();
        return args;
    }

    @Test
    void tooManyArgumentsAreRefused() {
        KernelArgs args = KernelArgs.of();
        for (int i = 0; i < KernelArgs.MAX_ARGS; i++) args.i32(i);
        assertThatThrownBy(() -> args.i32(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aLaunchCoveringNItemsRoundsBlocksUp() {
        assertThat(LaunchConfig.covering(1000, 256)).isEqualTo(LaunchConfig.of(4, 256));
        assertThat(LaunchConfig.covering(0, 256).gridX()).isEqualTo(1);
        assertThatThrownBy(() -> LaunchConfig.of(0, 256)).isInstanceOf(IllegalArgumentException.class);
    }
}
