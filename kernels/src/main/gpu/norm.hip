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

// LayerNorm: y = (x - mean) / sqrt(var + eps) * w + b, one block per row.
LS_KERNEL void ls_layer_norm_f32(const float* x, const float* weight, const float* bias, float* y, int cols,
                                 float eps) {
  LS_SHARED float scratch[LS_MAX_WAVES_PER_BLOCK];
  const float* row = x + (long)ls_block_x() * cols;
  float* out = y + (long)ls_block_x() * cols;
  float sum = 0.0f;
  for (int c = (int)ls_thread_x(); c < cols; c += (int)ls_block_dim_x()) sum += row[c];
  const float mean = ls_block_sum(sum, scratch) / (float)cols;
  float var = 0.0f;
  for (int c = (int)ls_thread_x(); c < cols; c += (int)ls_block_dim_x()) {
    const float d = row[c] - mean;
    var += d * d;
  }
  const float inv = ls_rsqrt(ls_block_sum(var, scratch) / (float)cols + eps);
  for (int c = (int)ls_thread_x(); c < cols; c += (int)ls_block_dim_x()) out[c] = (row[c] - mean) * inv * weight[c] + bias[c];
}

// x += r, then y = rmsnorm(x) * w: the residual add and the next norm in one pass over the row.
LS_KERNEL void ls_add_rms_norm_f32(float* x, const float* r, const float* weight, float* y, int cols, float eps) {
  LS_SHARED float scratch[LS_MAX_WAVES_PER_BLOCK];
  float* row = x + (long)ls_block_x() * cols;
  const float* res = r + (long)ls_block_x() * cols;
  float* out = y + (long)ls_block_x() * cols;
  float sum_sq = 0.0f;
  for (int c = (int)ls_thread_x(); c < cols; c += (int)ls_block_dim_x()) {
    const float v = row[c] + res[c];
    row[c] = v;
    sum_sq += v * v;
  }
  const float scale = ls_rsqrt(ls_block_sum(sum_sq, scratch) / (float)cols + eps);
  for (int c = (int)ls_thread_x(); c < cols; c += (int)ls_block_dim_x()) out[c] = row[c] * scale * weight[c];
}

// rmsnorm (optionally after the residual add, when r is not null) that also writes the Q8_0 form of
// its output for the GEMV that follows. cols must be a multiple of 32.
LS_KERNEL void ls_rms_norm_q8(float* x, const float* r, const float* weight, float* y, int8_t* q, float* d, int* sums,
                              int cols, float eps) {
  LS_SHARED float scratch[LS_MAX_WAVES_PER_BLOCK];
  const long base = (long)ls_block_x() * cols;
  float* row = x + base;
  float sum_sq = 0.0f;
  for (int c = (int)ls_thread_x(); c < cols; c += (int)ls_block_dim_x()) {
    float v = row[c];
    if (r) {
      v += r[base + c];
      row[c] = v;
    }
    sum_sq += v * v;
  }
  const float scale = ls_rsqrt(ls_block_sum(sum_sq, scratch) / (float)cols + eps);
  for (int c = (int)ls_thread_x(); c < cols; c += (int)ls_block_dim_x()) {
    const float v = row[c] * scale * weight[c];
    y[base + c] = v;
    ls_store_q8_0(v, base + c, q, d, sums);
  }
}
