// Weight formats as the GPU backend stores them, and how to read eight consecutive elements of a
// row. Q4_0 and Q8_0 are repacked at upload into two arrays (16- or 32-byte quant blocks, then the
// f16 scales), so quants load as aligned 16-byte vectors; the K-quants, F16 and F32 keep GGML's
// own block layout. Every dequantization does the float arithmetic of the CPU backend in the
// same order (the compiler may still fuse a multiply and a subtract, one rounding apart).
//
// A weight is passed to kernels as (w, wd): the quant (or plain) data, and for Q4_0/Q8_0 the
// scales array (ignored by the other formats).
#pragma once
#include "ls_compat.h"

// Block sizes LS_QK (Q4_0 / Q8_0) and LS_QK_K (K-quants) come from ls_launch.h.
#define LS_Q4_K_BYTES 144
#define LS_Q6_K_BYTES 210

LS_DEVICE float ls_f16_at(const uint8_t* p) {
  return ls_half_to_float((uint16_t)(p[0] | (p[1] << 8)));
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
  const uint8_t* q = b + 16 + 32 * c + (e % 32);
#pragma unroll
  for (int i = 0; i < 8; ++i) out[i] = d1 * (float)(hi ? (q[i] >> 4) : (q[i] & 0x0F)) - m1;
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
  const uint8_t* ql = b + 64 * n + (quarter & 1) * 32;
  const uint8_t* qh = b + 128 + 32 * n;
  const int8_t scale = (int8_t)b[192 + 8 * n + l0 / 16 + 2 * quarter];
  const float ds = ls_f16_at(b + 208) * (float)scale;
  const int low_shift = quarter >= 2 ? 4 : 0;
  const int high_shift = 2 * quarter;
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const int l = l0 + i;
    const int q = (((ql[l] >> low_shift) & 0x0F) | (((qh[l] >> high_shift) & 3) << 4)) - 32;
    out[i] = ds * (float)q;
  }
}

LS_DEVICE void ls_deq8_f16(const uint8_t* w, const uint16_t* wd, long row, int k, int e0, float* out) {
  (void)wd;
  const uint16_t* p = (const uint16_t*)w + row * k + e0;
  const ls_u32x4 v = ls_load16(p);
  const uint32_t words[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    out[2 * i] = ls_half_to_float((uint16_t)(words[i] & 0xFFFF));
    out[2 * i + 1] = ls_half_to_float((uint16_t)(words[i] >> 16));
  }
}

LS_DEVICE void ls_deq8_f32(const uint8_t* w, const uint16_t* wd, long row, int k, int e0, float* out) {
  (void)wd;
  const float* p = (const float*)w + row * k + e0;
#pragma unroll
  for (int i = 0; i < 8; ++i) out[i] = p[i];
}

// Instantiates `macro(name, deq8)` for every format that has an eight-element reader.
#define LS_FOR_EACH_FORMAT(macro) \
  macro(q4_0, ls_deq8_q4_0)       \
  macro(q8_0, ls_deq8_q8_0)       \
  macro(q4_k, ls_deq8_q4_k)       \
  macro(q6_k, ls_deq8_q6_k)       \
  macro(f16, ls_deq8_f16)         \
  macro(f32, ls_deq8_f32)
