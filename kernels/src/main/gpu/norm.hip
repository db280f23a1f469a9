// RMSNorm as in llama.cpp's ggml_rms_norm followed by the weight multiply:
//   y = x / sqrt(mean(x^2) + eps) * w
// One block per row; the block size must be a multiple of the wave size and at most LS_MAX_BLOCK.
#include "ls_compat.h"
#include "ls_heads.h"

LS_KERNEL void ls_rms_norm_f32(const float* x, const float* weight, float* y, int cols, float eps) {
  ls_grid_wait();
  LS_SHARED float scratch[LS_MAX_WAVES_PER_BLOCK];
  const float* row = x + (long)ls_block_x() * cols;
  float* out = y + (long)ls_block_x() * cols;
  float sum_sq = 0.0f;
  for (int c = (int)ls_thread_x(); c < cols; c += (int)ls_block_dim_x()) sum_sq += row[c] * row[c];
  const float scale = ls_rsqrt(ls_block_sum(sum_sq, scratch) / (float)cols + eps);
  for (int c = (int)ls_thread_x(); c < cols; c += (int)ls_block_dim_x()) out[c] = row[c] * scale * weight[c];
}

// RMSNorm of each head of head_dim values in place, times a weight shared by the heads (qwen3's and
// gemma3's q/k norms): block b normalizes head b % heads of row b / heads, starting at column col.
// Blocks of LS_HEAD_THREADS threads (ls_rope_norm_f32, which fuses this with the rope, reduces alike).
LS_KERNEL void ls_head_rms_norm_f32(float* x, const float* weight, int stride, int col, int heads, int head_dim,
                                    float eps) {
  ls_grid_wait();
  LS_SHARED float scratch[LS_MAX_WAVES_PER_BLOCK];
  const int b = (int)ls_block_x();
  float* head = x + (long)(b / heads) * stride + col + (long)(b % heads) * head_dim;
  const float scale = ls_head_rms_scale(head, head_dim, eps, scratch);
  for (int c = (int)ls_thread_x(); c < head_dim; c += (int)ls_block_dim_x()) head[c] = head[c] * scale * weight[c];
}

