package com.llmserve.engine.gguf;

import com.llmserve.engine.gguf.GgufValue.GgufArray;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the header of a GGUF v2/v3 file from a mapped segment. Every length and count is checked
 * against the bytes that remain before anything is allocated, so a hostile file fails with a
 * {@link GgufFormatException} instead of an OutOfMemoryError or a long loop.
 */
final class GgufParser {

    static final int MAGIC = 0x46554747; // "GGUF" read as a little-endian uint32
    static final int DEFAULT_ALIGNMENT = 32;
    /** ggml tensors have at most four dimensions (GGML_MAX_DIMS). */
    static final int MAX_DIMS = 4;
    /** GGUF keys and tensor names are short; this bound only stops absurd lengths early. */
    static final int MAX_NAME_BYTES = 65_535;
    /** Arrays of arrays are legal in GGUF but unused in practice; bound the recursion. */
    static final int MAX_ARRAY_NESTING = 4;

    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfDouble F64 =
            ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    record TensorInfo(String name, GgmlType type, long[] shape, long relativeOffset, long byteSize) {}

    record Header(int version, GgufMetadata metadata, List<TensorInfo> tensors, int alignment, long dataStart) {}

    private final Path file;
    private final MemorySegment seg;
    private final long size;
    private long pos;

    GgufParser(Path file, MemorySegment seg) {
        this.file = file;
        this.seg = seg;
        this.size = seg.byteSize();
    }

    Header parse() {
        need(4, "the magic number");
        int magic = seg.get(U32, 0);
        if (magic != MAGIC) {
            throw fail(0, String.format("not a GGUF file: magic is 0x%08x, expected 0x%08x (\"GGUF\")", magic, MAGIC));
        }
        pos = 4;
        int version = u32("the version");
        if (version == 1) {
            throw fail(4, "GGUF version 1 is not supported (only 2 and 3); convert the file with a current llama.cpp");
        }
        if (version != 2 && version != 3) {
            throw fail(4, "unsupported GGUF version " + Integer.toUnsignedString(version) + " (supported: 2, 3)");
        }
        long tensorCount = count("the tensor count", 8 + 4 + 4 + 8);
        long kvCount = count("the metadata count", 8 + 4 + 1);

        Map<String, GgufValue> kvs = new LinkedHashMap<>();
        for (long i = 0; i < kvCount; i++) {
            long at = pos;
            String key = string("metadata key #" + i, MAX_NAME_BYTES);
            int typeId = u32("the type of metadata key '" + key + "'");
            GgufValueType type = GgufValueType.fromId(typeId)
                    .orElseThrow(() -> fail(pos - 4, "metadata key '" + key + "' has unknown value type " + typeId));
            GgufValue value = value(type, key, 0);
            if (kvs.putIfAbsent(key, value) != null) {
                throw fail(at, "duplicate metadata key '" + key + "'");
            }
        }
        GgufMetadata metadata = new GgufMetadata(file, kvs);
        int alignment = alignment(metadata);

        List<TensorInfo> tensors = new ArrayList<>((int) Math.min(tensorCount, 1 << 16));
        Set<String> names = new HashSet<>();
        for (long i = 0; i < tensorCount; i++) {
            long at = pos;
            TensorInfo t = tensorInfo(i, alignment);
            if (!names.add(t.name())) {
                throw fail(at, "duplicate tensor name '" + t.name() + "'");
            }
            tensors.add(t);
        }
        long dataStart = align(pos, alignment);
        checkPlacement(tensors, dataStart);
        return new Header(version, metadata, List.copyOf(tensors), alignment, dataStart);
    }

    private int alignment(GgufMetadata metadata) {
        if (!metadata.contains("general.alignment")) {
            return DEFAULT_ALIGNMENT;
        }
        long a = metadata.getLong("general.alignment");
        if (a <= 0 || a > (1 << 30) || Long.bitCount(a) != 1) {
            throw new GgufFormatException(file, "general.alignment = " + a + " is not a power of two");
        }
        return (int) a;
    }

