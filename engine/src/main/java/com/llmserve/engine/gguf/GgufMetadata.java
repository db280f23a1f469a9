package com.llmserve.engine.gguf;

import com.llmserve.engine.gguf.GgufValue.GgufArray;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The key/value metadata of a GGUF file, with typed accessors that fail with a
 * {@link GgufFormatException} naming the key when a value is missing or of another type.
 * Integer accessors accept any integer width whose value fits; float accessors accept any number.
 * Parse it once into a validated configuration record; nothing downstream should hold a map.
 */
public final class GgufMetadata {

    private final Path file;
    private final Map<String, GgufValue> values;

    GgufMetadata(Path file, Map<String, GgufValue> values) {
        this.file = file;
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    public Set<String> keys() {
        return values.keySet();
    }

    public boolean contains(String key) {
        return values.containsKey(key);
    }

    public Optional<GgufValue> find(String key) {
        return Optional.ofNullable(values.get(key));
    }

    public Optional<String> findString(String key) {
        return find(key).map(v -> expect(key, v, String.class, "STRING"));
    }

    public String getString(String key) {
        return findString(key).orElseThrow(() -> missing(key));
    }

    public OptionalLong findLong(String key) {
        GgufValue v = values.get(key);
        if (v == null) {
            return OptionalLong.empty();
        }
        if (!v.type().isInteger()) {
            throw wrongType(key, v, "an integer");
        }
        long l = (Long) v.value();
        if (v.type() == GgufValueType.UINT64 && l < 0) {
            throw new GgufFormatException(
                    file,
                    "metadata key '" + key + "' = " + Long.toUnsignedString(l)
                            + " does not fit a signed 64-bit integer");
        }
        return OptionalLong.of(l);
    }

    public long getLong(String key) {
        return findLong(key).orElseThrow(() -> missing(key));
    }

    public Optional<Integer> findInt(String key) {
        OptionalLong l = findLong(key);
        if (l.isEmpty()) {
            return Optional.empty();
        }
        if (l.getAsLong() < Integer.MIN_VALUE || l.getAsLong() > Integer.MAX_VALUE) {
            throw new GgufFormatException(file, "metadata key '" + key + "' = " + l.getAsLong() + " is out of range");
        }
        return Optional.of((int) l.getAsLong());
    }

    public int getInt(String key) {
        return findInt(key).orElseThrow(() -> missing(key));
    }

    public OptionalDouble findDouble(String key) {
        GgufValue v = values.get(key);
        if (v == null) {
            return OptionalDouble.empty();
        }
        return switch (v.value()) {
            case Float f -> OptionalDouble.of(f);
            case Double d -> OptionalDouble.of(d);
            case Long l when v.type().isInteger() -> OptionalDouble.of(l);
            default -> throw wrongType(key, v, "a number");
        };
    }

    public float getFloat(String key) {
        return (float) findDouble(key).orElseThrow(() -> missing(key));
    }

    public Optional<Float> findFloat(String key) {
        OptionalDouble d = findDouble(key);
        return d.isPresent() ? Optional.of((float) d.getAsDouble()) : Optional.empty();
    }

    public Optional<Boolean> findBoolean(String key) {
        return find(key).map(v -> expect(key, v, Boolean.class, "BOOL"));
    }

    public Optional<GgufArray> findArray(String key) {
        return find(key).map(v -> expect(key, v, GgufArray.class, "ARRAY"));
    }

    public Optional<String[]> findStringArray(String key) {
        return findArray(key).map(a -> arrayOf(key, a, String[].class, "STRING"));
    }

    public Optional<float[]> findFloatArray(String key) {
        return findArray(key).map(a -> switch (a.values()) {
            case float[] f -> f;
            case double[] d -> {
                float[] f = new float[d.length];
                for (int i = 0; i < d.length; i++) {
                    f[i] = (float) d[i];
                }
                yield f;
            }
            default ->
                throw new GgufFormatException(file, "metadata key '" + key + "' is " + a + ", expected a float array");
        });
    }

    /** An integer array of any width as {@code int[]}; unsigned 32-bit values above 2^31-1 are refused. */
    public Optional<int[]> findIntArray(String key) {
        return findArray(key).map(a -> {
            int[] out =
                    switch (a.values()) {
                        case int[] i -> a.elementType() == GgufValueType.UINT32 ? checkedUnsigned(key, i) : i;
                        case byte[] b -> widen(b, a.elementType() == GgufValueType.UINT8);
                        case short[] s -> widen(s, a.elementType() == GgufValueType.UINT16);
                        case long[] l -> narrow(key, l);
                        default ->
                            throw new GgufFormatException(
                                    file, "metadata key '" + key + "' is " + a + ", expected an integer array");
                    };
            return out;
        });
    }

    private int[] checkedUnsigned(String key, int[] values) {
        for (int v : values) {
            if (v < 0) {
                throw new GgufFormatException(
                        file, "metadata key '" + key + "' holds " + Integer.toUnsignedString(v) + ", out of range");
            }
        }
        return values;
    }

    private static int[] widen(byte[] b, boolean unsigned) {
        int[] out = new int[b.length];
        for (int i = 0; i < b.length; i++) {
            out[i] = unsigned ? Byte.toUnsignedInt(b[i]) : b[i];
        }
        return out;
    }

    private static int[] widen(short[] s, boolean unsigned) {
        int[] out = new int[s.length];
        for (int i = 0; i < s.length; i++) {
            out[i] = unsigned ? Short.toUnsignedInt(s[i]) : s[i];
        }
        return out;
    }

    private int[] narrow(String key, long[] l) {
        int[] out = new int[l.length];
        for (int i = 0; i < l.length; i++) {
            if (l[i] < Integer.MIN_VALUE || l[i] > Integer.MAX_VALUE) {
                throw new GgufFormatException(file, "metadata key '" + key + "' holds " + l[i] + ", out of range");
            }
            out[i] = (int) l[i];
        }
        return out;
    }

    private <T> T arrayOf(String key, GgufArray a, Class<T> type, String expected) {
        if (!type.isInstance(a.values())) {
            throw new GgufFormatException(
                    file, "metadata key '" + key + "' is " + a + ", expected array<" + expected + ">");
        }
        return type.cast(a.values());
    }

    private <T> T expect(String key, GgufValue v, Class<T> type, String expected) {
        if (!type.isInstance(v.value())) {
            throw wrongType(key, v, expected);
        }
        return type.cast(v.value());
    }

    private GgufFormatException wrongType(String key, GgufValue v, String expected) {
        return new GgufFormatException(
                file, "metadata key '" + key + "' is " + v.type() + " (" + v + "), expected " + expected);
    }

    private GgufFormatException missing(String key) {
        return new GgufFormatException(file, "required metadata key '" + key + "' is missing");
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
