/*
 * Native CPU kernels of the engine's CPU backend (com.llmserve.engine.backend.cpu.NativeKernels),
 * bound through FFM. x86-64 only; one shared library holds every instruction-set variant, each
 * compiled with a target attribute, and ls_cpu_isa() says which ones this processor runs.
 *
 * Weights are re-laid out once at load (ls_pack_*) in groups of 16 rows: for each group and
 * block, the 16 rows' f16 scales, then the quantized bytes in runs of 64 bytes, each holding 4
 * consecutive bytes of each of the 16 rows (row r at bytes 4r..4r+3). A 32-bit lane is then a row:
 * one vpdpbusd multiplies 4 weights of 16 rows by the same 4 activations (broadcast) and sums
 * them into the row's lane, so no horizontal sums are needed and one set of weights in registers
 * serves every token of a batch.
 *
 * Every product, whatever the variant and the batch, computes a row and token's result the same
 * way: per block an exact integer dot product, then acc = fma((float) isum, d_w * d_x, acc) in
 * block order from acc = 0. A row's result is therefore the same bits for any batch size, any
 * split over threads, and any variant (AVX-512 VNNI, AVX-VNNI, AVX2).
 *
 * Activations are quantized here too (ls_quantize_q8_0), exactly as ggml's quantize_row_q8_0 and
 * the Java Q8Activations do. No libc: the library links with -nostdlib.
 */
#include <stddef.h>
#include <stdint.h>
#include <cpuid.h>
#include <immintrin.h>

#define EXPORT __attribute__((visibility("default")))
#define INLINE static inline __attribute__((always_inline))

#define T512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx512vnni,fma,f16c")))
#define TVNNI __attribute__((target("avx2,fma,f16c,avxvnni")))
#define TAVX2 __attribute__((target("avx2,fma,f16c")))

enum { GROUP = 16, Q4_0_GB = 32 + 4 * 64, Q8_0_GB = 32 + 8 * 64, MXFP4_GB = 32 + 4 * 64 };

/* ---------------------------------------------------------------- feature detection */

static uint64_t xgetbv0(void) {
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t) hi << 32) | lo;
}

/** 3: AVX-512 (F, BW, VL, DQ) with VNNI; 2: AVX-VNNI (AVX2 encoding); 1: AVX2 + FMA + F16C; 0: none. */
EXPORT int ls_cpu_isa(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    int fma = (c >> 12) & 1, osxsave = (c >> 27) & 1, avx = (c >> 28) & 1, f16c = (c >> 29) & 1;
    if (!(osxsave && avx && fma && f16c)) return 0;
    uint64_t xcr0 = xgetbv0();
    if ((xcr0 & 6) != 6) return 0; /* the OS saves XMM and YMM */
    if (__get_cpuid_max(0, NULL) < 7) return 0;
    __cpuid_count(7, 0, a, b, c, d);
    int avx2 = (b >> 5) & 1;
    if (!avx2) return 0;
    int avx512 = ((b >> 16) & 1) && ((b >> 17) & 1) && ((b >> 30) & 1) && ((b >> 31) & 1); /* F DQ BW VL */
    int vnni512 = (c >> 11) & 1;
    if (avx512 && vnni512 && (xcr0 & 0xe6) == 0xe6) return 3;
    __cpuid_count(7, 1, a, b, c, d);
    int avxvnni = (a >> 4) & 1;
    return avxvnni ? 2 : 1;
}

/* ---------------------------------------------------------------- helpers */

static inline void copy4(uint8_t *dst, const uint8_t *src) {
    dst[0] = src[0];
    dst[1] = src[1];
    dst[2] = src[2];
    dst[3] = src[3];
}

static inline void zero(uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++) p[i] = 0;
}

/* The compiler may turn loops into calls of these; the library links without libc, so it brings
 * its own (hidden: the process's own stay the ones everyone else calls). Volatile stores keep
 * them from being recognised as the idiom they implement. */
__attribute__((visibility("hidden"))) void *memset(void *dst, int c, size_t n) {
    volatile uint8_t *d = dst;
    for (size_t i = 0; i < n; i++) d[i] = (uint8_t) c;
    return dst;
}

__attribute__((visibility("hidden"))) void *memcpy(void *dst, const void *src, size_t n) {
    volatile uint8_t *d = dst;
    const uint8_t *s = src;
    for (size_t i = 0; i < n; i++) d[i] = s[i];
    return dst;
}

INLINE int32_t load_i32(const int8_t *p) {
    int32_t v;
    __builtin_memcpy(&v, p, 4);
    return v;
}

/*
 * Software prefetch of the weights `dist` bytes ahead of the block being multiplied, one line per
 * 64 bytes of a block. The hardware prefetchers follow the stream too, but a block whose integer
 * sums form long dependency chains (the K-quants) keeps too few misses in flight for two threads to
 * reach the memory bandwidth without it.
 */
#define PREFETCH_BLOCK(w, GB, DIST)                                                              \
    do {                                                                                         \
        if ((DIST) > 0)                                                                          \
            for (int pf_ = 0; pf_ < (GB); pf_ += 64)                                             \
                _mm_prefetch((const char *) (w) + (DIST) + pf_, _MM_HINT_T0);                    \
    } while (0)
/* Measured with two threads streaming 400 MB (2 cores of an AVX-512 EPYC): Q4_K 21 -> 26 GB/s at
 * 4 KiB ahead; Q4_0 and Q8_0 unchanged, Q6_K slower (it is bound by its unpacking): none there.
 * Q8_0 on AVX-512 (2 cores of an AVX-512 Xeon, 2026-11-28): a mixture's experts, products of
 * 0.5-1 MB a call that start a new stream every few tiles, decode 4-8% faster at 4 KiB ahead
 * (qwen3moe-1b 117.0 / 111.9 -> 121.8 / 120.9 tok/s), a dense 1B's long streams no faster or
 * slower (22.9 / 22.6 -> 22.7 / 22.6); 8 KiB no better. The AVX2 tiles were not measured: none. */
#ifndef LS_PREFETCH_Q4_K
#define LS_PREFETCH_Q4_K 4096
#endif
#ifndef LS_PREFETCH_Q6_K
#define LS_PREFETCH_Q6_K 0
#endif
#ifndef LS_PREFETCH_Q8_0
#define LS_PREFETCH_Q8_0 4096
#endif

/* ---------------------------------------------------------------- packing */

/**
 * Re-lays out `rows` rows of Q4_0 ({f16 d; u8 qs[16]} per block, `row_bytes` apart) into `dst`
 * (groups * blocks * 288 bytes): per group and block, 16 scales, then 4 runs of 64 bytes, run j
 * holding qs[4j..4j+3] of each row (low nibbles elements 4j.., high nibbles 16+4j..). Rows past
 * the last are zero.
 */
EXPORT void ls_pack_q4_0(const uint8_t *src, int64_t rows, int32_t blocks, int64_t row_bytes, uint8_t *dst) {
    int64_t groups = (rows + GROUP - 1) / GROUP;
    for (int64_t g = 0; g < groups; g++) {
        for (int32_t b = 0; b < blocks; b++) {
            uint8_t *o = dst + (g * blocks + b) * (int64_t) Q4_0_GB;
            for (int i = 0; i < GROUP; i++) {
                int64_t r = g * GROUP + i;
                if (r >= rows) {
                    o[2 * i] = o[2 * i + 1] = 0;
                    for (int j = 0; j < 4; j++) zero(o + 32 + 64 * j + 4 * i, 4);
                    continue;
                }
                const uint8_t *s = src + r * row_bytes + (int64_t) b * 18;
                o[2 * i] = s[0];
                o[2 * i + 1] = s[1];
                for (int j = 0; j < 4; j++) copy4(o + 32 + 64 * j + 4 * i, s + 2 + 4 * j);
            }
        }
    }
}

/** As ls_pack_q4_0 for Q8_0 ({f16 d; i8 qs[32]}): 8 runs of 64 bytes, run j holding qs[4j..4j+3]. */
EXPORT void ls_pack_q8_0(const uint8_t *src, int64_t rows, int32_t blocks, int64_t row_bytes, uint8_t *dst) {
    int64_t groups = (rows + GROUP - 1) / GROUP;
    for (int64_t g = 0; g < groups; g++) {
        for (int32_t b = 0; b < blocks; b++) {
            uint8_t *o = dst + (g * blocks + b) * (int64_t) Q8_0_GB;
            for (int i = 0; i < GROUP; i++) {
                int64_t r = g * GROUP + i;
                if (r >= rows) {
                    o[2 * i] = o[2 * i + 1] = 0;
                    for (int j = 0; j < 8; j++) zero(o + 32 + 64 * j + 4 * i, 4);
                    continue;
                }
                const uint8_t *s = src + r * row_bytes + (int64_t) b * 34;
                o[2 * i] = s[0];
                o[2 * i + 1] = s[1];
                for (int j = 0; j < 8; j++) copy4(o + 32 + 64 * j + 4 * i, s + 2 + 4 * j);
            }
        }
    }
}

/**
 * As ls_pack_q4_0 for MXFP4 ({u8 e; u8 qs[16]}): per group and block the 16 rows' E8M0 bytes and 16
 * zero bytes, then Q4_0's 4 runs of 64 bytes of codes (low nibbles elements 4j.., high 16+4j..).
 */
EXPORT void ls_pack_mxfp4(const uint8_t *src, int64_t rows, int32_t blocks, int64_t row_bytes, uint8_t *dst) {
    int64_t groups = (rows + GROUP - 1) / GROUP;
    for (int64_t g = 0; g < groups; g++) {
        for (int32_t b = 0; b < blocks; b++) {
            uint8_t *o = dst + (g * blocks + b) * (int64_t) MXFP4_GB;
            zero(o + GROUP, 16);
            for (int i = 0; i < GROUP; i++) {
                int64_t r = g * GROUP + i;
                if (r >= rows) {
                    o[i] = 0;
                    for (int j = 0; j < 4; j++) zero(o + 32 + 64 * j + 4 * i, 4);
                    continue;
                }
                const uint8_t *s = src + r * row_bytes + (int64_t) b * 17;
                o[i] = s[0];
                for (int j = 0; j < 4; j++) copy4(o + 32 + 64 * j + 4 * i, s + 1 + 4 * j);
            }
        }
    }
}

/* ---------------------------------------------------------------- activation quantization */

