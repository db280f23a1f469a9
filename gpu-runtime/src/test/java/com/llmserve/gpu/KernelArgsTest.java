package com.llmserve.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

class KernelArgsTest {

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
