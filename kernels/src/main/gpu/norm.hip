// RMSNorm as in llama.cpp's ggml_rms_norm followed by the weight multiply:
//   y = x / sqrt(mean(x^2) + eps) * w
// One block per row; the block size must be a multiple of the wave size and at most LS_MAX_BLOCK.
#include "ls_compat.h"

LS_KERNEL void ls_rms_norm_f32(const float* x, const float* weight, float* y, int cols, float eps) {
  LS_SHARED float scratch[LS_MAX_WAVES_PER_BLOCK];
  const float* row = x + (long)ls_block_x() * cols;
  float* out = y + (long)ls_block_x() * cols;
  float sum_sq = 0.0f;
  for (int c = (int)ls_thread_x(); c < cols; c += (int)ls_block_dim_x()) sum_sq += row[c] * row[c];
  const float scale = ls_rsqrt(ls_block_sum(sum_sq, scratch) / (float)cols + eps);
  for (int c = (int)ls_thread_x(); c < cols; c += (int)ls_block_dim_x()) out[c] = row[c] * scale * weight[c];
}