TAVX2 INLINE float f16_round(float v) {
    return _cvtsh_ss(_cvtss_sh(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
}

/**
 * ggml's quantize_row_q8_0 over `n` floats (a multiple of 32): per block of 32, d = amax / 127
 * rounded to f16, q = round_half_even(x * (127 / amax)); also each block's sum of q.
 */
TAVX2 EXPORT void ls_quantize_q8_0(const float *x, int64_t n, int8_t *q, float *d, int32_t *sums) {
    const __m256 sign = _mm256_set1_ps(-0.0f);
    for (int64_t b = 0; b < n / 32; b++) {
        const float *xb = x + 32 * b;
        __m256 v0 = _mm256_loadu_ps(xb), v1 = _mm256_loadu_ps(xb + 8);
        __m256 v2 = _mm256_loadu_ps(xb + 16), v3 = _mm256_loadu_ps(xb + 24);
        __m256 m = _mm256_max_ps(_mm256_max_ps(_mm256_andnot_ps(sign, v0), _mm256_andnot_ps(sign, v1)),
                                 _mm256_max_ps(_mm256_andnot_ps(sign, v2), _mm256_andnot_ps(sign, v3)));
        __m128 m4 = _mm_max_ps(_mm256_castps256_ps128(m), _mm256_extractf128_ps(m, 1));
        m4 = _mm_max_ps(m4, _mm_movehl_ps(m4, m4));
        m4 = _mm_max_ss(m4, _mm_movehdup_ps(m4));
        float amax = _mm_cvtss_f32(m4);
        float inv = amax != 0.0f ? 127.0f / amax : 0.0f;
        d[b] = f16_round(amax / 127.0f);
        __m256 s = _mm256_set1_ps(inv);
        /* cvtps rounds by MXCSR: half to even, as Java's Math.rint and ggml's _MM_ROUND_NEAREST */
        __m256i i0 = _mm256_cvtps_epi32(_mm256_mul_ps(v0, s));
        __m256i i1 = _mm256_cvtps_epi32(_mm256_mul_ps(v1, s));
        __m256i i2 = _mm256_cvtps_epi32(_mm256_mul_ps(v2, s));
        __m256i i3 = _mm256_cvtps_epi32(_mm256_mul_ps(v3, s));
        __m256i sum = _mm256_add_epi32(_mm256_add_epi32(i0, i1), _mm256_add_epi32(i2, i3));
        __m128i s4 = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
        s4 = _mm_add_epi32(s4, _mm_shuffle_epi32(s4, 0x4e));
        s4 = _mm_add_epi32(s4, _mm_shuffle_epi32(s4, 0xb1));
        sums[b] = _mm_cvtsi128_si32(s4);
        /* pack to bytes in element order: packs works within 128-bit lanes, permute restores order */
        __m256i p01 = _mm256_packs_epi32(i0, i1);
        __m256i p23 = _mm256_packs_epi32(i2, i3);
        __m256i p = _mm256_packs_epi16(p01, p23);
        p = _mm256_permutevar8x32_epi32(p, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
        _mm256_storeu_si256((__m256i *) (q + 32 * b), p);
    }
}

/* ---------------------------------------------------------------- AVX-512 VNNI */

/*
 * The products: y[t * y_stride + y_off + r] = row r . x_t for the rows of groups [g0, g1) (rows
 * past `rows` are not written) and tokens [0, tokens). x_t is token t's quantized activations:
 * xq[t * blocks * 32 ..] the bytes, xd[t * blocks + b] block b's scale, xs[t * blocks + b] its sum.
 * Tokens are taken in chunks that keep their activations in L2, and within a chunk NT at a time
 * with each block's weights in registers.
 */

T512 INLINE void store16(float *y, __m512 v, int valid) {
    if (valid >= 16) {
        _mm512_storeu_ps(y, v);
    } else {
        _mm512_mask_storeu_ps(y, (__mmask16) ((1u << valid) - 1), v);
    }
}

/* MXFP4's doubled E2M1 values plus 12 (unsigned for dpbusd), by code; isum = sum(u * x) - 12 sum(x). */
#define MXFP4_U 12, 13, 14, 15, 16, 18, 20, 24, 12, 11, 10, 9, 8, 6, 4, 0

/* 16 E8M0 bytes as ggml's halved scales 2^(e - 128): (e - 1) << 23, or 0x00200000 << e for e < 2. */
T512 INLINE __m512 e8m0_half_512(const uint8_t *e) {
    __m512i v = _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *) e));
    __m512i normal = _mm512_slli_epi32(_mm512_sub_epi32(v, _mm512_set1_epi32(1)), 23);
    __m512i tiny = _mm512_sllv_epi32(_mm512_set1_epi32(0x00200000), v);
    __mmask16 m = _mm512_cmplt_epi32_mask(v, _mm512_set1_epi32(2));
    return _mm512_castsi512_ps(_mm512_mask_blend_epi32(m, normal, tiny));
}

/*
 * Q4_0 (MX 0): isum = sum(u * x) - 8 sum(x) with u the unsigned nibbles; exact. MXFP4 (MX 1): the
 * nibbles are codes, u their doubled values plus 12 (a byte shuffle), isum = sum(u * x) - 12 sum(x),
 * and the scales E8M0 bytes. One layout (Q4_0_GB == MXFP4_GB); MX is a constant where it is inlined.
 */
T512 INLINE void nibble_tile_512(const uint8_t *w, int32_t blocks, const int8_t *xq, const float *xd,
                                 const int32_t *xs, int t0, const int NT, float *y, int64_t y_stride, int valid,
                                 const int MX) {
    __m512 acc[8];
    for (int t = 0; t < NT; t++) acc[t] = _mm512_setzero_ps();
    const __m512i m4 = _mm512_set1_epi8(0x0F);
    const __m512i lut = _mm512_broadcast_i32x4(_mm_setr_epi8(MXFP4_U));
    const int offset = MX ? 12 : 8;
    const int64_t xrow = (int64_t) blocks * 32;
    for (int32_t b = 0; b < blocks; b++, w += Q4_0_GB) {
        __m512 dw = MX ? e8m0_half_512(w) : _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *) w));
        __m512i lo[4], hi[4];
        for (int j = 0; j < 4; j++) {
            __m512i v = _mm512_loadu_si512((const void *) (w + 32 + 64 * j));
            lo[j] = _mm512_and_si512(v, m4);
            hi[j] = _mm512_and_si512(_mm512_srli_epi16(v, 4), m4);
            if (MX) {
                lo[j] = _mm512_shuffle_epi8(lut, lo[j]);
                hi[j] = _mm512_shuffle_epi8(lut, hi[j]);
            }
        }
        _Pragma("clang loop unroll(full)") for (int t = 0; t < NT; t++) {
            int64_t tb = (int64_t) (t0 + t) * blocks + b;
            const int8_t *xb = xq + (t0 + t) * xrow + 32 * b;
            __m512i s0 = _mm512_set1_epi32(-offset * xs[tb]);
            __m512i s1 = _mm512_setzero_si512();
            s0 = _mm512_dpbusd_epi32(s0, lo[0], _mm512_set1_epi32(load_i32(xb + 0)));
            s1 = _mm512_dpbusd_epi32(s1, hi[0], _mm512_set1_epi32(load_i32(xb + 16)));
            s0 = _mm512_dpbusd_epi32(s0, lo[1], _mm512_set1_epi32(load_i32(xb + 4)));
            s1 = _mm512_dpbusd_epi32(s1, hi[1], _mm512_set1_epi32(load_i32(xb + 20)));
            s0 = _mm512_dpbusd_epi32(s0, lo[2], _mm512_set1_epi32(load_i32(xb + 8)));
            s1 = _mm512_dpbusd_epi32(s1, hi[2], _mm512_set1_epi32(load_i32(xb + 24)));
            s0 = _mm512_dpbusd_epi32(s0, lo[3], _mm512_set1_epi32(load_i32(xb + 12)));
            s1 = _mm512_dpbusd_epi32(s1, hi[3], _mm512_set1_epi32(load_i32(xb + 28)));
            __m512 f = _mm512_cvtepi32_ps(_mm512_add_epi32(s0, s1));
            acc[t] = _mm512_fmadd_ps(f, _mm512_mul_ps(dw, _mm512_set1_ps(xd[tb])), acc[t]);
        }
    }
    for (int t = 0; t < NT; t++) store16(y + (int64_t) (t0 + t) * y_stride, acc[t], valid);
}

T512 INLINE void q4_0_tile_512(const uint8_t *w, int32_t blocks, const int8_t *xq, const float *xd, const int32_t *xs,
                               int t0, const int NT, float *y, int64_t y_stride, int valid) {
    nibble_tile_512(w, blocks, xq, xd, xs, t0, NT, y, y_stride, valid, 0);
}

T512 INLINE void mxfp4_tile_512(const uint8_t *w, int32_t blocks, const int8_t *xq, const float *xd, const int32_t *xs,
                                int t0, const int NT, float *y, int64_t y_stride, int valid) {
    nibble_tile_512(w, blocks, xq, xd, xs, t0, NT, y, y_stride, valid, 1);
}

/* Q8_0: dpbusd wants an unsigned operand: (w xor 0x80) = w + 128, so isum = sum((w + 128) x) - 128 sum(x). */
T512 INLINE void q8_0_tile_512(const uint8_t *w, int32_t blocks, const int8_t *xq, const float *xd, const int32_t *xs,
                               int t0, const int NT, float *y, int64_t y_stride, int valid) {
    __m512 acc[8];
    for (int t = 0; t < NT; t++) acc[t] = _mm512_setzero_ps();
    const __m512i flip = _mm512_set1_epi8((char) 0x80);
    const int64_t xrow = (int64_t) blocks * 32;
    for (int32_t b = 0; b < blocks; b++, w += Q8_0_GB) {
        PREFETCH_BLOCK(w, Q8_0_GB, LS_PREFETCH_Q8_0);
        __m512 dw = _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *) w));
        __m512i u[8];
        for (int j = 0; j < 8; j++) {
            u[j] = _mm512_xor_si512(_mm512_loadu_si512((const void *) (w + 32 + 64 * j)), flip);
        }
        _Pragma("clang loop unroll(full)") for (int t = 0; t < NT; t++) {
            int64_t tb = (int64_t) (t0 + t) * blocks + b;
            const int8_t *xb = xq + (t0 + t) * xrow + 32 * b;
            __m512i s0 = _mm512_set1_epi32(-128 * xs[tb]);
            __m512i s1 = _mm512_setzero_si512();
            for (int j = 0; j < 8; j += 2) {
                s0 = _mm512_dpbusd_epi32(s0, u[j], _mm512_set1_epi32(load_i32(xb + 4 * j)));
                s1 = _mm512_dpbusd_epi32(s1, u[j + 1], _mm512_set1_epi32(load_i32(xb + 4 * j + 4)));
            }
            __m512 f = _mm512_cvtepi32_ps(_mm512_add_epi32(s0, s1));
            acc[t] = _mm512_fmadd_ps(f, _mm512_mul_ps(dw, _mm512_set1_ps(xd[tb])), acc[t]);
        }
    }
    for (int t = 0; t < NT; t++) store16(y + (int64_t) (t0 + t) * y_stride, acc[t], valid);
}

