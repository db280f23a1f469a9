package com.llmserve.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The allocator's policy against a fake device: what is reused when, and that nothing leaks. */
class CachingAllocatorTests {

    /** Device memory that counts mallocs and models events as "pending until completed". */
    static final class FakeMemory implements DeviceMemory {
        final Set<Long> live = new HashSet<>();
        final Map<Long, Boolean> eventDone = new HashMap<>();
        long nextPointer = 0x1000;
        long nextEvent = 1;
        long capacity = Long.MAX_VALUE;
        long used;
        final Map<Long, Long> sizes = new HashMap<>();
        int mallocs;
        int frees;
        int eventsSynchronized;

        @Override
        public long malloc(long bytes) {
            if (used + bytes > capacity) {
                throw new GpuCallException("fake", "fakeMalloc", 2, "fakeErrorOutOfMemory", "out of memory", true);
            }
            long p = nextPointer;
            nextPointer += bytes;
            live.add(p);
            sizes.put(p, bytes);
            used += bytes;
            mallocs++;
            return p;
        }

        @Override
        public void free(long pointer) {
            assertThat(live.remove(pointer)).as("free of a live pointer").isTrue();
            used -= sizes.remove(pointer);
            frees++;
        }

        @Override
        public long createEvent() {
            long e = nextEvent++;
            eventDone.put(e, false);
            return e;
        }

        @Override
        public void recordEvent(long event, long stream) {
            eventDone.put(event, false); // work queued before it is still pending
        }

        @Override
        public boolean eventDone(long event) {
            return eventDone.get(event);
        }

        @Override
        public void synchronizeEvent(long event) {
            eventsSynchronized++;
            eventDone.put(event, true);
        }

        @Override
        public void destroyEvent(long event) {
            eventDone.remove(event);
        }

        void completeAll() {
            eventDone.replaceAll((e, done) -> true);
        }
    }

    private FakeMemory memory;
    private CachingAllocator allocator;
    private Stream streamA;
    private Stream streamB;

    @BeforeEach
    void setUp() {
        memory = new FakeMemory();
        allocator = new CachingAllocator(null, memory);
        streamA = new Stream(null, 0xA);
        streamB = new Stream(null, 0xB);
    }

    @Test
    void sizesRoundToPowersOfTwoThenTwoMebibyteGranules() {
        assertThat(CachingAllocator.roundUp(1)).isEqualTo(512);
        assertThat(CachingAllocator.roundUp(513)).isEqualTo(1024);
        assertThat(CachingAllocator.roundUp(1 << 20)).isEqualTo(1 << 20);
        assertThat(CachingAllocator.roundUp((1 << 20) + 1)).isEqualTo(2 << 20);
        assertThat(CachingAllocator.roundUp((5 << 20) + 1)).isEqualTo(6 << 20);
        assertThatThrownBy(() -> CachingAllocator.roundUp(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aFreedDeviceWideBlockIsReusedWithoutTheDriver() {
        DeviceBuffer first = allocator.allocate(1000, null);
        long address = first.address();
        first.close();
        DeviceBuffer second = allocator.allocate(900, null);
        assertThat(second.address()).isEqualTo(address);
        assertThat(memory.mallocs).isEqualTo(1);
        assertThat(allocator.stats()).isEqualTo(new AllocatorStats(1024, 0, 1, 1));
    }

    @Test
    void aStreamScopedBlockIsReusedAtOnceBySameStreamButNotByAnotherUntilItsEventCompletes() {
        DeviceBuffer onA = streamA.allocateFrom(allocator, 4096);
        long address = onA.address();
        onA.close();

        DeviceBuffer onB = streamB.allocateFrom(allocator, 4096);
        assertThat(onB.address())
                .as("B must not get A's block while A's work may still use it")
                .isNotEqualTo(address);
        onB.close();

        DeviceBuffer againOnA = streamA.allocateFrom(allocator, 4096);
        assertThat(againOnA.address())
                .as("stream order protects reuse on the same stream")
                .isEqualTo(address);
        againOnA.close();

        memory.completeAll();
        DeviceBuffer unscoped = allocator.allocate(4096, null);
        assertThat(unscoped.address()).isIn(address, onB.address());
        assertThat(memory.mallocs).isEqualTo(2);
    }

    @Test
    void outOfMemoryFreesTheCacheAndRetriesOnce() {
        memory.capacity = 4 << 20;
        allocator.allocate(3 << 20, null).close(); // 4 MiB block, cached
        assertThat(allocator.stats().bytesCached()).isEqualTo(4 << 20);

        DeviceBuffer big = allocator.allocate(2 << 20, null); // different bin: needs the driver, which is full
        assertThat(memory.frees).isEqualTo(1);
        assertThat(allocator.stats().bytesCached()).isZero();
        big.close();
    }

    @Test
    void outOfMemoryWithAnEmptyCacheReachesTheCaller() {
        memory.capacity = 1 << 20;
        assertThatThrownBy(() -> allocator.allocate(4 << 20, null))
                .isInstanceOfSatisfying(GpuCallException.class, e -> assertThat(e.isOutOfMemory())
                        .isTrue());
    }

    @Test
    void trimWaitsForPendingWorkBeforeFreeing() {
        streamA.allocateFrom(allocator, 100).close();
        allocator.trim();
        assertThat(memory.eventsSynchronized).isEqualTo(1);
        assertThat(memory.live).isEmpty();
    }

    @Test
    void closeReturnsEverythingCachedAndDestroysItsEvents() {
        for (int i = 0; i < 10; i++)
            streamA.allocateFrom(allocator, 1L << i + 10).close();
        DeviceBuffer stillOpen = allocator.allocate(64, null);
        allocator.close();
        assertThat(memory.live).containsExactly(stillOpen.address());
        assertThat(memory.eventDone).isEmpty();
        stillOpen.close(); // after the device closed: a no-op, not a double free
        assertThat(memory.frees).isEqualTo(10);
    }
}
