// Per weight format: the embedding gather (rows of a table picked by token id) and dequantization
// of a band of rows to half precision, the A operand of the BLAS path. One thread per eight
// elements, 1-D grids.
#include "ls_formats.h"

// out[t][0..k) = table row tokens[t], for t < n.
#define LS_EMBED(name, deq8)                                                                      \
  LS_KERNEL void ls_embed_##name(const uint8_t* w, const uint16_t* wd, const int* tokens, float* out, \
                                 int k, int n) {                                                    \
    const long i = (long)ls_block_x() * ls_block_dim_x() + ls_thread_x();                           \
    const int groups = k / 8;                                                                       \
    if (i >= (long)n * groups) return;                                                              \
    const int t = (int)(i / groups);                                                                \
    const int e0 = (int)(i % groups) * 8;                                                           \
    float v[8];                                                                                     \
    deq8(w, wd, (long)tokens[t], k, e0, v);                                                         \
    float* o = out + (long)t * k + e0;                                                              \
    _Pragma("unroll") for (int j = 0; j < 8; ++j) o[j] = v[j];                                      \
  }

// out[r - row0][0..k) = half(row r), for row0 <= r < row0 + rows.
#define LS_DEQUANT_F16(name, deq8)                                                                 \
  LS_KERNEL void ls_dequant_##name##_f16(const uint8_t* w, const uint16_t* wd, uint16_t* out, int row0, \
                                         int rows, int k) {                                         \
    const long i = (long)ls_block_x() * ls_block_dim_x() + ls_thread_x();                           \
    const int groups = k / 8;                                                                       \
    if (i >= (long)rows * groups) return;                                                           \
    const long r = i / groups;                                                                      \
    const int e0 = (int)(i % groups) * 8;                                                           \
    float v[8];                                                                                     \
    deq8(w, wd, row0 + r, k, e0, v);                                                                \
    ls_u32x4 h;                                                                                     \
    h.x = ls_float_to_half(v[0]) | ((uint32_t)ls_float_to_half(v[1]) << 16);                        \
    h.y = ls_float_to_half(v[2]) | ((uint32_t)ls_float_to_half(v[3]) << 16);                        \
    h.z = ls_float_to_half(v[4]) | ((uint32_t)ls_float_to_half(v[5]) << 16);                        \
    h.w = ls_float_to_half(v[6]) | ((uint32_t)ls_float_to_half(v[7]) << 16);                        \
    *(ls_u32x4*)(out + r * k + e0) = h;                                                             \
  }

LS_FOR_EACH_FORMAT(LS_EMBED)
LS_FOR_EACH_FORMAT(LS_DEQUANT_F16)

// The F32 gather for rows of any length (not a multiple of 8): one thread per element.
LS_KERNEL void ls_embed_f32_any(const float* w, const int* tokens, float* out, int k, int n) {
  const long i = (long)ls_block_x() * ls_block_dim_x() + ls_thread_x();
  if (i >= (long)n * k) return;
  out[i] = w[(long)tokens[i / k] * k + i % k];
}