/* Tokens per chunk: a chunk's activations (chunk * cols bytes) stay in L2 while every group of the call passes. */
static int token_chunk(int32_t blocks) {
    int c = (256 * 1024) / (blocks * 32);
    c = c < 8 ? 8 : c;
    return c > 64 ? 64 : c;
}

#define GEMM_DRIVER(NAME, ATTR, TILE, GB, NTMAX)                                                                     \
    ATTR EXPORT void NAME(const uint8_t *w, int32_t blocks, int64_t rows, int64_t g0, int64_t g1, const int8_t *xq, \
                          const float *xd, const int32_t *xs, int32_t tokens, float *y, int64_t y_stride,            \
                          int64_t y_off) {                                                                           \
        int chunk = token_chunk(blocks);                                                                             \
        for (int c0 = 0; c0 < tokens; c0 += chunk) {                                                                 \
            int c1 = c0 + chunk < tokens ? c0 + chunk : tokens;                                                      \
            for (int64_t g = g0; g < g1; g++) {                                                                      \
                const uint8_t *wg = w + g * blocks * (int64_t) (GB);                                                 \
                int64_t left = rows - g * GROUP;                                                                     \
                int valid = left < GROUP ? (int) left : GROUP;                                                       \
                float *yg = y + y_off + g * GROUP;                                                                   \
                int t = c0;                                                                                          \
                for (; t + NTMAX <= c1; t += NTMAX) TILE(wg, blocks, xq, xd, xs, t, NTMAX, yg, y_stride, valid);     \
                for (; t + 2 <= c1; t += 2) TILE(wg, blocks, xq, xd, xs, t, 2, yg, y_stride, valid);                 \
                for (; t < c1; t++) TILE(wg, blocks, xq, xd, xs, t, 1, yg, y_stride, valid);                         \
            }                                                                                                        \
        }                                                                                                            \
    }

GEMM_DRIVER(ls_q4_0_gemm_avx512vnni, T512, q4_0_tile_512, Q4_0_GB, 8)
GEMM_DRIVER(ls_q8_0_gemm_avx512vnni, T512, q8_0_tile_512, Q8_0_GB, 8)
GEMM_DRIVER(ls_mxfp4_gemm_avx512vnni, T512, mxfp4_tile_512, MXFP4_GB, 8)

/* ---------------------------------------------------------------- AVX2 and AVX-VNNI (8 rows per vector) */

/* u8 x s8 dot of 4-byte groups into 32-bit lanes, added to acc. AVX2: pairs to 16 bits (exact
 * for the operands here: |u| * |x| * 2 <= 128 * 127 * 2 < 2^15), then pairs to 32 bits. */
TAVX2 INLINE __m256i dot_avx2(__m256i acc, __m256i u, __m256i x) {
    __m256i p = _mm256_maddubs_epi16(u, x);
    return _mm256_add_epi32(acc, _mm256_madd_epi16(p, _mm256_set1_epi16(1)));
}

TVNNI INLINE __m256i dot_vnni(__m256i acc, __m256i u, __m256i x) {
    return _mm256_dpbusd_avx_epi32(acc, u, x);
}

#define AVX2_TILES(SUFFIX, ATTR, DOT)                                                                               \
    ATTR INLINE void store8_##SUFFIX(float *y, __m256 v, int valid) {                                              \
        if (valid >= 8) {                                                                                           \
            _mm256_storeu_ps(y, v);                                                                                 \
        } else {                                                                                                    \
            float tmp[8];                                                                                           \
            _mm256_storeu_ps(tmp, v);                                                                               \
            for (int i = 0; i < valid; i++) y[i] = tmp[i];                                                          \
        }                                                                                                           \
    }                                                                                                               \
    /* 8 E8M0 bytes as e8m0_half_512 makes them */                                                                  \
    ATTR INLINE __m256 e8m0_half_##SUFFIX(const uint8_t *e) {                                                       \
        __m256i v = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *) e));                                     \
        __m256i normal = _mm256_slli_epi32(_mm256_sub_epi32(v, _mm256_set1_epi32(1)), 23);                          \
        __m256i tiny = _mm256_sllv_epi32(_mm256_set1_epi32(0x00200000), v);                                         \
        __m256i m = _mm256_cmpgt_epi32(_mm256_set1_epi32(2), v);                                                    \
        return _mm256_castsi256_ps(_mm256_blendv_epi8(normal, tiny, m));                                            \
    }                                                                                                               \
    /* Q4_0 and MXFP4 as nibble_tile_512 (MXFP4: |u| * |x| * 2 < 2^15 too); half h of a group: rows */              \
    /* 8h..8h+7, the bytes 32h..32h+31 of each 64-byte run */                                                       \
    ATTR INLINE void nibble_tile_##SUFFIX(const uint8_t *w, int32_t blocks, const int8_t *xq, const float *xd,      \
                                           const int32_t *xs, int t0, const int NT, float *y, int64_t y_stride,     \
                                           int valid, const int MX) {                                               \
        for (int h = 0; h < 2; h++) {                                                                               \
            int vh = valid - 8 * h;                                                                                 \
            if (vh <= 0) break;                                                                                     \
            __m256 acc[8];                                                                                          \
            for (int t = 0; t < NT; t++) acc[t] = _mm256_setzero_ps();                                              \
            const __m256i m4 = _mm256_set1_epi8(0x0F);                                                              \
            const __m256i lut = _mm256_broadcastsi128_si256(_mm_setr_epi8(MXFP4_U));                                \
            const int offset = MX ? 12 : 8;                                                                         \
            const int64_t xrow = (int64_t) blocks * 32;                                                             \
            const uint8_t *wb = w;                                                                                  \
            for (int32_t b = 0; b < blocks; b++, wb += Q4_0_GB) {                                                   \
                __m256 dw = MX ? e8m0_half_##SUFFIX(wb + 8 * h)                                                     \
                               : _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *) (wb + 16 * h)));                 \
                __m256i lo[4], hi[4];                                                                               \
                for (int j = 0; j < 4; j++) {                                                                       \
                    __m256i v = _mm256_loadu_si256((const __m256i *) (wb + 32 + 64 * j + 32 * h));                  \
                    lo[j] = _mm256_and_si256(v, m4);                                                                \
                    hi[j] = _mm256_and_si256(_mm256_srli_epi16(v, 4), m4);                                          \
                    if (MX) {                                                                                       \
                        lo[j] = _mm256_shuffle_epi8(lut, lo[j]);                                                    \
                        hi[j] = _mm256_shuffle_epi8(lut, hi[j]);                                                    \
                    }                                                                                               \
                }                                                                                                   \
                _Pragma("clang loop unroll(full)") for (int t = 0; t < NT; t++) {                                   \
                    int64_t tb = (int64_t) (t0 + t) * blocks + b;                                                   \
                    const int8_t *xb = xq + (t0 + t) * xrow + 32 * b;                                               \
                    __m256i s0 = _mm256_set1_epi32(-offset * xs[tb]);                                               \
                    __m256i s1 = _mm256_setzero_si256();                                                            \
                    for (int j = 0; j < 4; j++) {                                                                   \
                        s0 = DOT(s0, lo[j], _mm256_set1_epi32(load_i32(xb + 4 * j)));                               \
                        s1 = DOT(s1, hi[j], _mm256_set1_epi32(load_i32(xb + 16 + 4 * j)));                          \
                    }                                                                                               \
                    __m256 f = _mm256_cvtepi32_ps(_mm256_add_epi32(s0, s1));                                        \
                    acc[t] = _mm256_fmadd_ps(f, _mm256_mul_ps(dw, _mm256_set1_ps(xd[tb])), acc[t]);                 \
                }                                                                                                   \
            }                                                                                                       \
            for (int t = 0; t < NT; t++) store8_##SUFFIX(y + (int64_t) (t0 + t) * y_stride + 8 * h, acc[t], vh);    \
        }                                                                                                           \
    }                                                                                                               \
    ATTR INLINE void q4_0_tile_##SUFFIX(const uint8_t *w, int32_t blocks, const int8_t *xq, const float *xd,        \
                                         const int32_t *xs, int t0, const int NT, float *y, int64_t y_stride,       \
                                         int valid) {                                                               \
        nibble_tile_##SUFFIX(w, blocks, xq, xd, xs, t0, NT, y, y_stride, valid, 0);                                 \
    }                                                                                                               \
    ATTR INLINE void mxfp4_tile_##SUFFIX(const uint8_t *w, int32_t blocks, const int8_t *xq, const float *xd,       \
                                          const int32_t *xs, int t0, const int NT, float *y, int64_t y_stride,      \
                                          int valid) {                                                              \
        nibble_tile_##SUFFIX(w, blocks, xq, xd, xs, t0, NT, y, y_stride, valid, 1);                                 \
    }                                                                                                               \
    /* Q8_0 through |w| and sign(x, w): the products are unchanged and the unsigned operand fits */                  \
    ATTR INLINE void q8_0_tile_##SUFFIX(const uint8_t *w, int32_t blocks, const int8_t *xq, const float *xd,       \
                                         const int32_t *xs, int t0, const int NT, float *y, int64_t y_stride,      \
                                         int valid) {                                                               \
        (void) xs;                                                                                                  \
        for (int h = 0; h < 2; h++) {                                                                               \
            int vh = valid - 8 * h;                                                                                 \
            if (vh <= 0) break;                                                                                     \
            __m256 acc[8];                                                                                         \
            for (int t = 0; t < NT; t++) acc[t] = _mm256_setzero_ps();                                              \
            const int64_t xrow = (int64_t) blocks * 32;                                                             \
            const uint8_t *wb = w;                                                                                  \
            for (int32_t b = 0; b < blocks; b++, wb += Q8_0_GB) {                                                   \
                __m256 dw = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *) (wb + 16 * h)));                      \
                _Pragma("clang loop unroll(full)") for (int t = 0; t < NT; t++) {                                \
                    int64_t tb = (int64_t) (t0 + t) * blocks + b;                                                   \
                    const int8_t *xb = xq + (t0 + t) * xrow + 32 * b;                                               \
                    __m256i s0 = _mm256_setzero_si256();                                                            \
                    __m256i s1 = _mm256_setzero_si256();                                                            \
                    for (int j = 0; j < 8; j += 2) {                                                                \
                        __m256i v0 = _mm256_loadu_si256((const __m256i *) (wb + 32 + 64 * j + 32 * h));             \
                        __m256i v1 = _mm256_loadu_si256((const __m256i *) (wb + 32 + 64 * (j + 1) + 32 * h));       \
                        __m256i x0 = _mm256_set1_epi32(load_i32(xb + 4 * j));                                       \
                        __m256i x1 = _mm256_set1_epi32(load_i32(xb + 4 * j + 4));                                   \
                        s0 = DOT(s0, _mm256_abs_epi8(v0), _mm256_sign_epi8(x0, v0));                                \
                        s1 = DOT(s1, _mm256_abs_epi8(v1), _mm256_sign_epi8(x1, v1));                                \
                    }                                                                                               \
                    __m256 f = _mm256_cvtepi32_ps(_mm256_add_epi32(s0, s1));                                        \
                    acc[t] = _mm256_fmadd_ps(f, _mm256_mul_ps(dw, _mm256_set1_ps(xd[tb])), acc[t]);                 \
                }                                                                                                   \
            }                                                                                                       \
            for (int t = 0; t < NT; t++) store8_##SUFFIX(y + (int64_t) (t0 + t) * y_stride + 8 * h, acc[t], vh);   \
        }                                                                                                           \
    }

