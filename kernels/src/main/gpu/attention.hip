// Attention over the paged F16 KV cache.
//
// Batch metadata lives in device memory (so a captured graph replays with new batches): per row
// its position, its cache slot (negative for padding rows, which write nothing and output zeros),
// the offset of its sequence's block table in `tables`, and its sequence's last position (the
// extent of bidirectional attention). Slot of position p: tables[off + p / bs] * bs + p % bs.
#include "ls_compat.h"

#define LS_ATT_THREADS 128
#define LS_ATT_CHUNK 128        // positions scored per pass, held in shared memory
#define LS_ATT_MAX_QDIM 2048    // group * head_dim: query heads sharing one kv head, times their width
#define LS_ATT_MAX_GROUP 16
#define LS_ATT_NEG (-1.0e30f)   // "no score yet": exp() of it minus anything real is 0, never NaN

// Writes each row's key and value (at columns key_col and value_col of qkv) as halves into its
// slot. One block per row.
LS_KERNEL void ls_kv_write_f16(const float* qkv, int stride, int key_col, int value_col, int kv_dim,
                               const int* slots, uint16_t* keys, uint16_t* values) {
  const int t = (int)ls_block_x();
  const int slot = slots[t];
  if (slot < 0) return;
  const float* row = qkv + (long)t * stride;
  for (int i = (int)ls_thread_x(); i < kv_dim; i += (int)ls_block_dim_x()) {
    keys[(long)slot * kv_dim + i] = ls_float_to_half(row[key_col + i]);
    values[(long)slot * kv_dim + i] = ls_float_to_half(row[value_col + i]);
  }
}

