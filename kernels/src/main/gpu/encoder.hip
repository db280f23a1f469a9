// The BERT-specific operations: GELU, pooling, and bidirectional attention within sequence spans
// (float32 throughout, as llama.cpp's BERT graph and the CPU backend compute it). Spans come as
// `starts`: sequences + 1 ascending row offsets in device memory.
#include "ls_compat.h"

// LS_ENC_THREADS, LS_ENC_QUERIES, LS_ENC_MAX_DIM and the LS_POOL_* modes come from ls_launch.h.
#define LS_ENC_CHUNK 128
#define LS_ENC_LANES 8                                   // lanes per query in the tiled kernels
#define LS_ENC_KEYS 32                                   // keys (and values) per shared-memory tile
#define LS_ENC_NEG (-1.0e30f)                            // "no score yet": exp() of it minus a real score is 0
static_assert(LS_ENC_QUERIES * LS_ENC_LANES == LS_ENC_THREADS, "a tiled encoder block is its queries' lanes");

// GELU in its tanh form, in float32 as ggml's GPU kernels compute it:
// 0.5 v (1 + tanh(sqrt(2/pi) v (1 + 0.044715 v^2))). 1-D grid over n * cols.
LS_KERNEL void ls_gelu_f32(float* x, int total) {
  const int i = (int)(ls_block_x() * ls_block_dim_x() + ls_thread_x());
  if (i >= total) return;
  const float v = x[i];
  x[i] = 0.5f * v * (1.0f + ls_tanh(0.7978845608028654f * v * (1.0f + 0.044715f * v * v)));
}

// out[s] = mean (mode LS_POOL_MEAN), first row (LS_POOL_FIRST) or last row (LS_POOL_LAST) of rows
// [starts[s], starts[s+1]) of x.
// Grid (sequences, ceil(cols / block)). The mean scales each row by 1/count and sums in row order,
// as llama.cpp and the CPU backend do.
LS_KERNEL void ls_pool_f32(const float* x, const int* starts, float* out, int cols, int mode) {
  const int s = (int)ls_block_x();
  const int c = (int)(ls_block_y() * ls_block_dim_x() + ls_thread_x());
  if (c >= cols) return;
  const int first = starts[s];
  const int end = starts[s + 1];
  float v;
  if (mode == LS_POOL_FIRST) {
    v = x[(long)first * cols + c];
  } else if (mode == LS_POOL_LAST) {
    v = x[(long)(end - 1) * cols + c];
  } else {
    const float inv = 1.0f / (float)(end - first);
    v = 0.0f;
    for (int t = first; t < end; ++t) v += inv * x[(long)t * cols + c];
  }
  out[(long)s * cols + c] = v;
}