AVX2_TILES(avxvnni, TVNNI, dot_vnni)
AVX2_TILES(avx2, TAVX2, dot_avx2)

GEMM_DRIVER(ls_q4_0_gemm_avxvnni, TVNNI, q4_0_tile_avxvnni, Q4_0_GB, 4)
GEMM_DRIVER(ls_q8_0_gemm_avxvnni, TVNNI, q8_0_tile_avxvnni, Q8_0_GB, 4)
GEMM_DRIVER(ls_q4_0_gemm_avx2, TAVX2, q4_0_tile_avx2, Q4_0_GB, 4)
GEMM_DRIVER(ls_q8_0_gemm_avx2, TAVX2, q8_0_tile_avx2, Q8_0_GB, 4)
GEMM_DRIVER(ls_mxfp4_gemm_avxvnni, TVNNI, mxfp4_tile_avxvnni, MXFP4_GB, 4)
GEMM_DRIVER(ls_mxfp4_gemm_avx2, TAVX2, mxfp4_tile_avx2, MXFP4_GB, 4)

/* ================================================================ K-quants (AVX-512 VNNI only) */

/*
 * Q4_K and Q6_K against activations quantized as ggml's quantize_row_q8_K: per super-block of 256,
 * d = 1 / (-127 / max) with max the signed value of largest magnitude, q = min(127, round(x * -127
 * / max)), and each 16 values' sum. A row and token's result, for every batch: per super-block the
 * exact integer sums llama.cpp forms, then FMAs in super-block order (Q4_K: acc = fma(sumi, d dx,
 * acc); acc = fma(-summ, dmin dx, acc); Q6_K: acc = fma(sumi, d dx, acc)).
 */
enum { Q4_K_GB = 64 + 256 + 32 * 64, Q6_K_GB = 32 + 256 + 32 * 64 + 16 * 64 };

/** The 6-bit scale and min of sub-block j of a Q4_K block's 12 scale bytes (ggml's get_scale_min_k4). */
static void scale_min_k4(int j, const uint8_t *q, uint8_t *sc, uint8_t *m) {
    if (j < 4) {
        *sc = q[j] & 63;
        *m = q[j + 4] & 63;
    } else {
        *sc = (q[j + 4] & 0xF) | ((q[j - 4] >> 6) << 4);
        *m = (q[j + 4] >> 4) | ((q[j] >> 6) << 4);
    }
}

/**
 * Q4_K ({f16 d; f16 dmin; u8 scales[12]; u8 qs[128]} per 256) into groups of 16 rows: per group
 * and super-block, the 16 d, the 16 dmin, the scales of sub-blocks 0-3 and 4-7 (one byte each, 4
 * per row and run), the mins likewise, then 32 runs of qs[4c..4c+3] per row (low nibbles elements
 * 64(c/8) + 4(c%8).., sub-block 2(c/8); high nibbles 32 further, the next sub-block).
 */
EXPORT void ls_pack_q4_k(const uint8_t *src, int64_t rows, int32_t blocks, int64_t row_bytes, uint8_t *dst) {
    int64_t groups = (rows + GROUP - 1) / GROUP;
    for (int64_t g = 0; g < groups; g++) {
        for (int32_t b = 0; b < blocks; b++) {
            uint8_t *o = dst + (g * blocks + b) * (int64_t) Q4_K_GB;
            for (int i = 0; i < GROUP; i++) {
                int64_t r = g * GROUP + i;
                if (r >= rows) {
                    o[2 * i] = o[2 * i + 1] = o[32 + 2 * i] = o[33 + 2 * i] = 0;
                    for (int k = 0; k < 4; k++) zero(o + 64 + 64 * k + 4 * i, 4);
                    for (int c = 0; c < 32; c++) zero(o + 320 + 64 * c + 4 * i, 4);
                    continue;
                }
                const uint8_t *s = src + r * row_bytes + (int64_t) b * 144;
                o[2 * i] = s[0];
                o[2 * i + 1] = s[1];
                o[32 + 2 * i] = s[2];
                o[33 + 2 * i] = s[3];
                for (int j = 0; j < 8; j++) {
                    uint8_t sc, m;
                    scale_min_k4(j, s + 4, &sc, &m);
                    o[64 + 64 * (j / 4) + 4 * i + j % 4] = sc;
                    o[192 + 64 * (j / 4) + 4 * i + j % 4] = m;
                }
                for (int c = 0; c < 32; c++) copy4(o + 320 + 64 * c + 4 * i, s + 16 + 4 * c);
            }
        }
    }
}

/**
 * Q6_K ({u8 ql[128]; u8 qh[64]; i8 scales[16]; f16 d} per 256) into groups of 16 rows: per group
 * and super-block, the 16 d; 32 runs L_v whose byte i of a row holds the low 4 bits of element
 * 4v+i (low nibble) and of element 128+4v+i (high nibble); 16 runs H_h whose byte i holds the top 2
 * bits of elements 4(h+16f)+i at bits 2f (f = 0..3); 4 runs of the scales of sub-blocks 4k..4k+3.
 */
EXPORT void ls_pack_q6_k(const uint8_t *src, int64_t rows, int32_t blocks, int64_t row_bytes, uint8_t *dst) {
    int64_t groups = (rows + GROUP - 1) / GROUP;
    for (int64_t g = 0; g < groups; g++) {
        for (int32_t b = 0; b < blocks; b++) {
            uint8_t *o = dst + (g * blocks + b) * (int64_t) Q6_K_GB;
            uint8_t *ol = o + 32, *oh = o + 32 + 32 * 64, *os = o + 32 + 48 * 64;
            for (int i = 0; i < GROUP; i++) {
                int64_t r = g * GROUP + i;
                uint8_t q[256];
                int8_t sc[16];
                if (r >= rows) {
                    o[2 * i] = o[2 * i + 1] = 0;
                    for (int e = 0; e < 256; e++) q[e] = 0;
                    for (int j = 0; j < 16; j++) sc[j] = 0;
                } else {
                    const uint8_t *s = src + r * row_bytes + (int64_t) b * 210;
                    const uint8_t *ql = s, *qh = s + 128;
                    for (int n = 0; n < 2; n++, ql += 64, qh += 32) {
                        for (int l = 0; l < 32; l++) {
                            q[128 * n + l] = (ql[l] & 0xF) | (((qh[l] >> 0) & 3) << 4);
                            q[128 * n + l + 32] = (ql[l + 32] & 0xF) | (((qh[l] >> 2) & 3) << 4);
                            q[128 * n + l + 64] = (ql[l] >> 4) | (((qh[l] >> 4) & 3) << 4);
                            q[128 * n + l + 96] = (ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4);
                        }
                    }
                    for (int j = 0; j < 16; j++) sc[j] = (int8_t) s[192 + j];
                    o[2 * i] = s[208];
                    o[2 * i + 1] = s[209];
                }
                for (int v = 0; v < 32; v++) {
                    for (int k = 0; k < 4; k++) {
                        ol[64 * v + 4 * i + k] = (q[4 * v + k] & 0xF) | ((q[128 + 4 * v + k] & 0xF) << 4);
                    }
                }
                for (int h = 0; h < 16; h++) {
                    for (int k = 0; k < 4; k++) {
                        uint8_t bits = 0;
                        for (int f = 0; f < 4; f++) bits |= (uint8_t) ((q[4 * (h + 16 * f) + k] >> 4) << (2 * f));
                        oh[64 * h + 4 * i + k] = bits;
                    }
                }
                for (int j = 0; j < 16; j++) os[64 * (j / 4) + 4 * i + j % 4] = (uint8_t) sc[j];
            }
        }
    }
}

/**
 * ggml's quantize_row_q8_K over `n` floats (a multiple of 256): per super-block the scale d, the
 * values, and the sums of each 16 (as int32).
 */
