package com.llmserve.engine.backend.cpu;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

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

    private Simd() {}

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

    /**
     * Shuffles that fold the upper half of the live lanes onto the lower half, one per halving
     * step: the pairwise tree of {@link #sum}.
     */
    private static final VectorShuffle<Float>[] FOLDS = folds();

    @SuppressWarnings("unchecked")
    private static VectorShuffle<Float>[] folds() {
        int steps = Integer.numberOfTrailingZeros(L);
        VectorShuffle<Float>[] out = new VectorShuffle[steps];
        for (int s = 0, half = L / 2; s < steps; s++, half /= 2) {
            int h = half;
            out[s] = VectorShuffle.fromOp(F, i -> (i + h) % L);
        }
        return out;
    }

    /**
     * The sum of the lanes in a fixed pairwise order. {@code reduceLanes(ADD)} may add in one
     * order when the JIT compiles it and another when it does not, which changes the last bits of
     * a result depending on how warm the JVM is; this gives the same bits in every tier.
     */
    static float sum(FloatVector v) {
        for (VectorShuffle<Float> fold : FOLDS) {
            v = v.add(v.rearrange(fold));
        }
        return v.lane(0);
    }

    private static final float LOG2E = 1.44269504f;
    private static final float LN2_HI = 0.693359375f;
    private static final float LN2_LO = -2.12194440e-4f;
    /** 1.5 * 2^23: adding and subtracting it rounds a float to the nearest integer (half to even). */
    private static final float ROUND = 12582912f;

    /**
     * {@code e^x} per lane (Cephes' single-precision polynomial, within 2 ulp) from lane-wise
     * arithmetic only, so the bits are the same in every JIT tier; the Vector API's {@code EXP}
     * uses an intrinsic when compiled and {@link Math#exp} otherwise, which differ in the last bits.
     */
    static FloatVector exp(FloatVector x) {
        x = x.max(-87.33654f).min(88.0f);
        FloatVector n = x.fma(LOG2E, ROUND).sub(ROUND);
        FloatVector r = n.fma(FloatVector.broadcast(F, -LN2_LO), n.fma(FloatVector.broadcast(F, -LN2_HI), x));
        FloatVector p = r.fma(1.9875691500e-4f, 1.3981999507e-3f);
        p = p.fma(r, FloatVector.broadcast(F, 8.3334519073e-3f));
        p = p.fma(r, FloatVector.broadcast(F, 4.1665795894e-2f));
        p = p.fma(r, FloatVector.broadcast(F, 1.6666665459e-1f));
        p = p.fma(r, FloatVector.broadcast(F, 5.0000001201e-1f));
        p = p.fma(r.mul(r), r).add(1f);
        IntVector e = ((IntVector) n.convert(VectorOperators.F2I, 0)).add(127).lanewise(VectorOperators.LSHL, 23);
        return p.mul(e.reinterpretAsFloats());
    }

    /** The scalar twin of {@link #exp}, for tails: the same operations in the same order, so the same bits. */
    static float exp(float x) {
        x = Math.min(Math.max(x, -87.33654f), 88.0f);
        float n = Math.fma(x, LOG2E, ROUND) - ROUND;
        float r = Math.fma(n, -LN2_LO, Math.fma(n, -LN2_HI, x));
        float p = Math.fma(r, 1.9875691500e-4f, 1.3981999507e-3f);
        p = Math.fma(p, r, 8.3334519073e-3f);
        p = Math.fma(p, r, 4.1665795894e-2f);
        p = Math.fma(p, r, 1.6666665459e-1f);
        p = Math.fma(p, r, 5.0000001201e-1f);
        p = Math.fma(p, r * r, r) + 1f;
        return p * Float.intBitsToFloat(((int) n + 127) << 23);
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