// Bidirectional attention of row t (grid y) and query head h (grid x) over the rows of its span,
// with keys and values read from the q|k|v rows themselves. Two passes over the span in chunks of
// LS_ENC_CHUNK positions, one thread per position for the scores: max and sum, then the weights
// exp(s - max) / sum times the values, threads across the head dimension.
LS_KERNEL void ls_encoder_attention_f32(const float* qkv, int stride, const int* starts, int sequences, float* out,
                                        int out_stride, int heads, int kv_heads, int head_dim, int key_col,
                                        int value_col, float scale) {
  LS_SHARED float q[LS_ENC_MAX_DIM];
  LS_SHARED float w[LS_ENC_CHUNK];
  LS_SHARED float scratch[LS_MAX_WAVES_PER_BLOCK];
  const int h = (int)ls_block_x();
  const int t = (int)ls_block_y();
  const int tid = (int)ls_thread_x();
  const int kvh = h / (heads / kv_heads);
  int lo = 0, hi = sequences - 1;  // the span holding t: the last start at or before it
  while (lo < hi) {
    const int mid = (lo + hi + 1) / 2;
    if (starts[mid] <= t) lo = mid;
    else hi = mid - 1;
  }
  const int first = starts[lo];
  const int count = starts[lo + 1] - first;
  for (int d = tid; d < head_dim; d += LS_ENC_THREADS) q[d] = qkv[(long)t * stride + h * head_dim + d];
  ls_sync_block();
  const long kcol = key_col + (long)kvh * head_dim;
  const long vcol = value_col + (long)kvh * head_dim;

  float mx = -__builtin_inff();
  for (int c0 = 0; c0 < count; c0 += LS_ENC_CHUNK) {
    float s = -__builtin_inff();
    if (c0 + tid < count) {
      const float* k = qkv + (long)(first + c0 + tid) * stride + kcol;
      float acc = 0.0f;
      for (int d = 0; d < head_dim; ++d) acc += q[d] * k[d];
      s = acc * scale;
    }
    mx = __builtin_fmaxf(mx, ls_block_max(s, scratch));
  }
  float sum = 0.0f;
  for (int c0 = 0; c0 < count; c0 += LS_ENC_CHUNK) {
    float e = 0.0f;
    if (c0 + tid < count) {
      const float* k = qkv + (long)(first + c0 + tid) * stride + kcol;
      float acc = 0.0f;
      for (int d = 0; d < head_dim; ++d) acc += q[d] * k[d];
      e = ls_exp(acc * scale - mx);
    }
    sum += ls_block_sum(e, scratch);
  }
  const float inv = 1.0f / sum;
  float o[LS_ENC_MAX_DIM / LS_ENC_THREADS] = {0.0f, 0.0f};
  for (int c0 = 0; c0 < count; c0 += LS_ENC_CHUNK) {
    const int len = count - c0 < LS_ENC_CHUNK ? count - c0 : LS_ENC_CHUNK;
    if (tid < len) {
      const float* k = qkv + (long)(first + c0 + tid) * stride + kcol;
      float acc = 0.0f;
      for (int d = 0; d < head_dim; ++d) acc += q[d] * k[d];
      w[tid] = ls_exp(acc * scale - mx) * inv;
    }
    ls_sync_block();
#pragma unroll
    for (int j = 0; j < LS_ENC_MAX_DIM / LS_ENC_THREADS; ++j) {
      const int d = tid + j * LS_ENC_THREADS;
      if (d < head_dim) {
        for (int i = 0; i < len; ++i) o[j] += w[i] * qkv[(long)(first + c0 + i) * stride + vcol + d];
      }
    }
    ls_sync_block();
  }
#pragma unroll
  for (int j = 0; j < LS_ENC_MAX_DIM / LS_ENC_THREADS; ++j) {
    const int d = tid + j * LS_ENC_THREADS;
    if (d < head_dim) out[(long)t * out_stride + h * head_dim + d] = o[j];
  }
}