TAVX2 EXPORT void ls_quantize_q8_k(const float *x, int64_t n, int8_t *q, float *d, int32_t *sums) {
    const __m256 sign = _mm256_set1_ps(-0.0f);
    for (int64_t b = 0; b < n / 256; b++) {
        const float *xb = x + 256 * b;
        __m256 m = _mm256_setzero_ps();
        for (int j = 0; j < 256; j += 8) m = _mm256_max_ps(m, _mm256_andnot_ps(sign, _mm256_loadu_ps(xb + j)));
        __m128 m4 = _mm_max_ps(_mm256_castps256_ps128(m), _mm256_extractf128_ps(m, 1));
        m4 = _mm_max_ps(m4, _mm_movehl_ps(m4, m4));
        m4 = _mm_max_ss(m4, _mm_movehdup_ps(m4));
        float amax = _mm_cvtss_f32(m4);
        int8_t *qb = q + 256 * b;
        if (amax == 0.0f) {
            d[b] = 0.0f;
            for (int j = 0; j < 256; j++) qb[j] = 0;
            for (int j = 0; j < 16; j++) sums[16 * b + j] = 0;
            continue;
        }
        float max = 0.0f; /* the first value of largest magnitude, with its sign */
        for (int j = 0; j < 256; j++) {
            float v = xb[j];
            if ((v < 0 ? -v : v) == amax) {
                max = v;
                break;
            }
        }
        float iscale = -127.0f / max;
        __m256 s = _mm256_set1_ps(iscale);
        __m256i cap = _mm256_set1_epi32(127);
        for (int j = 0; j < 256; j += 16) {
            __m256i i0 = _mm256_min_epi32(_mm256_cvtps_epi32(_mm256_mul_ps(_mm256_loadu_ps(xb + j), s)), cap);
            __m256i i1 = _mm256_min_epi32(_mm256_cvtps_epi32(_mm256_mul_ps(_mm256_loadu_ps(xb + j + 8), s)), cap);
            __m256i sum = _mm256_add_epi32(i0, i1);
            __m128i s4 = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
            s4 = _mm_add_epi32(s4, _mm_shuffle_epi32(s4, 0x4e));
            s4 = _mm_add_epi32(s4, _mm_shuffle_epi32(s4, 0xb1));
            sums[16 * b + j / 16] = _mm_cvtsi128_si32(s4);
            __m256i p = _mm256_packs_epi32(i0, i1);                               /* 16 shorts, lane-interleaved */
            p = _mm256_permute4x64_epi64(p, 0xd8);                                 /* in element order */
            __m128i p8 = _mm_packs_epi16(_mm256_castsi256_si128(p), _mm256_extracti128_si256(p, 1));
            _mm_storeu_si128((__m128i *) (qb + j), p8);
        }
        d[b] = 1.0f / iscale;
    }
}

/**
 * For Q4_K's mins: each super-block's 8 sums of 32 activations (bsums[2j] + bsums[2j+1], within
 * +-4064) as s = 64 hi + lo with hi in [-64, 63] and lo in [0, 63], both bytes: 16 per super-block,
 * hi_0..7 then lo_0..7, so that sum_j m_j s_j = 64 dot(m, hi) + dot(m, lo) takes two vpdpbusd.
 */
EXPORT void ls_q8_k_split_sums(const int32_t *sums, int64_t blocks, int8_t *out) {
    for (int64_t b = 0; b < blocks; b++) {
        for (int j = 0; j < 8; j++) {
            int32_t v = sums[16 * b + 2 * j] + sums[16 * b + 2 * j + 1];
            int32_t hi = v >> 6; /* floor(v / 64) */
            out[16 * b + j] = (int8_t) hi;
            out[16 * b + 8 + j] = (int8_t) (v - 64 * hi);
        }
    }
}

T512 INLINE __m512i byte_lanes(__m512i v, int k) { /* byte k of each 32-bit lane, as int32 */
    return _mm512_and_si512(_mm512_srli_epi32(v, 8 * k), _mm512_set1_epi32(0xFF));
}

T512 INLINE __m512i sbyte_lanes(__m512i v, int k) { /* signed byte k of each 32-bit lane, as int32 */
    return _mm512_srai_epi32(_mm512_slli_epi32(v, 24 - 8 * k), 24);
}

/*
 * Q4_K: per pair of sub-blocks (2p, 2p+1) each of the 8 runs is loaded once, its low nibbles for
 * sub-block 2p and high ones for 2p+1; sumi += isum_j * sc_j. The mins' term sum_j m_j s_j (s_j the
 * activations' sum over sub-block j) comes from the split sums (ls_q8_k_split_sums), passed as `xs`:
 * 64 dot(m, hi) + dot(m, lo), four vpdpbusd against the mins' two runs.
 */
T512 INLINE void q4_k_tile_512(const uint8_t *w, int32_t blocks, const int8_t *xq, const float *xd, const int32_t *xs,
                               int t0, const int NT, float *y, int64_t y_stride, int valid) {
    const int8_t *split = (const int8_t *) xs;
    __m512 acc[8];
    for (int t = 0; t < NT; t++) acc[t] = _mm512_setzero_ps();
    const __m512i m4 = _mm512_set1_epi8(0x0F);
    const int64_t xrow = (int64_t) blocks * 256;
    for (int32_t b = 0; b < blocks; b++, w += Q4_K_GB) {
        PREFETCH_BLOCK(w, Q4_K_GB, LS_PREFETCH_Q4_K);
        __m512i sumi[8];
        _Pragma("clang loop unroll(full)") for (int t = 0; t < NT; t++) sumi[t] = _mm512_setzero_si512();
        __m512i scv[2] = {_mm512_loadu_si512((const void *) (w + 64)), _mm512_loadu_si512((const void *) (w + 128))};
        for (int p = 0; p < 4; p++) {
            __m512i sc0 = byte_lanes(scv[p / 2], (2 * p) % 4), sc1 = byte_lanes(scv[p / 2], (2 * p + 1) % 4);
            __m512i lo[8], hi[8];
            for (int k = 0; k < 8; k++) {
                __m512i v = _mm512_loadu_si512((const void *) (w + 320 + 64 * (8 * p + k)));
                lo[k] = _mm512_and_si512(v, m4);
                hi[k] = _mm512_and_si512(_mm512_srli_epi16(v, 4), m4);
            }
            _Pragma("clang loop unroll(full)") for (int t = 0; t < NT; t++) {
                const int8_t *xb = xq + (t0 + t) * xrow + 256 * b + 64 * p;
                __m512i s0 = _mm512_setzero_si512(), s1 = _mm512_setzero_si512();
                for (int k = 0; k < 8; k++) {
                    s0 = _mm512_dpbusd_epi32(s0, lo[k], _mm512_set1_epi32(load_i32(xb + 4 * k)));
                    s1 = _mm512_dpbusd_epi32(s1, hi[k], _mm512_set1_epi32(load_i32(xb + 32 + 4 * k)));
                }
                sumi[t] = _mm512_add_epi32(sumi[t], _mm512_add_epi32(_mm512_mullo_epi32(s0, sc0),
                                                                     _mm512_mullo_epi32(s1, sc1)));
            }
        }
        __m512 dw = _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *) w));
        __m512 mw = _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *) (w + 32)));
        __m512i mlo = _mm512_loadu_si512((const void *) (w + 192)), mhi = _mm512_loadu_si512((const void *) (w + 256));
        _Pragma("clang loop unroll(full)") for (int t = 0; t < NT; t++) {
            int64_t tb = (int64_t) (t0 + t) * blocks + b;
            const int8_t *sp = split + 16 * tb;
            __m512i h = _mm512_dpbusd_epi32(_mm512_setzero_si512(), mlo, _mm512_set1_epi32(load_i32(sp)));
            h = _mm512_dpbusd_epi32(h, mhi, _mm512_set1_epi32(load_i32(sp + 4)));
            __m512i l = _mm512_dpbusd_epi32(_mm512_setzero_si512(), mlo, _mm512_set1_epi32(load_i32(sp + 8)));
            l = _mm512_dpbusd_epi32(l, mhi, _mm512_set1_epi32(load_i32(sp + 12)));
            __m512i summ = _mm512_add_epi32(_mm512_slli_epi32(h, 6), l);
            __m512 dx = _mm512_set1_ps(xd[tb]);
            acc[t] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(sumi[t]), _mm512_mul_ps(dw, dx), acc[t]);
            acc[t] = _mm512_fnmadd_ps(_mm512_cvtepi32_ps(summ), _mm512_mul_ps(mw, dx), acc[t]);
        }
    }
    for (int t = 0; t < NT; t++) store16(y + (int64_t) (t0 + t) * y_stride, acc[t], valid);
}

/*
 * Q6_K, 4 sub-blocks at a time: sub-blocks j0, j0+4, j0+8, j0+12 (f = 0..3) take their quads from
 * H runs 4j0..4j0+3 (field f) and L runs of the same index (f = 0, 2) or 16 further (f = 1, 3), low
 * nibbles for f < 2, high ones above. So each run is loaded and unpacked once, into 16 registers
 * every token of the tile then multiplies.
 */
T512 INLINE void q6_k_tile_512(const uint8_t *w, int32_t blocks, const int8_t *xq, const float *xd, const int32_t *xs,
                               int t0, const int NT, float *y, int64_t y_stride, int valid) {
    __m512 acc[4];
    for (int t = 0; t < NT; t++) acc[t] = _mm512_setzero_ps();
    const __m512i m4 = _mm512_set1_epi8(0x0F), m30 = _mm512_set1_epi8(0x30);
    const int64_t xrow = (int64_t) blocks * 256;
    for (int32_t b = 0; b < blocks; b++, w += Q6_K_GB) {
        PREFETCH_BLOCK(w, Q6_K_GB, LS_PREFETCH_Q6_K);
        const uint8_t *wl = w + 32, *wh = w + 32 + 32 * 64, *ws = w + 32 + 48 * 64;
        __m512i sumi[4];
        _Pragma("clang loop unroll(full)") for (int t = 0; t < NT; t++) sumi[t] = _mm512_setzero_si512();
        for (int j0 = 0; j0 < 4; j0++) {
            __m512i q[4][4]; /* [f][k]: quad 4j0 + k + 16f */
            for (int k = 0; k < 4; k++) {
                int h = 4 * j0 + k;
                __m512i hv = _mm512_loadu_si512((const void *) (wh + 64 * h));
                __m512i l0 = _mm512_loadu_si512((const void *) (wl + 64 * h));
                __m512i l1 = _mm512_loadu_si512((const void *) (wl + 64 * (h + 16)));
                q[0][k] = _mm512_or_si512(_mm512_and_si512(l0, m4), _mm512_and_si512(_mm512_slli_epi16(hv, 4), m30));
                q[1][k] = _mm512_or_si512(_mm512_and_si512(l1, m4), _mm512_and_si512(_mm512_slli_epi16(hv, 2), m30));
                q[2][k] = _mm512_or_si512(_mm512_and_si512(_mm512_srli_epi16(l0, 4), m4), _mm512_and_si512(hv, m30));
                q[3][k] = _mm512_or_si512(_mm512_and_si512(_mm512_srli_epi16(l1, 4), m4),
                                          _mm512_and_si512(_mm512_srli_epi16(hv, 2), m30));
            }
            __m512i sc[4];
            for (int f = 0; f < 4; f++) {
                int j = j0 + 4 * f;
                sc[f] = sbyte_lanes(_mm512_loadu_si512((const void *) (ws + 64 * (j / 4))), j % 4);
            }
            _Pragma("clang loop unroll(full)") for (int t = 0; t < NT; t++) {
                int64_t tb = (int64_t) (t0 + t) * blocks + b;
                const int8_t *xb = xq + (t0 + t) * xrow + 256 * b;
                for (int f = 0; f < 4; f++) {
                    int j = j0 + 4 * f; /* elements 16j.. */
                    __m512i s = _mm512_set1_epi32(-32 * xs[16 * tb + j]);
                    for (int k = 0; k < 4; k++) {
                        s = _mm512_dpbusd_epi32(s, q[f][k], _mm512_set1_epi32(load_i32(xb + 16 * j + 4 * k)));
                    }
                    sumi[t] = _mm512_add_epi32(sumi[t], _mm512_mullo_epi32(s, sc[f]));
                }
            }
        }
        __m512 dw = _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *) w));
        _Pragma("clang loop unroll(full)") for (int t = 0; t < NT; t++) {
            int64_t tb = (int64_t) (t0 + t) * blocks + b;
            acc[t] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(sumi[t]), _mm512_mul_ps(dw, _mm512_set1_ps(xd[tb])), acc[t]);
        }
    }
    for (int t = 0; t < NT; t++) store16(y + (int64_t) (t0 + t) * y_stride, acc[t], valid);
}

