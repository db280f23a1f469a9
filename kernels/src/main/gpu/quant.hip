// Activation quantization (what llama.cpp multiplies each weight type with), weight repacking at
// upload, and float -> half conversion for the BLAS path. All launch as 1-D grids.
#include "ls_formats.h"

// Q8_0 activations as ggml's quantize_row_q8_0 (x86 path) and the CPU backend make them: per block
// of 32, d = f16(amax / 127), q = rint(x * 127 / amax); plus each block's sum of q, which folds
// Q4_0's offset of 8 into one multiply. One thread per element; `total` is a multiple of 32 and
// the block size a multiple of 32, so each aligned group of 32 lanes is one ggml block.
LS_KERNEL void ls_quantize_q8_0(const float* x, int8_t* q, float* d, int* sums, int total) {
  ls_grid_wait();
  const int i = (int)(ls_block_x() * ls_block_dim_x() + ls_thread_x());
  if (i >= total) return;  // total is a multiple of 32: whole groups leave together
  const float v = x[i];
  const float amax = ls_group32_max(__builtin_fabsf(v));
  const float inv = amax != 0.0f ? 127.0f / amax : 0.0f;
  const int qi = (int)ls_rint(v * inv);
  q[i] = (int8_t)qi;
  const float sum = ls_group32_sum((float)qi);  // at most 32 * 127: exact in float
  if ((i & 31) == 0) {
    d[i / 32] = ls_half_to_float(ls_float_to_half(amax / 127.0f));
    sums[i / 32] = (int)sum;
  }
}

// The same quantization, written back as the half of q * d: the input of the F16 GEMM path, so a
// row multiplies the same values whichever path its batch size picks.
LS_KERNEL void ls_quantize_q8_0_f16(const float* x, uint16_t* out, int total) {
  ls_grid_wait();
  const int i = (int)(ls_block_x() * ls_block_dim_x() + ls_thread_x());
  if (i >= total) return;
  const float v = x[i];
  const float amax = ls_group32_max(__builtin_fabsf(v));
  const float inv = amax != 0.0f ? 127.0f / amax : 0.0f;
  const float d = ls_half_to_float(ls_float_to_half(amax / 127.0f));
  out[i] = ls_float_to_half(ls_rint(v * inv) * d);
}

// The same quantization, written back as floats q * d: for a float GEMV over weights whose type
// multiplies Q8_0 activations (Matmul's Q8_0_FLOAT; every such type has an integer GEMV now, so
// only a type dequantized to F16 on the host would take it).
LS_KERNEL void ls_quantize_q8_0_f32(const float* x, float* out, int total) {
  ls_grid_wait();
  const int i = (int)(ls_block_x() * ls_block_dim_x() + ls_thread_x());
  if (i >= total) return;
  const float v = x[i];
  const float amax = ls_group32_max(__builtin_fabsf(v));
  const float inv = amax != 0.0f ? 127.0f / amax : 0.0f;
  const float d = ls_half_to_float(ls_float_to_half(amax / 127.0f));
  out[i] = ls_rint(v * inv) * d;
}

