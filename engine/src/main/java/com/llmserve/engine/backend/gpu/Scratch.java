package com.llmserve.engine.backend.gpu;

import com.llmserve.gpu.Device;
import com.llmserve.gpu.DeviceBuffer;
import java.util.EnumMap;
import java.util.Map;

/**
 * Device scratch buffers the kernels share, each grown on demand and kept: captured graphs bake
 * their addresses in, so a growth is reported ({@link Workspace} counts it as a new generation).
 * Sized when an operation is recorded, never while kernels run.
 */
final class Scratch implements AutoCloseable {

    enum Slot {
        /** Q8_0 activations: int8 values. */
        XQ,
        /** Q8_0 activations: one float scale per 32. */
        XD,
        /** Q8_0 activations: one int sum per 32. */
        XS,
        /** Q8_K-rounded float activations. */
        XF,
        /** Half activations, the B operand of the BLAS path. */
        XH,
        /** A band of weights dequantized to half, the A operand of the BLAS path. */
        WDEQ,
        /** Flash-decoding partial results. */
        ATTENTION,
        /**
         * Per row and kv head, the splits of the split attention kernels that have finished: zero
         * between launches (the last split resets its counter), so zeroed when allocated.
         */
        ATTENTION_ARRIVALS,
        /** Split-K partial sums of {@code ls_mmq_*}: per tile and split, a block's LS_MMQ_ROWS x LS_MMQ_COLS floats. */
        MMQ_PARTIALS,
        /**
         * Per tile of {@code ls_mmq_*}, the splits that have finished: zero between launches (the
         * last split resets its counter), so zeroed when allocated.
         */
        MMQ_ARRIVALS,
        /** Top-k ids and values. */
        TOPK_IDS,
        TOPK_VALUES,
        /** A mixture's groups of one column (a count, then 4 ints each), written by ls_group_experts. */
        EXPERT_SINGLES,
        /** A mixture's wider groups (a count, then 2 + 2 * columns ints each: LS_MMV_MAX_COLS or LS_MMQ_COLS). */
        EXPERT_MULTIS
    }

    private final Device device;
    private final Map<Slot, DeviceBuffer> buffers = new EnumMap<>(Slot.class);

    Scratch(Device device) {
        this.device = device;
    }

    /** Whether {@link #ensure} would free {@code slot}'s buffer for a larger one. */
    boolean moves(Slot slot, long bytes) {
        DeviceBuffer b = buffers.get(slot);
        return b != null && b.byteSize() < bytes;
    }

    /**
     * Makes {@code slot} hold at least {@code bytes}.
     *
     * @return true when the buffer moved (graphs that use it are stale)
     */
    boolean ensure(Slot slot, long bytes) {
        DeviceBuffer b = buffers.get(slot);
        if (b != null && b.byteSize() >= bytes) {
            return false;
        }
        long size = Math.max(bytes, b == null ? 0 : b.byteSize() + b.byteSize() / 2);
        if (b != null) {
            b.close(); // no step that reads it still runs (Workspace#beforeMoving)
        }
        DeviceBuffer grown = device.allocate(Math.max(size, 256));
        buffers.put(slot, grown);
        if (slot == Slot.ATTENTION_ARRIVALS || slot == Slot.MMQ_ARRIVALS) {
            HostTransfer.zero(device, grown);
        }
        return true;
    }

    DeviceBuffer get(Slot slot) {
        DeviceBuffer b = buffers.get(slot);
        if (b == null) {
            throw new IllegalStateException("scratch " + slot + " used before it was sized");
        }
        return b;
    }

    @Override
    public void close() {
        buffers.values().forEach(DeviceBuffer::close);
        buffers.clear();
    }
}
