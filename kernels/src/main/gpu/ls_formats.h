// Weight formats as the GPU backend stores them, and how to read eight consecutive elements of a
// row. Q4_0 and Q8_0 are repacked at upload into two arrays (16- or 32-byte quant blocks, then the
// f16 scales), so quants load as aligned 16-byte vectors; every other format (Q4_1, Q5_0, Q5_1,
// the K-quants, F16, BF16, F32) keeps GGML's own block layout, so its device bytes are its file
// bytes (Q5_0's 22-byte, Q3_K's 110-byte and Q6_K's 210-byte blocks are only 2-byte aligned:
// those readers load bytes or 16-bit halves). Every dequantization does the float arithmetic of
// the CPU backend in the same order (the compiler may still fuse a multiply and a subtract, one
// rounding apart).
//
// A weight is passed to kernels as (w, wd): the quant (or plain) data, and for Q4_0/Q8_0 the
// scales array (ignored by the other formats).
#pragma once
#include "ls_compat.h"

// Block sizes LS_QK (Q4_0 / Q8_0) and LS_QK_K (K-quants) come from ls_launch.h.
#define LS_Q4_1_BYTES 20
#define LS_Q5_0_BYTES 22
#define LS_Q5_1_BYTES 24
#define LS_Q2_K_BYTES 84
#define LS_Q3_K_BYTES 110
#define LS_Q4_K_BYTES 144
#define LS_Q5_K_BYTES 176
#define LS_Q6_K_BYTES 210

LS_DEVICE float ls_f16_at(const uint8_t* p) {
#if LS_NVIDIA || LS_AMD
  return ls_half_to_float(*(const uint16_t*)p);  // every block's halves sit at even offsets
#else
  return ls_half_to_float((uint16_t)(p[0] | (p[1] << 8)));
#endif
}

// Q4_0 repacked: quants of block b of row r at w + (r * nb + b) * 16; byte i holds element i in its
// low nibble and element i + 16 in its high nibble; value (q - 8) * d.
LS_DEVICE void ls_deq8_q4_0(const uint8_t* w, const uint16_t* wd, long row, int k, int e0, float* out) {
  const int nb = k / LS_QK;
  const long blk = row * nb + e0 / LS_QK;
  const int g = (e0 % LS_QK) / 8;
  const float d = ls_half_to_float(wd[blk]);
  const uint8_t* q = w + blk * 16 + (g & 1) * 8;
  const int shift = g >= 2 ? 4 : 0;
#pragma unroll
  for (int i = 0; i < 8; ++i) out[i] = (float)(((q[i] >> shift) & 0x0F) - 8) * d;
}

// Q8_0 repacked: 32 int8 quants of block b of row r at w + (r * nb + b) * 32; value q * d.
LS_DEVICE void ls_deq8_q8_0(const uint8_t* w, const uint16_t* wd, long row, int k, int e0, float* out) {
  const int nb = k / LS_QK;
  const long blk = row * nb + e0 / LS_QK;
  const float d = ls_half_to_float(wd[blk]);
  const int8_t* q = (const int8_t*)(w + blk * 32 + (e0 % LS_QK));
#pragma unroll
  for (int i = 0; i < 8; ++i) out[i] = (float)q[i] * d;
}