/* Tokens per chunk for super-blocks: blocks counts 256-element blocks here. */
#define token_chunk_k(blocks) token_chunk((blocks) * 8)

#define GEMM_DRIVER_K(NAME, ATTR, TILE, GB, NTMAX)                                                                   \
    ATTR EXPORT void NAME(const uint8_t *w, int32_t blocks, int64_t rows, int64_t g0, int64_t g1, const int8_t *xq, \
                          const float *xd, const int32_t *xs, int32_t tokens, float *y, int64_t y_stride,            \
                          int64_t y_off) {                                                                           \
        int chunk = token_chunk_k(blocks);                                                                           \
        for (int c0 = 0; c0 < tokens; c0 += chunk) {                                                                 \
            int c1 = c0 + chunk < tokens ? c0 + chunk : tokens;                                                      \
            for (int64_t g = g0; g < g1; g++) {                                                                      \
                const uint8_t *wg = w + g * blocks * (int64_t) (GB);                                                 \
                int64_t left = rows - g * GROUP;                                                                     \
                int valid = left < GROUP ? (int) left : GROUP;                                                       \
                float *yg = y + y_off + g * GROUP;                                                                   \
                int t = c0;                                                                                          \
                for (; t + NTMAX <= c1; t += NTMAX) TILE(wg, blocks, xq, xd, xs, t, NTMAX, yg, y_stride, valid);     \
                for (; t + 2 <= c1; t += 2) TILE(wg, blocks, xq, xd, xs, t, 2, yg, y_stride, valid);                 \
                for (; t < c1; t++) TILE(wg, blocks, xq, xd, xs, t, 1, yg, y_stride, valid);                         \
            }                                                                                                        \
        }                                                                                                            \
    }

GEMM_DRIVER_K(ls_q4_k_gemm_avx512vnni, T512, q4_k_tile_512, Q4_K_GB, 8)
GEMM_DRIVER_K(ls_q6_k_gemm_avx512vnni, T512, q6_k_tile_512, Q6_K_GB, 4)

/* ---------------------------------------------------------------- K-quants, AVX2 and AVX-VNNI (8 rows per vector) */

/* Bytes k of each 32-bit lane as int32, unsigned and signed. */
#define BYTE_LANES_256(ATTR, SUFFIX)                                                                                \
    ATTR INLINE __m256i byte_lanes_##SUFFIX(__m256i v, int k) {                                                    \
        return _mm256_and_si256(_mm256_srli_epi32(v, 8 * k), _mm256_set1_epi32(0xFF));                             \
    }                                                                                                               \
    ATTR INLINE __m256i sbyte_lanes_##SUFFIX(__m256i v, int k) {                                                   \
        return _mm256_srai_epi32(_mm256_slli_epi32(v, 24 - 8 * k), 24);                                             \
    }

/* As q4_k_tile_512 and q6_k_tile_512, for the half h of a group (rows 8h..8h+7: bytes 32h.. of each
 * run, scales 16h..). The same integer sums and FMAs per row, so the same bits. */
#define AVX2_K_TILES(SUFFIX, ATTR, DOT)                                                                             \
    BYTE_LANES_256(ATTR, SUFFIX)                                                                                    \
    ATTR INLINE void q4_k_tile_##SUFFIX(const uint8_t *w, int32_t blocks, const int8_t *xq, const float *xd,       \
                                         const int32_t *xs, int t0, const int NT, float *y, int64_t y_stride,      \
                                         int valid) {                                                               \
        const __m256i m4 = _mm256_set1_epi8(0x0F);                                                                  \
        const int64_t xrow = (int64_t) blocks * 256;                                                                \
        for (int h = 0; h < 2; h++) {                                                                               \
            int vh = valid - 8 * h;                                                                                 \
            if (vh <= 0) break;                                                                                     \
            __m256 acc[4];                                                                                          \
            for (int t = 0; t < NT; t++) acc[t] = _mm256_setzero_ps();                                              \
            const uint8_t *wb = w;                                                                                  \
            for (int32_t b = 0; b < blocks; b++, wb += Q4_K_GB) {                                                   \
                PREFETCH_BLOCK(wb, Q4_K_GB / 2, LS_PREFETCH_Q4_K);                                                  \
                __m256i sumi[4];                                                                                    \
                _Pragma("clang loop unroll(full)") for (int t = 0; t < NT; t++) sumi[t] = _mm256_setzero_si256();   \
                for (int j = 0; j < 8; j++) {                                                                       \
                    __m256i sc = byte_lanes_##SUFFIX(                                                               \
                        _mm256_loadu_si256((const __m256i *) (wb + 64 + 64 * (j / 4) + 32 * h)), j % 4);            \
                    __m256i q[8];                                                                                   \
                    for (int k = 0; k < 8; k++) {                                                                   \
                        __m256i v = _mm256_loadu_si256((const __m256i *) (wb + 320 + 64 * (8 * (j / 2) + k) + 32 * h)); \
                        q[k] = (j & 1) ? _mm256_and_si256(_mm256_srli_epi16(v, 4), m4) : _mm256_and_si256(v, m4);   \
                    }                                                                                               \
                    _Pragma("clang loop unroll(full)") for (int t = 0; t < NT; t++) {                               \
                        const int8_t *xb = xq + (t0 + t) * xrow + 256 * b + 32 * j;                                 \
                        __m256i s0 = _mm256_setzero_si256(), s1 = _mm256_setzero_si256();                           \
                        for (int k = 0; k < 8; k += 2) {                                                            \
                            s0 = DOT(s0, q[k], _mm256_set1_epi32(load_i32(xb + 4 * k)));                            \
                            s1 = DOT(s1, q[k + 1], _mm256_set1_epi32(load_i32(xb + 4 * k + 4)));                    \
                        }                                                                                           \
                        sumi[t] = _mm256_add_epi32(sumi[t], _mm256_mullo_epi32(_mm256_add_epi32(s0, s1), sc));      \
                    }                                                                                               \
                }                                                                                                   \
                __m256 dw = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *) (wb + 16 * h)));                      \
                __m256 mw = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *) (wb + 32 + 16 * h)));                 \
                __m256i mlo = _mm256_loadu_si256((const __m256i *) (wb + 192 + 32 * h));                            \
                __m256i mhi = _mm256_loadu_si256((const __m256i *) (wb + 256 + 32 * h));                            \
                _Pragma("clang loop unroll(full)") for (int t = 0; t < NT; t++) {                                   \
                    int64_t tb = (int64_t) (t0 + t) * blocks + b;                                                   \
                    const int8_t *sp = (const int8_t *) xs + 16 * tb;                                               \
                    __m256i hs = DOT(_mm256_setzero_si256(), mlo, _mm256_set1_epi32(load_i32(sp)));                 \
                    hs = DOT(hs, mhi, _mm256_set1_epi32(load_i32(sp + 4)));                                         \
                    __m256i ls = DOT(_mm256_setzero_si256(), mlo, _mm256_set1_epi32(load_i32(sp + 8)));             \
                    ls = DOT(ls, mhi, _mm256_set1_epi32(load_i32(sp + 12)));                                        \
                    __m256i summ = _mm256_add_epi32(_mm256_slli_epi32(hs, 6), ls);                                  \
                    __m256 dx = _mm256_set1_ps(xd[tb]);                                                             \
                    acc[t] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(sumi[t]), _mm256_mul_ps(dw, dx), acc[t]);           \
                    acc[t] = _mm256_fnmadd_ps(_mm256_cvtepi32_ps(summ), _mm256_mul_ps(mw, dx), acc[t]);             \
                }                                                                                                   \
            }                                                                                                       \
            for (int t = 0; t < NT; t++) store8_##SUFFIX(y + (int64_t) (t0 + t) * y_stride + 8 * h, acc[t], vh);   \
        }                                                                                                           \
    }                                                                                                               \
    ATTR INLINE void q6_k_tile_##SUFFIX(const uint8_t *w, int32_t blocks, const int8_t *xq, const float *xd,       \
                                         const int32_t *xs, int t0, const int NT, float *y, int64_t y_stride,      \
                                         int valid) {                                                               \
        const __m256i m4 = _mm256_set1_epi8(0x0F), m30 = _mm256_set1_epi8(0x30);                                    \
        const int64_t xrow = (int64_t) blocks * 256;                                                                \
        for (int hf = 0; hf < 2; hf++) {                                                                            \
            int vh = valid - 8 * hf;                                                                                \
            if (vh <= 0) break;                                                                                     \
            __m256 acc[4];                                                                                          \
            for (int t = 0; t < NT; t++) acc[t] = _mm256_setzero_ps();                                              \
            const uint8_t *wb = w;                                                                                  \
            for (int32_t b = 0; b < blocks; b++, wb += Q6_K_GB) {                                                   \
                const uint8_t *wl = wb + 32 + 32 * hf, *wh = wb + 32 + 32 * 64 + 32 * hf;                           \
                const uint8_t *ws = wb + 32 + 48 * 64 + 32 * hf;                                                    \
                __m256i sumi[4];                                                                                    \
                _Pragma("clang loop unroll(full)") for (int t = 0; t < NT; t++) sumi[t] = _mm256_setzero_si256();   \
                for (int j0 = 0; j0 < 4; j0++) {                                                                    \
                    __m256i q[4][4];                                                                                \
                    for (int k = 0; k < 4; k++) {                                                                   \
                        int hh = 4 * j0 + k;                                                                        \
                        __m256i hv = _mm256_loadu_si256((const __m256i *) (wh + 64 * hh));                          \
                        __m256i l0 = _mm256_loadu_si256((const __m256i *) (wl + 64 * hh));                          \
                        __m256i l1 = _mm256_loadu_si256((const __m256i *) (wl + 64 * (hh + 16)));                   \
                        q[0][k] = _mm256_or_si256(_mm256_and_si256(l0, m4),                                         \
                                                  _mm256_and_si256(_mm256_slli_epi16(hv, 4), m30));                 \
                        q[1][k] = _mm256_or_si256(_mm256_and_si256(l1, m4),                                         \
                                                  _mm256_and_si256(_mm256_slli_epi16(hv, 2), m30));                 \
                        q[2][k] = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(l0, 4), m4),                   \
                                                  _mm256_and_si256(hv, m30));                                       \
                        q[3][k] = _mm256_or_si256(_mm256_and_si256(_mm256_srli_epi16(l1, 4), m4),                   \
                                                  _mm256_and_si256(_mm256_srli_epi16(hv, 2), m30));                 \
                    }                                                                                               \
                    __m256i sc[4];                                                                                  \
                    for (int f = 0; f < 4; f++) {                                                                   \
                        int j = j0 + 4 * f;                                                                         \
                        sc[f] = sbyte_lanes_##SUFFIX(_mm256_loadu_si256((const __m256i *) (ws + 64 * (j / 4))), j % 4); \
                    }                                                                                               \
                    _Pragma("clang loop unroll(full)") for (int t = 0; t < NT; t++) {                               \
                        int64_t tb = (int64_t) (t0 + t) * blocks + b;                                               \
                        const int8_t *xb = xq + (t0 + t) * xrow + 256 * b;                                          \
                        for (int f = 0; f < 4; f++) {                                                               \
                            int j = j0 + 4 * f;                                                                     \
                            __m256i s = _mm256_set1_epi32(-32 * xs[16 * tb + j]);                                   \
                            for (int k = 0; k < 4; k++) {                                                           \
                                s = DOT(s, q[f][k], _mm256_set1_epi32(load_i32(xb + 16 * j + 4 * k)));              \
                            }                                                                                       \
                            sumi[t] = _mm256_add_epi32(sumi[t], _mm256_mullo_epi32(s, sc[f]));                      \
                        }                                                                                           \
                    }                                                                                               \
                }                                                                                                   \
                __m256 dw = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *) (wb + 16 * hf)));                     \
                _Pragma("clang loop unroll(full)") for (int t = 0; t < NT; t++) {                                   \
                    int64_t tb = (int64_t) (t0 + t) * blocks + b;                                                   \
                    acc[t] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(sumi[t]), _mm256_mul_ps(dw, _mm256_set1_ps(xd[tb])), \
                                             acc[t]);                                                               \
                }                                                                                                   \
            }                                                                                                       \
            for (int t = 0; t < NT; t++) store8_##SUFFIX(y + (int64_t) (t0 + t) * y_stride + 8 * hf, acc[t], vh);  \
        }                                                                                                           \
    }