// quantize_row_q8_K and back, for K-quant weights: per block of 256 the scale comes from the
// signed value of largest magnitude (the first on a tie), q = min(127, rint(x * -127 / max)),
// value q / (-127 / max). One block of 256 threads per 256 values; writes halves to `out_f16` when
// that is not null, else floats to `out_f32` when that is not null; and, when `out_q` is not null,
// the int8 q to it and each block's 1 / iscale to `out_d` (the integer K-quant GEMV's input).
LS_KERNEL void ls_quantize_q8_k(const float* x, float* out_f32, uint16_t* out_f16, int8_t* out_q, float* out_d,
                                int total) {
  ls_grid_wait();
  LS_SHARED float best_abs[LS_MAX_WAVES_PER_BLOCK];
  LS_SHARED float best_idx[LS_MAX_WAVES_PER_BLOCK];
  const int t = (int)ls_thread_x();
  const long base = (long)ls_block_x() * LS_QK_K;
  if (base >= total) return;
  const float v = x[base + t];
  float a = __builtin_fabsf(v);
  float idx = (float)t;  // below 256: exact in float, so it can travel through float shuffles
  const unsigned wave = ls_wave_size();
  for (unsigned m = wave / 2; m > 0; m >>= 1) {
    const float oa = ls_shfl_xor(a, m);
    const float oi = ls_shfl_xor(idx, m);
    if (oa > a || (oa == a && oi < idx)) {
      a = oa;
      idx = oi;
    }
  }
  const unsigned lane = (unsigned)t & (wave - 1);
  if (lane == 0) {
    best_abs[t / wave] = a;
    best_idx[t / wave] = idx;
  }
  ls_sync_block();
  float amax = best_abs[0];
  int at = (int)best_idx[0];
  for (unsigned w = 1; w < LS_QK_K / wave; ++w) {
    if (best_abs[w] > amax) {  // strictly greater: earlier waves hold earlier indices
      amax = best_abs[w];
      at = (int)best_idx[w];
    }
  }
  float r = 0.0f, dq = 0.0f, qv = 0.0f;
  if (amax != 0.0f) {
    const float iscale = -127.0f / x[base + at];
    dq = 1.0f / iscale;
    qv = __builtin_fminf(127.0f, ls_rint(iscale * v));
    r = dq * qv;
  }
  if (out_f16) out_f16[base + t] = ls_float_to_half(r);
  else if (out_f32) out_f32[base + t] = r;
  if (out_q) {
    out_q[base + t] = (int8_t)(int)qv;
    if (t == 0) out_d[base / LS_QK_K] = dq;
  }
}

LS_KERNEL void ls_f32_to_f16(const float* x, uint16_t* out, int total) {
  ls_grid_wait();
  const int i = (int)(ls_block_x() * ls_block_dim_x() + ls_thread_x());
  if (i < total) out[i] = ls_float_to_half(x[i]);
}

// GGML Q4_0 blocks ({f16 d, 16 quant bytes}, 18 bytes) -> the repacked layout of ls_formats.h.
// One thread per block.
LS_KERNEL void ls_repack_q4_0(const uint8_t* raw, uint8_t* qs, uint16_t* d, long long blocks) {
  ls_grid_wait();
  const long long b = (long long)ls_block_x() * ls_block_dim_x() + ls_thread_x();
  if (b >= blocks) return;
  const uint8_t* src = raw + b * 18;
  d[b] = (uint16_t)(src[0] | (src[1] << 8));
  uint32_t words[4];
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    words[i] = (uint32_t)src[2 + 4 * i] | ((uint32_t)src[3 + 4 * i] << 8) | ((uint32_t)src[4 + 4 * i] << 16)
        | ((uint32_t)src[5 + 4 * i] << 24);
  }
  ls_u32x4 v;
  v.x = words[0];
  v.y = words[1];
  v.z = words[2];
  v.w = words[3];
  *(ls_u32x4*)(qs + b * 16) = v;
}

// GGML Q8_0 blocks ({f16 d, 32 int8}, 34 bytes) -> the repacked layout. One thread per block.
LS_KERNEL void ls_repack_q8_0(const uint8_t* raw, uint8_t* qs, uint16_t* d, long long blocks) {
  ls_grid_wait();
  const long long b = (long long)ls_block_x() * ls_block_dim_x() + ls_thread_x();
  if (b >= blocks) return;
  const uint8_t* src = raw + b * 34;
  d[b] = (uint16_t)(src[0] | (src[1] << 8));
  uint32_t* dst = (uint32_t*)(qs + b * 32);
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    dst[i] = (uint32_t)src[2 + 4 * i] | ((uint32_t)src[3 + 4 * i] << 8) | ((uint32_t)src[4 + 4 * i] << 16)
        | ((uint32_t)src[5 + 4 * i] << 24);
  }
}