// The 32 bits of a Q5_0 / Q5_1 block's qh (little-endian, at any alignment).
LS_DEVICE uint32_t ls_u32_at(const uint8_t* p) {
  return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

// The K-quant readers take their eight elements' bits as two little-endian words and work on the
// four bytes of a word at once (masks and shifts per word, not per element): a reader was bound by
// its instructions (one byte load, shift and mask per bit field of every element).

// Eight bytes at p, which is 8-byte aligned (Q4_K's and Q5_K's 144- and 176-byte blocks keep their
// 32-byte runs of quants aligned).
LS_DEVICE void ls_words_a8(const uint8_t* p, uint32_t* lo, uint32_t* hi) {
#if LS_NVIDIA || LS_AMD
  const ls_u32x2 v = *(const ls_u32x2*)p;
  *lo = v.x;
  *hi = v.y;
#else
  *lo = ls_u32_at(p);
  *hi = ls_u32_at(p + 4);
#endif
}

// Eight bytes at p, which is only 2-byte aligned (Q3_K's 110- and Q6_K's 210-byte blocks).
LS_DEVICE void ls_words_a2(const uint8_t* p, uint32_t* lo, uint32_t* hi) {
#if LS_NVIDIA || LS_AMD
  const uint16_t* h = (const uint16_t*)p;
  *lo = (uint32_t)h[0] | ((uint32_t)h[1] << 16);
  *hi = (uint32_t)h[2] | ((uint32_t)h[3] << 16);
#else
  *lo = ls_u32_at(p);
  *hi = ls_u32_at(p + 4);
#endif
}

// Byte i (0..3) of v minus `bias`, as a float: exact, as (float)(byte - bias) is. On NVIDIA the
// byte goes into the mantissa of 2^23 (one byte permute and one subtraction, no int-to-float
// conversion, which issues at a quarter of the float rate).
LS_DEVICE float ls_byte_minus(uint32_t v, int i, int bias) {
#if LS_NVIDIA
  uint32_t r;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(v), "r"(0x4B000000u), "r"(0x7650u | (uint32_t)i));
  return __int_as_float((int)r) - (8388608.0f + (float)bias);
#else
  return (float)((int)((v >> (8 * i)) & 0xFFu) - bias);
#endif
}

// Q4_1 (GGML layout, 20 bytes per 32): d, m (f16), 16 quant bytes; element j < 16 is the low
// nibble of byte j, element j + 16 its high nibble; value q * d + m.
LS_DEVICE void ls_deq8_q4_1(const uint8_t* w, const uint16_t* wd, long row, int k, int e0, float* out) {
  (void)wd;
  const int nb = k / LS_QK;
  const uint8_t* b = w + (row * nb + e0 / LS_QK) * LS_Q4_1_BYTES;
  const int e = e0 % LS_QK;
  const float d = ls_f16_at(b);
  const float m = ls_f16_at(b + 2);
  const uint8_t* q = b + 4 + (e % 16);
  const int shift = e >= 16 ? 4 : 0;
#pragma unroll
  for (int i = 0; i < 8; ++i) out[i] = (float)((q[i] >> shift) & 0x0F) * d + m;
}

// Q5_0 (GGML layout, 22 bytes per 32): d (f16), qh (32 bits), 16 quant bytes; element j's low four
// bits are as in Q4_1, its fifth is bit j of qh; value (q - 16) * d.
LS_DEVICE void ls_deq8_q5_0(const uint8_t* w, const uint16_t* wd, long row, int k, int e0, float* out) {
  (void)wd;
  const int nb = k / LS_QK;
  const uint8_t* b = w + (row * nb + e0 / LS_QK) * LS_Q5_0_BYTES;
  const int e = e0 % LS_QK;
  const float d = ls_f16_at(b);
  const uint32_t qh = ls_u32_at(b + 2) >> e;
  const uint8_t* q = b + 6 + (e % 16);
  const int shift = e >= 16 ? 4 : 0;
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const int v = (int)(((q[i] >> shift) & 0x0F) | (((qh >> i) & 1) << 4));
    out[i] = (float)(v - 16) * d;
  }
}

// Q5_1 (GGML layout, 24 bytes per 32): d, m (f16), qh (32 bits), 16 quant bytes; bits as in Q5_0;
// value q * d + m.
LS_DEVICE void ls_deq8_q5_1(const uint8_t* w, const uint16_t* wd, long row, int k, int e0, float* out) {
  (void)wd;
  const int nb = k / LS_QK;
  const uint8_t* b = w + (row * nb + e0 / LS_QK) * LS_Q5_1_BYTES;
  const int e = e0 % LS_QK;
  const float d = ls_f16_at(b);
  const float m = ls_f16_at(b + 2);
  const uint32_t qh = ls_u32_at(b + 4) >> e;
  const uint8_t* q = b + 8 + (e % 16);
  const int shift = e >= 16 ? 4 : 0;
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const int v = (int)(((q[i] >> shift) & 0x0F) | (((qh >> i) & 1) << 4));
    out[i] = (float)v * d + m;
  }
}