AVX2_K_TILES(avxvnni, TVNNI, dot_vnni)
AVX2_K_TILES(avx2, TAVX2, dot_avx2)

GEMM_DRIVER_K(ls_q4_k_gemm_avxvnni, TVNNI, q4_k_tile_avxvnni, Q4_K_GB, 4)
GEMM_DRIVER_K(ls_q6_k_gemm_avxvnni, TVNNI, q6_k_tile_avxvnni, Q6_K_GB, 4)
GEMM_DRIVER_K(ls_q4_k_gemm_avx2, TAVX2, q4_k_tile_avx2, Q4_K_GB, 4)
GEMM_DRIVER_K(ls_q6_k_gemm_avx2, TAVX2, q6_k_tile_avx2, Q6_K_GB, 4)

/* ================================================================ attention helpers */

/**
 * Widens `count` rows of `hd` halves (f16), row i at halves[offsets[i]], into out[i * hd ..]: the
 * keys or values of a block of cached positions, exactly as Float.float16ToFloat does for every
 * value but NaNs (whose payload F16C may quiet).
 */
TAVX2 EXPORT void ls_widen_halves(const uint16_t *halves, const int64_t *offsets, int32_t count, int32_t hd,
                                  float *out) {
    for (int32_t i = 0; i < count; i++) {
        const uint16_t *src = halves + offsets[i];
        float *dst = out + (int64_t) i * hd;
        int32_t k = 0;
        for (; k + 8 <= hd; k += 8) {
            _mm256_storeu_ps(dst + k, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *) (src + k))));
        }
        for (; k < hd; k++) dst[k] = _cvtsh_ss(src[k]);
    }
}

/* The Q8_0 KV cache's rows (Q8Kv): count rows of hd values (a multiple of 32), row i's bytes at
 * quants + offsets[i] and its f16 scales at scales + offsets[i] / 32 (offsets are multiples of 32),
 * dequantized into out[i*hd ..] as q * d (exact in float: the same bits as Q8Kv.dequantize). */
TAVX2 EXPORT void ls_dequant_q8_rows(const int8_t *quants, const uint16_t *scales, const int64_t *offsets,
                                     int32_t count, int32_t hd, float *out) {
    for (int32_t i = 0; i < count; i++) {
        const int8_t *src = quants + offsets[i];
        const uint16_t *sc = scales + offsets[i] / 32;
        float *dst = out + (int64_t) i * hd;
        for (int32_t b = 0; b < hd / 32; b++) {
            const __m256 d = _mm256_set1_ps(_cvtsh_ss(sc[b]));
            for (int32_t k = 0; k < 32; k += 8) {
                const __m128i q = _mm_loadl_epi64((const __m128i *) (src + 32 * b + k));
                _mm256_storeu_ps(dst + 32 * b + k, _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(q)), d));
            }
        }
    }
}

/* Eight positions' scores, scale times the sum of each one's eight lanes a[j] as
 * ((0+1)+(2+3))+((4+5)+(6+7)), into dst[0 .. min(8, valid)). */
TAVX2 INLINE void att_store_scores8(const __m256 a[8], float scale, float *dst, int32_t valid) {
    const __m256 u0 = _mm256_hadd_ps(_mm256_hadd_ps(a[0], a[1]), _mm256_hadd_ps(a[2], a[3]));
    const __m256 u1 = _mm256_hadd_ps(_mm256_hadd_ps(a[4], a[5]), _mm256_hadd_ps(a[6], a[7]));
    const __m256 s = _mm256_mul_ps(
        _mm256_add_ps(_mm256_permute2f128_ps(u0, u1, 0x20), _mm256_permute2f128_ps(u0, u1, 0x31)),
        _mm256_set1_ps(scale));
    if (valid >= 8) {
        _mm256_storeu_ps(dst, s);
    } else {
        float tmp[8];
        _mm256_storeu_ps(tmp, s);
        for (int32_t j = 0; j < valid; j++) dst[j] = tmp[j];
    }
}

/* Attention scores straight from the F16 cache, for `group` query heads of one row:
 * scores[g * s_stride + i] = scale * dot(q + g * hd, key i) for i < count, key i's hd halves at
 * keys + offsets[start + i] (hd a multiple of 8). Eight positions at a time; a position's products
 * are summed in its own lanes (an fma per 8 dims in dim order, then ((0+1)+(2+3))+((4+5)+(6+7)) of
 * the eight lanes), so each score is the same bits whatever other positions the call covers. */
TAVX2 EXPORT void ls_att_scores_f16(const uint16_t *keys, const int64_t *offsets, int32_t start, int32_t count,
                                    int32_t hd, const float *q, int32_t q_at, int32_t group, float scale,
                                    float *scores, int32_t s_at, int32_t s_stride) {
    for (int32_t i0 = 0; i0 < count; i0 += 8) {
        const uint16_t *k[8];
        for (int j = 0; j < 8; j++) k[j] = keys + offsets[start + (i0 + j < count ? i0 + j : i0)];
        for (int32_t g = 0; g < group; g++) {
            const float *qg = q + q_at + (int64_t) g * hd;
            __m256 a[8];
            for (int j = 0; j < 8; j++) a[j] = _mm256_setzero_ps();
            for (int32_t d = 0; d < hd; d += 8) {
                const __m256 qv = _mm256_loadu_ps(qg + d);
                for (int j = 0; j < 8; j++) {
                    a[j] = _mm256_fmadd_ps(qv, _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *) (k[j] + d))), a[j]);
                }
            }
            att_store_scores8(a, scale, scores + s_at + (int64_t) g * s_stride + i0, count - i0);
        }
    }
}

/* The weighted values straight from the F16 cache, for `group` query heads of one row:
 * out[o_at + g * hd + d] += w[w_at + g * w_stride + i] * value i [d] over i < count in order, value
 * i's hd halves at values + offsets[start + i] (hd a multiple of 8): one fma per position and
 * output, in position order, as FloatMath.weightedSum's vector lanes add them (the same bits). */
