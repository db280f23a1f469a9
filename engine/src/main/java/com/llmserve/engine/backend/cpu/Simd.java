package com.llmserve.engine.backend.cpu;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Vector shapes and little-endian accessors shared by the CPU kernels. The float species is the
 * machine's preferred one (16 lanes with AVX-512, 8 with AVX2); byte loads use a species of the
 * same lane count so that one byte load widens to one float vector.
 */
final class Simd {

    /** Set {@code -Dllmserve.cpu.vector=false} to run the scalar reference paths everywhere. */
    static final boolean ENABLED = Boolean.parseBoolean(System.getProperty("llmserve.cpu.vector", "true"))
            && FloatVector.SPECIES_PREFERRED.length() >= 8;

    static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED;
    static final int L = F.length();
    /** Bytes species with as many lanes as {@link #F}. */
    static final VectorSpecies<Byte> B = VectorSpecies.of(byte.class, VectorShape.forBitSize(L * 8));

    static final ValueLayout.OfShort LE_SHORT = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfInt LE_INT = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfFloat LE_FLOAT = ValueLayout.JAVA_FLOAT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfByte BYTE = ValueLayout.JAVA_BYTE;

    private Simd() {
    }

    static float f16(MemorySegment s, long offset) {
        return Float.float16ToFloat(s.get(LE_SHORT, offset));
    }

    static int u8(MemorySegment s, long offset) {
        return Byte.toUnsignedInt(s.get(BYTE, offset));
    }

    static byte i8(MemorySegment s, long offset) {
        return s.get(BYTE, offset);
    }

    /** {@link #L} bytes at {@code offset}, as a byte vector. */
    static ByteVector bytes(MemorySegment s, long offset) {
        return ByteVector.fromMemorySegment(B, s, offset, ByteOrder.LITTLE_ENDIAN);
    }

    /** A byte-lane mask whose lane {@code i} is set when bit {@code i} of {@code bits} is. */
    static VectorMask<Byte> bitMask(int bits) {
        return VectorMask.fromLong(B, bits & ((1L << L) - 1));
    }

    /** Widens a byte vector of {@link #L} lanes (signed) to floats. */
    static FloatVector toFloats(ByteVector v) {
        return (FloatVector) v.castShape(F, 0);
    }
}