    private TensorInfo tensorInfo(long index, int alignment) {
        String name = string("the name of tensor #" + index, MAX_NAME_BYTES);
        int dims = u32("the dimension count of tensor '" + name + "'");
        if (dims < 1 || dims > MAX_DIMS) {
            throw fail(
                    pos - 4,
                    "tensor '" + name + "' has " + Integer.toUnsignedString(dims) + " dimensions (1 to " + MAX_DIMS
                            + " allowed)");
        }
        long[] shape = new long[dims];
        long elements = 1;
        for (int d = 0; d < dims; d++) {
            shape[d] = u64("dimension " + d + " of tensor '" + name + "'");
            if (shape[d] < 0) {
                throw fail(
                        pos - 8,
                        "tensor '" + name + "' dimension " + d + " = " + Long.toUnsignedString(shape[d])
                                + " is absurd");
            }
            try {
                elements = Math.multiplyExact(elements, shape[d]);
            } catch (ArithmeticException e) {
                throw fail(pos - 8, "tensor '" + name + "' has more elements than a 64-bit count holds");
            }
        }
        int typeId = u32("the type of tensor '" + name + "'");
        GgmlType type = GgmlType.fromId(typeId)
                .orElseThrow(() -> fail(
                        pos - 4,
                        "tensor '" + name + "' has unknown ggml type " + Integer.toUnsignedString(typeId) + " (known: "
                                + GgmlType.knownIds() + ")"));
        if (shape[0] % type.blockSize() != 0) {
            throw fail(
                    pos - 4,
                    "tensor '" + name + "' row length " + shape[0] + " is not a multiple of the " + type
                            + " block size " + type.blockSize());
        }
        long offset = u64("the data offset of tensor '" + name + "'");
        if (offset < 0 || offset % alignment != 0) {
            throw fail(
                    pos - 8,
                    "tensor '" + name + "' offset " + Long.toUnsignedString(offset)
                            + " is not a multiple of the alignment " + alignment);
        }
        long bytes;
        try {
            bytes = type.byteSize(elements);
        } catch (ArithmeticException e) {
            throw fail(pos - 8, "tensor '" + name + "' byte size overflows");
        }
        return new TensorInfo(name, type, shape, offset, bytes);
    }

    /** Every tensor lies inside the data section and no two share a byte. */
    private void checkPlacement(List<TensorInfo> tensors, long dataStart) {
        if (tensors.isEmpty()) {
            return;
        }
        if (dataStart > size) {
            throw new GgufFormatException(
                    file,
                    "truncated: the tensor data section starts at byte " + dataStart + " but the file has only " + size
                            + " bytes");
        }
        long available = size - dataStart;
        List<TensorInfo> byOffset = new ArrayList<>(tensors);
        byOffset.sort(Comparator.comparingLong(TensorInfo::relativeOffset));
        TensorInfo previous = null;
        for (TensorInfo t : byOffset) {
            if (t.relativeOffset() > available || t.byteSize() > available - t.relativeOffset()) {
                throw new GgufFormatException(
                        file,
                        "tensor '" + t.name() + "' (" + t.byteSize() + " bytes at data offset " + t.relativeOffset()
                                + ") ends past the end of the file (data section holds " + available + " bytes)");
            }
            if (previous != null && previous.relativeOffset() + previous.byteSize() > t.relativeOffset()) {
                throw new GgufFormatException(file, "tensors '" + previous.name() + "' and '" + t.name() + "' overlap");
            }
            previous = t;
        }
    }

    private GgufValue value(GgufValueType type, String key, int depth) {
        Object v =
                switch (type) {
                    case UINT8 -> (long) Byte.toUnsignedInt(bytes(1, key)[0]);
                    case INT8 -> (long) bytes(1, key)[0];
                    case UINT16 -> (long) Short.toUnsignedInt(u16(key));
                    case INT16 -> (long) u16(key);
                    case UINT32 -> Integer.toUnsignedLong(u32(key));
                    case INT32 -> (long) u32(key);
                    case UINT64, INT64 -> u64(key);
                    case FLOAT32 -> f32(key);
                    case FLOAT64 -> f64(key);
                    case BOOL -> bool(key);
                    case STRING -> string(key, Integer.MAX_VALUE - 16);
                    case ARRAY -> array(key, depth);
                };
        return new GgufValue(type, v);
    }

