package com.llmserve.engine.gguf;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Writes GGUF bytes for tests, including deliberately broken ones (any field can be forced). */
public final class GgufBuilder {

    private final ByteArrayOutputStream kv = new ByteArrayOutputStream();
    private final List<byte[]> tensorInfos = new ArrayList<>();
    private final List<byte[]> tensorData = new ArrayList<>();
    private int kvCount;
    private int version = 3;
    private int alignment = 32;
    private long dataOffset;
    private Long forcedTensorCount;
    private Long forcedKvCount;
    private int magic = GgufParser.MAGIC;

    public GgufBuilder version(int v) {
        this.version = v;
        return this;
    }

    public GgufBuilder magic(int m) {
        this.magic = m;
        return this;
    }

    public GgufBuilder forceTensorCount(long n) {
        this.forcedTensorCount = n;
        return this;
    }

    public GgufBuilder forceKvCount(long n) {
        this.forcedKvCount = n;
        return this;
    }

    public GgufBuilder alignment(int a) {
        this.alignment = a;
        return kv("general.alignment", GgufValueType.UINT32, le(4).putInt(a));
    }

    public GgufBuilder kv(String key, GgufValueType type, ByteBuffer value) {
        write(kv, str(key));
        write(kv, le(4).putInt(type.id()));
        write(kv, value);
        kvCount++;
        return this;
    }

    public GgufBuilder kvString(String key, String value) {
        return kv(key, GgufValueType.STRING, str(value));
    }

    public GgufBuilder kvStrings(String key, String... values) {
        ByteArrayOutputStream array = new ByteArrayOutputStream();
        write(array, le(12).putInt(GgufValueType.STRING.id()).putLong(values.length));
        for (String v : values) {
            write(array, str(v));
        }
        byte[] bytes = array.toByteArray();
        return kv(key, GgufValueType.ARRAY, ByteBuffer.wrap(bytes).position(bytes.length));
    }

    public GgufBuilder kvU32(String key, int value) {
        return kv(key, GgufValueType.UINT32, le(4).putInt(value));
    }

    public GgufBuilder kvF32(String key, float value) {
        return kv(key, GgufValueType.FLOAT32, le(4).putFloat(value));
    }

    /**
     * Any metadata value as {@link GgufParser} reads it back: an integer is written in its type's
     * width (the low bits of its {@code Long}), an array element by element, nested arrays included.
     */
    public GgufBuilder kvValue(String key, GgufValue value) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        writeValue(bytes, value.type(), value.value());
        byte[] b = bytes.toByteArray();
        return kv(key, value.type(), ByteBuffer.wrap(b).position(b.length));
    }

    private static void writeValue(ByteArrayOutputStream out, GgufValueType type, Object v) {
        switch (type) {
            case UINT8, INT8 -> out.write(((Number) v).intValue());
            case UINT16, INT16 -> write(out, le(2).putShort(((Number) v).shortValue()));
            case UINT32, INT32 -> write(out, le(4).putInt(((Number) v).intValue()));
            case UINT64, INT64 -> write(out, le(8).putLong(((Number) v).longValue()));
            case FLOAT32 -> write(out, le(4).putFloat(((Number) v).floatValue()));
            case FLOAT64 -> write(out, le(8).putDouble(((Number) v).doubleValue()));
            case BOOL -> out.write((Boolean) v ? 1 : 0);
            case STRING -> write(out, str((String) v));
            case ARRAY -> {
                GgufValue.GgufArray a = (GgufValue.GgufArray) v;
                write(out, le(12).putInt(a.elementType().id()).putLong(a.length()));
                for (int i = 0; i < a.length(); i++) {
                    writeValue(out, a.elementType(), java.lang.reflect.Array.get(a.values(), i));
                }
            }
        }
    }

    public GgufBuilder kvRaw(byte[] raw) {
        kv.writeBytes(raw);
        kvCount++;
        return this;
    }

    /** Adds a tensor with the given data placed at the next aligned offset. */
    public GgufBuilder tensor(String name, GgmlType type, long[] shape, byte[] data) {
        long offset = (dataOffset + alignment - 1) / alignment * alignment;
        tensorAt(name, type, shape, offset, data);
        return this;
    }

    /** Adds a tensor info with an explicit data offset; its data is written there. */
    public GgufBuilder tensorAt(String name, GgmlType type, long[] shape, long offset, byte[] data) {
        return tensorInfo(name, shape.length, shape, type.id(), offset, data, offset);
    }

    public GgufBuilder tensorInfo(
            String name, int dims, long[] shape, int typeId, long offset, byte[] data, long writeAt) {
        ByteArrayOutputStream info = new ByteArrayOutputStream();
        write(info, str(name));
        write(info, le(4).putInt(dims));
        for (long d : shape) {
            write(info, le(8).putLong(d));
        }
        write(info, le(4).putInt(typeId));
        write(info, le(8).putLong(offset));
        tensorInfos.add(info.toByteArray());
        if (data != null) {
            ByteBuffer placed = ByteBuffer.allocate(16 + data.length).order(ByteOrder.LITTLE_ENDIAN);
            placed.putLong(writeAt).putLong(data.length).put(data);
            tensorData.add(placed.array());
            dataOffset = Math.max(dataOffset, writeAt + data.length);
        }
        return this;
    }

    public byte[] build() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        write(out, le(4).putInt(magic));
        write(out, le(4).putInt(version));
        write(out, le(8).putLong(forcedTensorCount != null ? forcedTensorCount : tensorInfos.size()));
        write(out, le(8).putLong(forcedKvCount != null ? forcedKvCount : kvCount));
        out.writeBytes(kv.toByteArray());
        tensorInfos.forEach(out::writeBytes);
        int pad = (int) ((alignment - out.size() % alignment) % alignment);
        out.writeBytes(new byte[pad]);
        byte[] header = out.toByteArray();
        byte[] file = new byte[(int) (header.length + dataOffset)];
        System.arraycopy(header, 0, file, 0, header.length);
        for (byte[] placed : tensorData) {
            ByteBuffer b = ByteBuffer.wrap(placed).order(ByteOrder.LITTLE_ENDIAN);
            long at = b.getLong();
            int len = (int) b.getLong();
            b.get(file, (int) (header.length + at), len);
        }
        return file;
    }

    public Path writeTo(Path dir, String name) throws IOException {
        return Files.write(dir.resolve(name), build());
    }

    public static ByteBuffer le(int n) {
        return ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
    }

    public static ByteBuffer str(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return le(8 + b.length).putLong(b.length).put(b);
    }

    private static void write(ByteArrayOutputStream out, ByteBuffer b) {
        out.write(b.array(), 0, b.position());
    }
}