// Q2_K (GGML layout, 84 bytes per 256): 16 scale bytes (low nibble scale, high nibble min of each
// group of 16), 64 quant bytes, d, dmin (f16). Group g's 2-bit values are bits 2 * ((g % 8) / 2)
// of quant bytes 32 * (g / 8) + 16 * (g & 1) onwards; value d * sc * q - dmin * m.
LS_DEVICE void ls_deq8_q2_k(const uint8_t* w, const uint16_t* wd, long row, int k, int e0, float* out) {
  (void)wd;
  const int nb = k / LS_QK_K;
  const uint8_t* b = w + (row * nb + e0 / LS_QK_K) * LS_Q2_K_BYTES;
  const int e = e0 % LS_QK_K;
  const int g = e / 16;
  const int sc = b[g];
  const float dl = ls_f16_at(b + 80) * (float)(sc & 0x0F);
  const float ml = ls_f16_at(b + 82) * (float)(sc >> 4);
  const uint8_t* q = b + 16 + 32 * (g / 8) + 16 * (g & 1) + (e % 16);
  const int shift = 2 * ((g % 8) / 2);
#pragma unroll
  for (int i = 0; i < 8; ++i) out[i] = dl * (float)((q[i] >> shift) & 3) - ml;
}

// Q3_K (GGML layout, 110 bytes per 256): hmask[32], 64 quant bytes, 12 bytes of 6-bit scales, d
// (f16). Group g's low 2 bits sit as in Q2_K (quant bytes from 32), its high bit is bit g / 2 of
// hmask[16 * (g & 1) + l], whose absence subtracts 4; value d * (sc - 32) * q.
LS_DEVICE void ls_deq8_q3_k(const uint8_t* w, const uint16_t* wd, long row, int k, int e0, float* out) {
  (void)wd;
  const int nb = k / LS_QK_K;
  const uint8_t* b = w + (row * nb + e0 / LS_QK_K) * LS_Q3_K_BYTES;
  const int e = e0 % LS_QK_K;
  const int g = e / 16;
  const uint8_t* s = b + 96;
  const int low = g < 8 ? (s[g] & 0x0F) : (s[g - 8] >> 4);
  const int high = (s[8 + g % 4] >> (2 * (g / 4))) & 3;
  const float dl = ls_f16_at(b + 108) * (float)((low | (high << 4)) - 32);
  const int l0 = 16 * (g & 1) + (e % 16);
  uint32_t q[2], hm[2];
  ls_words_a2(b + 32 + 32 * (g / 8) + l0, &q[0], &q[1]);
  ls_words_a2(b + l0, &hm[0], &hm[1]);
  const int shift = 2 * ((g % 8) / 2);
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    // per byte: the two low bits, and 4 where the high bit is set (its absence subtracts 4): q + 4
    const uint32_t v = ((q[h] >> shift) & 0x03030303u) | (((hm[h] >> (g / 2)) & 0x01010101u) << 2);
#pragma unroll
    for (int i = 0; i < 4; ++i) out[4 * h + i] = dl * ls_byte_minus(v, i, 4);
  }
}

// ggml's get_scale_min_k4: the 6-bit scale and min of group j (0..7) from the 12 packed bytes.
LS_DEVICE void ls_k4_scale_min(const uint8_t* s, int j, int* sc, int* m) {
  if (j < 4) {
    *sc = s[j] & 63;
    *m = s[j + 4] & 63;
  } else {
    *sc = (s[j + 4] & 0x0F) | ((s[j - 4] >> 6) << 4);
    *m = (s[j + 4] >> 4) | ((s[j] >> 6) << 4);
  }
}

// Q4_K (GGML layout, 144 bytes per 256): d, dmin (f16), 12 scale bytes, 128 quant bytes. Each 64
// elements use 32 quant bytes, low nibbles first (group 2c), then high nibbles (group 2c+1);
// value d * sc * q - dmin * m.
LS_DEVICE void ls_deq8_q4_k(const uint8_t* w, const uint16_t* wd, long row, int k, int e0, float* out) {
  (void)wd;
  const int nb = k / LS_QK_K;
  const uint8_t* b = w + (row * nb + e0 / LS_QK_K) * LS_Q4_K_BYTES;
  const int e = e0 % LS_QK_K;
  const int c = e / 64;
  const int hi = (e % 64) >= 32;
  int sc, m;
  ls_k4_scale_min(b + 4, 2 * c + hi, &sc, &m);
  const float d1 = ls_f16_at(b) * (float)sc;
  const float m1 = ls_f16_at(b + 2) * (float)m;
  uint32_t q[2];
  ls_words_a8(b + 16 + 32 * c + (e % 32), &q[0], &q[1]);
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    const uint32_t v = (q[h] >> (hi ? 4 : 0)) & 0x0F0F0F0Fu;
#pragma unroll
    for (int i = 0; i < 4; ++i) out[4 * h + i] = d1 * ls_byte_minus(v, i, 0) - m1;
  }
}