// The same attention for the common head sizes, tiled: a block takes LS_ENC_QUERIES consecutive
// positions of one span (grid z) for one head (grid x) of one sequence (grid y), eight lanes per
// query each holding every eighth dimension, and streams the span's keys and values through shared
// memory LS_ENC_KEYS at a time, so every key and value is read from global memory once per block
// instead of once per query. Softmax is the running (online) form: per tile the scores' maximum
// rescales the sum and the output so far. Same arguments as ls_encoder_attention_f32 (sequences and
// head_dim are implied by the grid and the entry point).
template <int D>
LS_DEVICE void ls_encoder_attention_tiled(const float* qkv, int stride, const int* starts, float* out, int out_stride,
                                          int heads, int kv_heads, int key_col, int value_col, float scale,
                                          float* ks, float* vs) {
  constexpr int DPL = D / LS_ENC_LANES;
  const int h = (int)ls_block_x();
  const int seq = (int)ls_block_y();
  const int tid = (int)ls_thread_x();
  const int lane = tid % LS_ENC_LANES;
  const int first = starts[seq];
  const int count = starts[seq + 1] - first;
  const int t = (int)ls_block_z() * LS_ENC_QUERIES + tid / LS_ENC_LANES;
  if ((int)ls_block_z() * LS_ENC_QUERIES >= count) return;  // the whole block: before any barrier
  const bool active = t < count;
  const int kvh = h / (heads / kv_heads);
  const long kcol = key_col + (long)kvh * D;
  const long vcol = value_col + (long)kvh * D;

  float q[DPL], o[DPL];
  const float* qrow = qkv + (long)(first + (active ? t : 0)) * stride + (long)h * D;
#pragma unroll
  for (int i = 0; i < DPL; ++i) {
    q[i] = active ? qrow[lane + i * LS_ENC_LANES] : 0.0f;
    o[i] = 0.0f;
  }
  float m = LS_ENC_NEG, l = 0.0f;
  for (int k0 = 0; k0 < count; k0 += LS_ENC_KEYS) {
    const int len = count - k0 < LS_ENC_KEYS ? count - k0 : LS_ENC_KEYS;
    ls_sync_block();  // the previous tile is consumed
    for (int idx = tid; idx < len * D; idx += LS_ENC_THREADS) {
      const float* row = qkv + (long)(first + k0 + idx / D) * stride;
      ks[idx] = row[kcol + idx % D];
      vs[idx] = row[vcol + idx % D];
    }
    ls_sync_block();
    float sc[LS_ENC_KEYS];
    float tile_max = LS_ENC_NEG;
#pragma unroll
    for (int j = 0; j < LS_ENC_KEYS; ++j) {
      sc[j] = LS_ENC_NEG;
      if (j < len) {  // uniform across the block
        float acc = 0.0f;
#pragma unroll
        for (int i = 0; i < DPL; ++i) acc += q[i] * ks[j * D + lane + i * LS_ENC_LANES];
        for (unsigned mask = LS_ENC_LANES / 2; mask > 0; mask >>= 1) acc += ls_shfl_xor(acc, mask);
        sc[j] = acc * scale;
        tile_max = __builtin_fmaxf(tile_max, sc[j]);
      }
    }
    const float new_max = __builtin_fmaxf(m, tile_max);
    const float correction = ls_exp(m - new_max);
    l *= correction;
#pragma unroll
    for (int i = 0; i < DPL; ++i) o[i] *= correction;
#pragma unroll
    for (int j = 0; j < LS_ENC_KEYS; ++j) {
      if (j < len) {
        const float p = ls_exp(sc[j] - new_max);
        l += p;
#pragma unroll
        for (int i = 0; i < DPL; ++i) o[i] += p * vs[j * D + lane + i * LS_ENC_LANES];
      }
    }
    m = new_max;
  }
  if (active) {
    const float inv = 1.0f / l;
    float* orow = out + (long)(first + t) * out_stride + (long)h * D;
#pragma unroll
    for (int i = 0; i < DPL; ++i) orow[lane + i * LS_ENC_LANES] = o[i] * inv;
  }
}

#define LS_ENC_TILED(D)                                                                                             \
  LS_KERNEL void ls_encoder_attention_d##D(const float* qkv, int stride, const int* starts, int sequences,          \
                                           float* out, int out_stride, int heads, int kv_heads, int head_dim,      \
                                           int key_col, int value_col, float scale) {                              \
    (void)sequences;                                                                                                \
    (void)head_dim;                                                                                                 \
    LS_SHARED float ks[LS_ENC_KEYS * D];                                                                            \
    LS_SHARED float vs[LS_ENC_KEYS * D];                                                                            \
    ls_encoder_attention_tiled<D>(qkv, stride, starts, out, out_stride, heads, kv_heads, key_col, value_col, scale, \
                                  ks, vs);                                                                          \
  }
LS_ENC_TILED(32)
LS_ENC_TILED(64)
LS_ENC_TILED(128)