// LayerNorm: y = (x - mean) / sqrt(var + eps) * w + b, one block per row.
LS_KERNEL void ls_layer_norm_f32(const float* x, const float* weight, const float* bias, float* y, int cols,
                                 float eps) {
  ls_grid_wait();
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
  ls_grid_wait();
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

// The vectorized row kernels (rows a multiple of 4 long): each thread keeps up to LS_ROW_CACHE
// float4 of its row in registers between the sum of squares and the scaling, so a row is read
// once; launch with up to LS_MAX_BLOCK threads, the more the shorter each thread's chain of loads.
// ls_rms_row waits for the kernel before it (ls_grid_wait) itself, once its weights are loading.
#define LS_ROW_CACHE 4

// With COMBINE the residual is a mixture's output, made here as ls_combine_experts_f32 makes it: the
// weighted sum, slot after slot, of rows t * used + j of the experts' outputs `ex` with the weights
// of routing row t; it is stored to r (the combine's output) before it is added.
template <bool COMBINE>
LS_DEVICE ls_f32x4 ls_residual4(const float* r, const float* ex, const float* routing, int used, long base, int cols,
                                int c4) {
  if (!COMBINE) return ls_load4f(r + base + 4 * c4);
  const long t = (long)ls_block_x();
  const float* w = routing + t * 2 * used + used;
  const ls_f32x4 a = ls_load4f(ex + t * used * cols + 4 * c4);
  ls_f32x4 s;
  s.x = w[0] * a.x;
  s.y = w[0] * a.y;
  s.z = w[0] * a.z;
  s.w = w[0] * a.w;
  for (int j = 1; j < used; ++j) {
    const ls_f32x4 b = ls_load4f(ex + (t * used + j) * cols + 4 * c4);
    s.x = s.x + w[j] * b.x;
    s.y = s.y + w[j] * b.y;
    s.z = s.z + w[j] * b.z;
    s.w = s.w + w[j] * b.w;
  }
  ls_store4f((float*)r + base + 4 * c4, s);
  return s;
}

template <bool ADD, bool Q8, bool COMBINE = false>
LS_DEVICE void ls_rms_row(float* x, const float* r, const float* weight, float* y, int8_t* q, float* d, int* sums,
                          int cols, float eps, const float* ex = nullptr, const float* routing = nullptr,
                          int used = 0) {
  LS_SHARED float scratch[LS_MAX_WAVES_PER_BLOCK];
  const long base = (long)ls_block_x() * cols;
  const int vecs = cols / 4;
  const int tid = (int)ls_thread_x();
  const int threads = (int)ls_block_dim_x();
  ls_f32x4 v[LS_ROW_CACHE];
  ls_f32x4 wv[LS_ROW_CACHE];
  // the weights first (no kernel writes them): they load while the kernel before this one finishes
#pragma unroll
  for (int j = 0; j < LS_ROW_CACHE; ++j) {
    const int c4 = tid + j * threads;
    if (c4 < vecs) wv[j] = ls_load4f(weight + 4 * c4);
  }
  ls_grid_wait();
  float sum_sq = 0.0f;
#pragma unroll
  for (int j = 0; j < LS_ROW_CACHE; ++j) {
    const int c4 = tid + j * threads;
    if (c4 < vecs) {
      v[j] = ls_load4f(x + base + 4 * c4);
      if (ADD) {
        v[j] = ls_add4f(v[j], ls_residual4<COMBINE>(r, ex, routing, used, base, cols, c4));
        ls_store4f(x + base + 4 * c4, v[j]);
      }
      sum_sq += v[j].x * v[j].x + v[j].y * v[j].y + v[j].z * v[j].z + v[j].w * v[j].w;
    }
  }
  for (int c4 = tid + LS_ROW_CACHE * threads; c4 < vecs; c4 += threads) {  // rows longer than the cache
    ls_f32x4 u = ls_load4f(x + base + 4 * c4);
    if (ADD) {
      u = ls_add4f(u, ls_residual4<COMBINE>(r, ex, routing, used, base, cols, c4));
      ls_store4f(x + base + 4 * c4, u);
    }
    sum_sq += u.x * u.x + u.y * u.y + u.z * u.z + u.w * u.w;
  }
  const float scale = ls_rsqrt(ls_block_sum(sum_sq, scratch) / (float)cols + eps);
#pragma unroll
  for (int j = 0; j < LS_ROW_CACHE; ++j) {
    const int c4 = tid + j * threads;
    if (c4 < vecs) {
      const ls_f32x4 o = ls_scale4f(v[j], scale, wv[j]);
      ls_store4f(y + base + 4 * c4, o);
      if (Q8) ls_store_q8_0_x4(o, base + 4 * c4, q, d, sums);
    }
  }
  for (int c4 = tid + LS_ROW_CACHE * threads; c4 < vecs; c4 += threads) {
    const ls_f32x4 o = ls_scale4f(ls_load4f(x + base + 4 * c4), scale, ls_load4f(weight + 4 * c4));
    ls_store4f(y + base + 4 * c4, o);
    if (Q8) ls_store_q8_0_x4(o, base + 4 * c4, q, d, sums);
  }
}

LS_KERNEL void ls_rms_norm_v4(float* x, const float* weight, float* y, int cols, float eps) {
  ls_rms_row<false, false>(x, nullptr, weight, y, nullptr, nullptr, nullptr, cols, eps);
}

LS_KERNEL void ls_add_rms_norm_v4(float* x, const float* r, const float* weight, float* y, int cols, float eps) {
  ls_rms_row<true, false>(x, r, weight, y, nullptr, nullptr, nullptr, cols, eps);
}

// A mixture's combine (ls_combine_experts_f32 of rows [0, gridDim.x) into r), then x += r and the
// norm, with q null as ls_add_rms_norm_v4, else writing the Q8_0 form too as ls_rms_norm_q8_v4: the
// two launches' work in one pass over each row.
LS_KERNEL void ls_combine_add_rms_norm_v4(float* x, const float* ex, const float* routing, int used, float* r,
                                          const float* weight, float* y, int8_t* q, float* d, int* sums, int cols,
                                          float eps) {
  if (q) ls_rms_row<true, true, true>(x, r, weight, y, q, d, sums, cols, eps, ex, routing, used);
  else ls_rms_row<true, false, true>(x, r, weight, y, nullptr, nullptr, nullptr, cols, eps, ex, routing, used);
}

// With r null: rmsnorm; else the residual add first. Also writes the Q8_0 form of y (rows a
// multiple of 32 long) for the GEMV that follows.
LS_KERNEL void ls_rms_norm_q8_v4(float* x, const float* r, const float* weight, float* y, int8_t* q, float* d, int* sums,
                                 int cols, float eps) {
  if (r) ls_rms_row<true, true>(x, r, weight, y, q, d, sums, cols, eps);
  else ls_rms_row<false, true>(x, r, weight, y, q, d, sums, cols, eps);
}