// Q5_K (GGML layout, 176 bytes per 256): d, dmin (f16), 12 scale bytes (as Q4_K's), qh[32], 128
// quant bytes. Q4_K's nibbles, plus a fifth bit: bit g of qh[l] for element l of group g's 32;
// value d * sc * q - dmin * m.
LS_DEVICE void ls_deq8_q5_k(const uint8_t* w, const uint16_t* wd, long row, int k, int e0, float* out) {
  (void)wd;
  const int nb = k / LS_QK_K;
  const uint8_t* b = w + (row * nb + e0 / LS_QK_K) * LS_Q5_K_BYTES;
  const int e = e0 % LS_QK_K;
  const int c = e / 64;
  const int hi = (e % 64) >= 32;
  const int g = 2 * c + hi;
  int sc, m;
  ls_k4_scale_min(b + 4, g, &sc, &m);
  const float d1 = ls_f16_at(b) * (float)sc;
  const float m1 = ls_f16_at(b + 2) * (float)m;
  uint32_t q[2], qh[2];
  ls_words_a8(b + 48 + 32 * c + (e % 32), &q[0], &q[1]);
  ls_words_a8(b + 16 + (e % 32), &qh[0], &qh[1]);
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    const uint32_t v = ((q[h] >> (hi ? 4 : 0)) & 0x0F0F0F0Fu) | (((qh[h] >> g) & 0x01010101u) << 4);
#pragma unroll
    for (int i = 0; i < 4; ++i) out[4 * h + i] = d1 * ls_byte_minus(v, i, 0) - m1;
  }
}

// Q6_K (GGML layout, 210 bytes per 256): ql[128] low 4 bits, qh[64] high 2 bits, 16 int8 scales,
// d (f16). Value d * scale * (q - 32).
LS_DEVICE void ls_deq8_q6_k(const uint8_t* w, const uint16_t* wd, long row, int k, int e0, float* out) {
  (void)wd;
  const int nb = k / LS_QK_K;
  const uint8_t* b = w + (row * nb + e0 / LS_QK_K) * LS_Q6_K_BYTES;
  const int e = e0 % LS_QK_K;
  const int n = e / 128;
  const int quarter = (e % 128) / 32;
  const int l0 = e % 32;
  const int8_t scale = (int8_t)b[192 + 8 * n + l0 / 16 + 2 * quarter];
  const float ds = ls_f16_at(b + 208) * (float)scale;
  uint32_t ql[2], qh[2];
  ls_words_a2(b + 64 * n + (quarter & 1) * 32 + l0, &ql[0], &ql[1]);
  ls_words_a2(b + 128 + 32 * n + l0, &qh[0], &qh[1]);
  const int low_shift = quarter >= 2 ? 4 : 0;
  const int high_shift = 2 * quarter;
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    const uint32_t v = ((ql[h] >> low_shift) & 0x0F0F0F0Fu) | (((qh[h] >> high_shift) & 0x03030303u) << 4);
#pragma unroll
    for (int i = 0; i < 4; ++i) out[4 * h + i] = ds * ls_byte_minus(v, i, 32);
  }
}

// Eight halves packed in 16 bytes (the first in the low bits of x) as floats.
LS_DEVICE void ls_unpack_halves8(ls_u32x4 v, float* out) {
  const uint32_t words[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    out[2 * i] = ls_half_to_float((uint16_t)(words[i] & 0xFFFF));
    out[2 * i + 1] = ls_half_to_float((uint16_t)(words[i] >> 16));
  }
}

LS_DEVICE void ls_deq8_f16(const uint8_t* w, const uint16_t* wd, long row, int k, int e0, float* out) {
  (void)wd;
  ls_unpack_halves8(ls_load16((const uint16_t*)w + row * k + e0), out);
}

// BF16: the upper half of a float32.
LS_DEVICE void ls_deq8_bf16(const uint8_t* w, const uint16_t* wd, long row, int k, int e0, float* out) {
  (void)wd;
  const uint16_t* p = (const uint16_t*)w + row * k + e0;
  const ls_u32x4 v = ls_load16(p);
  const uint32_t words[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    out[2 * i] = __builtin_bit_cast(float, words[i] << 16);
    out[2 * i + 1] = __builtin_bit_cast(float, words[i] & 0xFFFF0000u);
  }
}