// Grid (kv_heads, rows, splits), LS_ATT_THREADS threads. A block takes one row, the `group` query
// heads that share one kv head, and every splits-th chunk of LS_ATT_CHUNK positions of the row's
// range, keeping an online softmax over them (flash-decoding's split-K). With one split it writes
// the normalized output; otherwise (max, sum, unnormalized output) to `partial` for
// ls_attention_combine. The query is rounded to half first, as llama.cpp's F16 cache path does.
LS_KERNEL void ls_attention_f16(const float* qkv, int stride, const uint16_t* keys, const uint16_t* values,
                                const int* positions, const int* slots, const int* table_offsets,
                                const int* seq_last, const int* tables, float* out, int out_stride,
                                float* partial, int heads, int kv_heads, int head_dim, int block_size,
                                float scale, int causal, int window, int splits) {
  LS_SHARED float q[LS_ATT_MAX_QDIM];
  LS_SHARED float scores[LS_ATT_CHUNK * LS_ATT_MAX_GROUP];
  LS_SHARED int chunk_slots[LS_ATT_CHUNK];
  LS_SHARED float run_max[LS_ATT_MAX_GROUP];
  LS_SHARED float run_sum[LS_ATT_MAX_GROUP];
  LS_SHARED float rescale[LS_ATT_MAX_GROUP];

  const int kvh = (int)ls_block_x();
  const int t = (int)ls_block_y();
  const int split = (int)ls_block_z();
  const int tid = (int)ls_thread_x();
  const int group = heads / kv_heads;
  const int qdim = group * head_dim;
  const int kv_dim = kv_heads * head_dim;
  const unsigned wave = ls_wave_size();
  const int lane = tid & (int)(wave - 1);
  const int waves = LS_ATT_THREADS / (int)wave;
  const int wave_id = tid / (int)wave;
  const int per_thread = (qdim + LS_ATT_THREADS - 1) / LS_ATT_THREADS;  // <= LS_ATT_MAX_QDIM / THREADS
  float acc[LS_ATT_MAX_QDIM / LS_ATT_THREADS];
#pragma unroll
  for (int j = 0; j < LS_ATT_MAX_QDIM / LS_ATT_THREADS; ++j) acc[j] = 0.0f;

  const bool padding = slots[t] < 0;
  const int pos = positions[t];
  const int last = causal ? pos : seq_last[t];
  const int first = window > 0 ? (pos - window + 1 > 0 ? pos - window + 1 : 0) : 0;
  const int count = padding ? 0 : last - first + 1;
  const int chunks = (count + LS_ATT_CHUNK - 1) / LS_ATT_CHUNK;
  const int* table = tables + table_offsets[t];
  const float* qrow = qkv + (long)t * stride + kvh * qdim;

  for (int i = tid; i < qdim; i += LS_ATT_THREADS) q[i] = ls_half_to_float(ls_float_to_half(qrow[i]));
  if (tid < group) {
    run_max[tid] = LS_ATT_NEG;
    run_sum[tid] = 0.0f;
  }
  ls_sync_block();

  for (int c = split; c < chunks; c += splits) {
    const int p0 = first + c * LS_ATT_CHUNK;
    const int len = count - c * LS_ATT_CHUNK < LS_ATT_CHUNK ? count - c * LS_ATT_CHUNK : LS_ATT_CHUNK;
    for (int i = tid; i < len; i += LS_ATT_THREADS) {
      const int p = p0 + i;
      chunk_slots[i] = table[p / block_size] * block_size + p % block_size;
    }
    ls_sync_block();
    // Scores: a wave per position, its lanes across the head dimension.
    for (int i = wave_id; i < len; i += waves) {
      const uint16_t* k = keys + (long)chunk_slots[i] * kv_dim + kvh * head_dim;
      for (int g = 0; g < group; ++g) {
        float s = 0.0f;
        for (int d = lane; d < head_dim; d += (int)wave) s += q[g * head_dim + d] * ls_half_to_float(k[d]);
        s = ls_wave_sum(s);
        if (lane == 0) scores[i * group + g] = s * scale;
      }
    }
    ls_sync_block();
    // Softmax bookkeeping: a wave per query head.
    for (int g = wave_id; g < group; g += waves) {
      float m = LS_ATT_NEG;
      for (int i = lane; i < len; i += (int)wave) m = __builtin_fmaxf(m, scores[i * group + g]);
      m = ls_wave_max(m);
      const float old_max = run_max[g];
      const float new_max = __builtin_fmaxf(old_max, m);
      float sum = 0.0f;
      for (int i = lane; i < len; i += (int)wave) {
        const float e = ls_exp(scores[i * group + g] - new_max);
        scores[i * group + g] = e;
        sum += e;
      }
      sum = ls_wave_sum(sum);
      if (lane == 0) {
        const float r = ls_exp(old_max - new_max);
        rescale[g] = r;
        run_sum[g] = run_sum[g] * r + sum;
        run_max[g] = new_max;
      }
    }
    ls_sync_block();
    // Weighted values: each thread owns the same (head, dim) outputs throughout.
#pragma unroll
    for (int j = 0; j < LS_ATT_MAX_QDIM / LS_ATT_THREADS; ++j) {
      const int idx = tid + j * LS_ATT_THREADS;
      if (j < per_thread && idx < qdim) {
        const int g = idx / head_dim;
        const int d = idx % head_dim;
        float a = acc[j] * rescale[g];
        const uint16_t* v = values + kvh * head_dim + d;
        for (int i = 0; i < len; ++i) a += scores[i * group + g] * ls_half_to_float(v[(long)chunk_slots[i] * kv_dim]);
        acc[j] = a;
      }
    }
    ls_sync_block();
  }

  const int head0 = kvh * group;
  if (splits == 1) {
#pragma unroll
    for (int j = 0; j < LS_ATT_MAX_QDIM / LS_ATT_THREADS; ++j) {
      const int idx = tid + j * LS_ATT_THREADS;
      if (j < per_thread && idx < qdim) {
        const int g = idx / head_dim;
        out[(long)t * out_stride + head0 * head_dim + idx] = padding ? 0.0f : acc[j] / run_sum[g];
      }
    }
    return;
  }
  // partial layout per (row, head, split): head_dim accumulators, then max, then sum.
  const int part = head_dim + 2;
#pragma unroll
  for (int j = 0; j < LS_ATT_MAX_QDIM / LS_ATT_THREADS; ++j) {
    const int idx = tid + j * LS_ATT_THREADS;
    if (j < per_thread && idx < qdim) {
      const int g = idx / head_dim;
      const int d = idx % head_dim;
      partial[(((long)t * heads + head0 + g) * splits + split) * part + d] = acc[j];
    }
  }
  if (tid < group) {
    float* p = partial + (((long)t * heads + head0 + tid) * splits + split) * part;
    p[head_dim] = run_max[tid];
    p[head_dim + 1] = run_sum[tid];
  }
}

// Merges the splits of ls_attention_f16: grid (heads, rows), threads over the head dimension.
LS_KERNEL void ls_attention_combine(const float* partial, const int* slots, float* out, int out_stride, int heads,
                                    int head_dim, int splits) {
  const int h = (int)ls_block_x();
  const int t = (int)ls_block_y();
  const int part = head_dim + 2;
  const float* p = partial + ((long)t * heads + h) * splits * part;
  float m = LS_ATT_NEG;
  for (int s = 0; s < splits; ++s) m = __builtin_fmaxf(m, p[s * part + head_dim]);
  float sum = 0.0f;
  for (int s = 0; s < splits; ++s) sum += p[s * part + head_dim + 1] * ls_exp(p[s * part + head_dim] - m);
  const bool padding = slots[t] < 0;
  for (int d = (int)ls_thread_x(); d < head_dim; d += (int)ls_block_dim_x()) {
    float o = 0.0f;
    for (int s = 0; s < splits; ++s) o += p[s * part + d] * ls_exp(p[s * part + head_dim] - m);
    out[(long)t * out_stride + h * head_dim + d] = padding ? 0.0f : o / sum;
  }
}