TAVX2 EXPORT void ls_att_values_f16(const uint16_t *values, const int64_t *offsets, int32_t start, int32_t count,
                                    int32_t hd, const float *w, int32_t w_at, int32_t w_stride, int32_t group,
                                    float *out, int32_t o_at) {
    for (int32_t g = 0; g < group; g++) {
        const float *wg = w + w_at + (int64_t) g * w_stride;
        float *og = out + o_at + (int64_t) g * hd;
        for (int32_t d0 = 0; d0 < hd; d0 += 32) {
            const int nc = hd - d0 >= 32 ? 4 : (hd - d0) / 8;
            __m256 acc[4];
            for (int c = 0; c < nc; c++) acc[c] = _mm256_loadu_ps(og + d0 + 8 * c);
            if (nc == 4) {
                for (int32_t i = 0; i < count; i++) {
                    const __m256 wv = _mm256_set1_ps(wg[i]);
                    const uint16_t *v = values + offsets[start + i] + d0;
                    acc[0] = _mm256_fmadd_ps(_mm256_cvtph_ps(_mm_loadu_si128((const __m128i *) v)), wv, acc[0]);
                    acc[1] = _mm256_fmadd_ps(_mm256_cvtph_ps(_mm_loadu_si128((const __m128i *) (v + 8))), wv, acc[1]);
                    acc[2] = _mm256_fmadd_ps(_mm256_cvtph_ps(_mm_loadu_si128((const __m128i *) (v + 16))), wv, acc[2]);
                    acc[3] = _mm256_fmadd_ps(_mm256_cvtph_ps(_mm_loadu_si128((const __m128i *) (v + 24))), wv, acc[3]);
                }
            } else {
                for (int32_t i = 0; i < count; i++) {
                    const __m256 wv = _mm256_set1_ps(wg[i]);
                    const uint16_t *v = values + offsets[start + i] + d0;
                    for (int c = 0; c < nc; c++) {
                        acc[c] = _mm256_fmadd_ps(_mm256_cvtph_ps(_mm_loadu_si128((const __m128i *) (v + 8 * c))), wv,
                                                 acc[c]);
                    }
                }
            }
            for (int c = 0; c < nc; c++) _mm256_storeu_ps(og + d0 + 8 * c, acc[c]);
        }
    }
}

/* AVX-512 forms of the two (hd a multiple of 16). Scores: eight positions' keys widened once into
 * a float buffer, then every query head's products from it, a position's lanes summed as
 * (l + l+8) per 16-lane accumulator, then ((0+1)+(2+3))+((4+5)+(6+7)). Values: each position's
 * row widened once for up to four query heads at a time, the fma order of the AVX2 form. */
T512 EXPORT void ls_att_scores_f16_avx512(const uint16_t *keys, const int64_t *offsets, int32_t start,
                                          int32_t count, int32_t hd, const float *q, int32_t q_at, int32_t group,
                                          float scale, float *scores, int32_t s_at, int32_t s_stride) {
    float kf[8 * 512] __attribute__((aligned(64)));
    for (int32_t i0 = 0; i0 < count; i0 += 8) {
        for (int j = 0; j < 8; j++) {
            const uint16_t *k = keys + offsets[start + (i0 + j < count ? i0 + j : i0)];
            for (int32_t d = 0; d < hd; d += 16) {
                _mm512_store_ps(kf + j * hd + d, _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *) (k + d))));
            }
        }
        for (int32_t g = 0; g < group; g++) {
            const float *qg = q + q_at + (int64_t) g * hd;
            __m512 a[8];
            for (int j = 0; j < 8; j++) a[j] = _mm512_setzero_ps();
            for (int32_t d = 0; d < hd; d += 16) {
                const __m512 qv = _mm512_loadu_ps(qg + d);
                for (int j = 0; j < 8; j++) a[j] = _mm512_fmadd_ps(qv, _mm512_load_ps(kf + j * hd + d), a[j]);
            }
            __m256 h[8];
            for (int j = 0; j < 8; j++) {
                h[j] = _mm256_add_ps(_mm512_castps512_ps256(a[j]), _mm512_extractf32x8_ps(a[j], 1));
            }
            att_store_scores8(h, scale, scores + s_at + (int64_t) g * s_stride + i0, count - i0);
        }
    }
}

/* Query heads g0 .. g0+NG-1 and dims d0 .. d0+16*NC-1 of ls_att_values_f16_avx512, NG and NC
 * constants at every call so that the accumulators stay in registers. */
T512 INLINE void att_values_tile_512(const uint16_t *values, const int64_t *offsets, int32_t count, const float *w,
                                int64_t w_stride, float *out, int32_t hd, int32_t d0, const int NG, const int NC) {
    __m512 acc[4][4];
    for (int g = 0; g < NG; g++)
        for (int c = 0; c < NC; c++) acc[g][c] = _mm512_loadu_ps(out + (int64_t) g * hd + d0 + 16 * c);
    for (int32_t i = 0; i < count; i++) {
        const uint16_t *v = values + offsets[i] + d0;
        __m512 x[4];
        for (int c = 0; c < NC; c++) x[c] = _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *) (v + 16 * c)));
        for (int g = 0; g < NG; g++) {
            const __m512 wv = _mm512_set1_ps(w[g * w_stride + i]);
            for (int c = 0; c < NC; c++) acc[g][c] = _mm512_fmadd_ps(x[c], wv, acc[g][c]);
        }
    }
    for (int g = 0; g < NG; g++)
        for (int c = 0; c < NC; c++) _mm512_storeu_ps(out + (int64_t) g * hd + d0 + 16 * c, acc[g][c]);
}

#define ATT_TILE_NC(ng)                                                                                      \
    switch (nc) {                                                                                            \
    case 1: att_values_tile_512(values, offsets + start, count, wg, w_stride, og, hd, d0, ng, 1); break;    \
    case 2: att_values_tile_512(values, offsets + start, count, wg, w_stride, og, hd, d0, ng, 2); break;    \
    case 3: att_values_tile_512(values, offsets + start, count, wg, w_stride, og, hd, d0, ng, 3); break;    \
    default: att_values_tile_512(values, offsets + start, count, wg, w_stride, og, hd, d0, ng, 4); break;   \
    }

T512 EXPORT void ls_att_values_f16_avx512(const uint16_t *values, const int64_t *offsets, int32_t start,
                                          int32_t count, int32_t hd, const float *w, int32_t w_at, int32_t w_stride,
                                          int32_t group, float *out, int32_t o_at) {
    for (int32_t g0 = 0; g0 < group; g0 += 4) {
        const int ng = group - g0 >= 4 ? 4 : group - g0;
        const float *wg = w + w_at + (int64_t) g0 * w_stride;
        float *og = out + o_at + (int64_t) g0 * hd;
        for (int32_t d0 = 0; d0 < hd; d0 += 64) {
            const int nc = hd - d0 >= 64 ? 4 : (hd - d0) / 16;
            switch (ng) {
            case 1: ATT_TILE_NC(1) break;
            case 2: ATT_TILE_NC(2) break;
            case 3: ATT_TILE_NC(3) break;
            default: ATT_TILE_NC(4) break;
            }
        }
    }
}

/* e^x per lane: Simd.exp's operations (Cephes' polynomial) in the same order, so the same bits. */
TAVX2 INLINE __m256 exp_ps(__m256 x) {
    x = _mm256_min_ps(_mm256_set1_ps(88.0f), _mm256_max_ps(_mm256_set1_ps(-87.33654f), x));
    const __m256 round = _mm256_set1_ps(12582912.0f);
    const __m256 n = _mm256_sub_ps(_mm256_fmadd_ps(x, _mm256_set1_ps(1.44269504f), round), round);
    const __m256 r = _mm256_fmadd_ps(n, _mm256_set1_ps(2.12194440e-4f),
                                     _mm256_fmadd_ps(n, _mm256_set1_ps(-0.693359375f), x));
    __m256 p = _mm256_fmadd_ps(r, _mm256_set1_ps(1.9875691500e-4f), _mm256_set1_ps(1.3981999507e-3f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(8.3334519073e-3f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(4.1665795894e-2f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.6666665459e-1f));
    p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(5.0000001201e-1f));
    p = _mm256_add_ps(_mm256_fmadd_ps(p, _mm256_mul_ps(r, r), r), _mm256_set1_ps(1.0f));
    const __m256i e = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23);
    return _mm256_mul_ps(p, _mm256_castsi256_ps(e));
}

/* The softmax of `group` query heads' scores, row g at s + at + g * stride, count of them, written
 * back as weights rounded to half (llama.cpp's F16 path): w = half(exp(x - max) / sum), a head's
 * sink (sinks[g], when sinks is not null) joining the max and the denominator only. The sum is
 * eight lanes' running sums, then ((0+4)+(2+6))+((1+5)+(3+7)), then the tail in order. */
TAVX2 EXPORT void ls_att_softmax(float *s, int32_t at, int32_t stride, int32_t count, int32_t group,
                                 const float *sinks) {
    for (int32_t g = 0; g < group; g++) {
        float *x = s + at + (int64_t) g * stride;
        float max = -__builtin_inff();
        for (int32_t i = 0; i < count; i++) max = x[i] > max ? x[i] : max;
        if (sinks) max = sinks[g] > max ? sinks[g] : max;
        const __m256 vmax = _mm256_set1_ps(max);
        __m256 acc = _mm256_setzero_ps();
        int32_t i = 0;
        for (; i + 8 <= count; i += 8) {
            const __m256 e = exp_ps(_mm256_sub_ps(_mm256_loadu_ps(x + i), vmax));
            _mm256_storeu_ps(x + i, e);
            acc = _mm256_add_ps(acc, e);
        }
        __m128 h = _mm_add_ps(_mm256_castps256_ps128(acc), _mm256_extractf128_ps(acc, 1));
        h = _mm_add_ps(h, _mm_movehl_ps(h, h));
        float sum = _mm_cvtss_f32(_mm_add_ss(h, _mm_movehdup_ps(h)));
        if (i < count) {
            float tmp[8];
            for (int32_t j = 0; j < 8; j++) tmp[j] = i + j < count ? x[i + j] : max;
            _mm256_storeu_ps(tmp, exp_ps(_mm256_sub_ps(_mm256_loadu_ps(tmp), vmax)));
            for (int32_t j = 0; i + j < count; j++) {
                x[i + j] = tmp[j];
                sum += tmp[j];
            }
        }
        if (sinks) {
            float tmp[8];
            _mm256_storeu_ps(tmp, exp_ps(_mm256_set1_ps(sinks[g] - max)));
            sum += tmp[0];
        }
        const __m256 inv = _mm256_set1_ps(1.0f / sum);
        i = 0;
        for (; i + 8 <= count; i += 8) {
            const __m256 w = _mm256_mul_ps(_mm256_loadu_ps(x + i), inv);
            _mm256_storeu_ps(x + i, _mm256_cvtph_ps(_mm256_cvtps_ph(w, _MM_FROUND_TO_NEAREST_INT)));
        }
        for (; i < count; i++) x[i] = _cvtsh_ss(_cvtss_sh(x[i] * (1.0f / sum), _MM_FROUND_TO_NEAREST_INT));
    }
}