LS_DEVICE void ls_deq8_f32(const uint8_t* w, const uint16_t* wd, long row, int k, int e0, float* out) {
  (void)wd;
  const float* p = (const float*)w + row * k + e0;
#pragma unroll
  for (int i = 0; i < 8; ++i) out[i] = p[i];
}

// The integer GEMV's reading of the 32-blocks kept in GGML's layout (gemv.hip's ls_mmvq_ggml):
// a block's four quant ints as int8 values ready for 4-way dot products.
#define LS_IQ_Q4_1 0
#define LS_IQ_Q5_0 1
#define LS_IQ_Q5_1 2

#define LS_IQ_BLOCK_BYTES(fmt) \
  ((fmt) == LS_IQ_Q4_1 ? LS_Q4_1_BYTES : (fmt) == LS_IQ_Q5_0 ? LS_Q5_0_BYTES : LS_Q5_1_BYTES)

// An int at a 2-byte-aligned address.
LS_DEVICE int ls_load_int_b2(const uint8_t* p) {
  const uint16_t* h = (const uint16_t*)p;
  return (int)((uint32_t)h[0] | ((uint32_t)h[1] << 16));
}

// Bits 0..3 of `bits` moved to bit 4 of bytes 0..3.
LS_DEVICE int ls_fifth_bits(uint32_t bits) {
  return (int)(((bits << 4) & 0x10u) | ((bits << 11) & 0x1000u) | ((bits << 18) & 0x100000u)
               | ((bits << 25) & 0x10000000u));
}

// Block `b`'s scale d, min m (0 for Q5_0) and quant ints jj0 .. jj0 + PART - 1, each as the values
// of its four low-nibble elements (lo) and of its four high-nibble ones (hi).
template <int FMT, int PART>
LS_DEVICE void ls_iq_unpack(const uint8_t* b, int jj0, float* d, float* m, int* lo, int* hi) {
  uint32_t qh = 0;
  if (FMT == LS_IQ_Q5_0) {
    *d = ls_half_to_float(*(const uint16_t*)b);
    *m = 0.0f;
    qh = (uint32_t)ls_load_int_b2(b + 2);
  } else {
    const uint32_t dm = *(const uint32_t*)b;
    *d = ls_half_to_float((uint16_t)(dm & 0xFFFF));
    *m = ls_half_to_float((uint16_t)(dm >> 16));
    if (FMT == LS_IQ_Q5_1) qh = *(const uint32_t*)(b + 4);
  }
#pragma unroll
  for (int j = 0; j < PART; ++j) {
    const int jj = jj0 + j;
    const int q = FMT == LS_IQ_Q5_0 ? ls_load_int_b2(b + 6 + 4 * jj)
                                    : *(const int*)(b + (FMT == LS_IQ_Q4_1 ? 4 : 8) + 4 * jj);
    lo[j] = q & 0x0F0F0F0F;
    hi[j] = (q >> 4) & 0x0F0F0F0F;
    if (FMT != LS_IQ_Q4_1) {
      lo[j] |= ls_fifth_bits(qh >> (4 * jj));
      hi[j] |= ls_fifth_bits(qh >> (16 + 4 * jj));
    }
  }
}

// Instantiates `macro(name, deq8)` for every format that has an eight-element reader.
#define LS_FOR_EACH_FORMAT(macro) \
  macro(q4_0, ls_deq8_q4_0)       \
  macro(q8_0, ls_deq8_q8_0)       \
  macro(q4_1, ls_deq8_q4_1)       \
  macro(q5_0, ls_deq8_q5_0)       \
  macro(q5_1, ls_deq8_q5_1)       \
  macro(q2_k, ls_deq8_q2_k)       \
  macro(q3_k, ls_deq8_q3_k)       \
  macro(q4_k, ls_deq8_q4_k)       \
  macro(q5_k, ls_deq8_q5_k)       \
  macro(q6_k, ls_deq8_q6_k)       \
  macro(f16, ls_deq8_f16)         \
  macro(bf16, ls_deq8_bf16)       \
  macro(f32, ls_deq8_f32)