    private GgufArray array(String key, int depth) {
        if (depth >= MAX_ARRAY_NESTING) {
            throw fail(pos, "metadata key '" + key + "' nests arrays deeper than " + MAX_ARRAY_NESTING);
        }
        int typeId = u32("the element type of array '" + key + "'");
        GgufValueType et = GgufValueType.fromId(typeId)
                .orElseThrow(() -> fail(pos - 4, "array '" + key + "' has unknown element type " + typeId));
        long n = count("the length of array '" + key + "'", et.minSize());
        if (n > Integer.MAX_VALUE - 8) {
            throw fail(pos - 8, "array '" + key + "' has " + n + " elements, more than this reader supports");
        }
        int len = (int) n;
        String what = "array '" + key + "'";
        Object values =
                switch (et) {
                    case UINT8, INT8 -> bytes(len, what);
                    case UINT16, INT16 -> {
                        short[] a = new short[len];
                        MemorySegment.copy(seg, U16, take(2L * len, what), a, 0, len);
                        yield a;
                    }
                    case UINT32, INT32 -> {
                        int[] a = new int[len];
                        MemorySegment.copy(seg, U32, take(4L * len, what), a, 0, len);
                        yield a;
                    }
                    case UINT64, INT64 -> {
                        long[] a = new long[len];
                        MemorySegment.copy(seg, U64, take(8L * len, what), a, 0, len);
                        yield a;
                    }
                    case FLOAT32 -> {
                        float[] a = new float[len];
                        MemorySegment.copy(seg, F32, take(4L * len, what), a, 0, len);
                        yield a;
                    }
                    case FLOAT64 -> {
                        double[] a = new double[len];
                        MemorySegment.copy(seg, F64, take(8L * len, what), a, 0, len);
                        yield a;
                    }
                    case BOOL -> {
                        boolean[] a = new boolean[len];
                        for (int i = 0; i < len; i++) {
                            a[i] = bool(what);
                        }
                        yield a;
                    }
                    case STRING -> {
                        String[] a = new String[len];
                        for (int i = 0; i < len; i++) {
                            a[i] = string(what + " element " + i, Integer.MAX_VALUE - 16);
                        }
                        yield a;
                    }
                    case ARRAY -> {
                        GgufArray[] a = new GgufArray[len];
                        for (int i = 0; i < len; i++) {
                            a[i] = array(key + "[" + i + "]", depth + 1);
                        }
                        yield a;
                    }
                };
        return new GgufArray(et, values);
    }

    /** A uint64 count of items that each take at least {@code minItemBytes}; absurd counts fail here. */
    private long count(String what, int minItemBytes) {
        long n = u64(what);
        long remaining = size - pos;
        if (n < 0 || (minItemBytes > 0 && n > remaining / minItemBytes)) {
            throw fail(
                    pos - 8,
                    what + " is " + Long.toUnsignedString(n) + ", but only " + remaining + " bytes remain (at least "
                            + minItemBytes + " per item)");
        }
        return n;
    }

    private String string(String what, int maxBytes) {
        long n = u64("the length of " + what);
        if (n < 0 || n > maxBytes) {
            throw fail(pos - 8, what + " has an absurd length " + Long.toUnsignedString(n));
        }
        long at = take(n, what);
        ByteBuffer buf = seg.asSlice(at, n).asByteBuffer();
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPLACE)
                    .onUnmappableCharacter(CodingErrorAction.REPLACE)
                    .decode(buf)
                    .toString();
        } catch (CharacterCodingException e) {
            throw fail(at, what + " is not UTF-8");
        }
    }

    private byte[] bytes(int n, String what) {
        byte[] b = new byte[n];
        MemorySegment.copy(seg, ValueLayout.JAVA_BYTE, take(n, what), b, 0, n);
        return b;
    }

    private boolean bool(String what) {
        byte b = seg.get(ValueLayout.JAVA_BYTE, take(1, what));
        if (b != 0 && b != 1) {
            throw fail(pos - 1, what + ": boolean byte is " + b);
        }
        return b == 1;
    }

    private short u16(String what) {
        return seg.get(U16, take(2, what));
    }

    private int u32(String what) {
        return seg.get(U32, take(4, what));
    }

    private long u64(String what) {
        return seg.get(U64, take(8, what));
    }

    private float f32(String what) {
        return seg.get(F32, take(4, what));
    }

    private double f64(String what) {
        return seg.get(F64, take(8, what));
    }

    /** Reserves {@code n} bytes at the cursor and returns their offset. */
    private long take(long n, String what) {
        need(n, what);
        long at = pos;
        pos += n;
        return at;
    }

    private void need(long n, String what) {
        if (n < 0 || n > size - pos) {
            throw fail(pos, "truncated: " + what + " needs " + n + " bytes but only " + (size - pos) + " remain");
        }
    }

    private GgufFormatException fail(long at, String message) {
        return new GgufFormatException(file, "at byte " + at + ": " + message);
    }

    static long align(long offset, int alignment) {
        return (offset + alignment - 1) / alignment * alignment;
    }
}
