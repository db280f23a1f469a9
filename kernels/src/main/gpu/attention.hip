// Attention over the paged F16 KV cache.
//
// Batch metadata lives in device memory (so a captured graph replays with new batches): per row
// its position, its cache slot (negative for padding rows, which write nothing and output zeros),
// the offset of its sequence's block table in `tables`, and its sequence's last position (the
// extent of bidirectional attention). Slot of position p: tables[off + p / bs] * bs + p % bs.
#include "ls_formats.h"

// gemma2's attention soft-capping: a score s, its scale already divided by the cap, becomes
// cap * tanh(s), as ggml's flash attention computes it; a cap of 0 leaves scores as they are.
LS_DEVICE float ls_softcap(float s, float cap) {
  return cap > 0.0f ? cap * ls_tanh(s) : s;
}

// LS_ATT_THREADS, LS_ATT_MAX_QDIM, LS_ATT_MAX_GROUP, LS_ATT_SPLIT_STATS, LS_ATT_MAX_SPLITS,
// LS_DEC_MAX_GROUP and LS_TILE_Q come from ls_launch.h.
#define LS_ATT_CHUNK 128        // positions scored per pass, held in shared memory
#define LS_ATT_NEG (-1.0e30f)   // "no score yet": exp() of it minus anything real is 0, never NaN

// gpt-oss's attention sinks: a logit per query head that joins the softmax's denominator without a
// value, as ggml's flash attention folds it in. A softmax's running (max, sum) take exp(sink - max);
// returns the factor that rescales what was weighted against the old max. No sinks (null): 1.
LS_DEVICE float ls_fold_sink(float& m, float& sum, const float* sinks, int head) {
  if (sinks == 0) return 1.0f;
  const float s = sinks[head];
  const float nm = __builtin_fmaxf(m, s);
  const float r = ls_exp(m - nm);
  sum = sum * r + ls_exp(s - nm);
  m = nm;
  return r;
}

// Writes each row's key and value (at columns key_col and value_col of qkv) as halves into its
// slot. One block per row.
LS_KERNEL void ls_kv_write_f16(const float* qkv, int stride, int key_col, int value_col, int kv_dim,
                               const int* slots, uint16_t* keys, uint16_t* values) {
  ls_grid_wait();
  const int t = (int)ls_block_x();
  const int slot = slots[t];
  if (slot < 0) return;
  const float* row = qkv + (long)t * stride;
  for (int i = (int)ls_thread_x(); i < kv_dim; i += (int)ls_block_dim_x()) {
    keys[(long)slot * kv_dim + i] = ls_float_to_half(row[key_col + i]);
    values[(long)slot * kv_dim + i] = ls_float_to_half(row[value_col + i]);
  }
}

// Element i of a Q8_0 cache (q, d), as ls_quantize_q8_0 and the CPU backend's Q8Kv write it:
// d = amax / 127 stored as a half, q = round-half-even(v * 127 / amax). 32 consecutive lanes hold
// elements 32b .. 32b+31, all active.
LS_DEVICE void ls_kv_store_q8(float v, long i, int8_t* q, uint16_t* d) {
  const float amax = ls_group32_max(__builtin_fabsf(v));
  const float inv = amax != 0.0f ? 127.0f / amax : 0.0f;
  q[i] = (int8_t)(int)ls_rint(v * inv);
  if ((i & 31) == 0) d[i / 32] = ls_float_to_half(amax / 127.0f);
}

// ls_kv_write_f16 into a Q8_0 cache (kv_dim a multiple of 32; a block size that is one too).
LS_KERNEL void ls_kv_write_q8(const float* qkv, int stride, int key_col, int value_col, int kv_dim, const int* slots,
                              int8_t* keys, uint16_t* key_scales, int8_t* values, uint16_t* value_scales) {
  ls_grid_wait();
  const int t = (int)ls_block_x();
  const int slot = slots[t];
  if (slot < 0) return;
  const float* row = qkv + (long)t * stride;
  for (int i = (int)ls_thread_x(); i < kv_dim; i += (int)ls_block_dim_x()) {
    ls_kv_store_q8(row[key_col + i], (long)slot * kv_dim + i, keys, key_scales);
    ls_kv_store_q8(row[value_col + i], (long)slot * kv_dim + i, values, value_scales);
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
                                float scale, float softcap, const float* sinks, int causal, int window, int splits) {
  ls_grid_wait();
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
        if (lane == 0) scores[i * group + g] = ls_softcap(s * scale, softcap);
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
    if (tid < group) rescale[tid] = ls_fold_sink(run_max[tid], run_sum[tid], sinks, head0 + tid);
    ls_sync_block();
#pragma unroll
    for (int j = 0; j < LS_ATT_MAX_QDIM / LS_ATT_THREADS; ++j) {
      const int idx = tid + j * LS_ATT_THREADS;
      if (j < per_thread && idx < qdim) {
        const int g = idx / head_dim;
        out[(long)t * out_stride + head0 * head_dim + idx] = padding ? 0.0f : acc[j] * rescale[g] / run_sum[g];
      }
    }
    return;
  }
  // partial layout per (row, head, split): head_dim accumulators, then max, then sum.
  const int part = head_dim + LS_ATT_SPLIT_STATS;
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

// Merges the splits of ls_attention_f16 (and the head's sink, if any): grid (heads, rows), threads
// over the head dimension.
LS_KERNEL void ls_attention_combine(const float* partial, const int* slots, float* out, int out_stride, int heads,
                                    int head_dim, int splits, const float* sinks) {
  ls_grid_wait();
  const int h = (int)ls_block_x();
  const int t = (int)ls_block_y();
  const int part = head_dim + LS_ATT_SPLIT_STATS;
  const float* p = partial + ((long)t * heads + h) * splits * part;
  float m = LS_ATT_NEG;
  for (int s = 0; s < splits; ++s) m = __builtin_fmaxf(m, p[s * part + head_dim]);
  float sum = 0.0f;
  for (int s = 0; s < splits; ++s) sum += p[s * part + head_dim + 1] * ls_exp(p[s * part + head_dim] - m);
  const float m0 = m;
  const float r = ls_fold_sink(m, sum, sinks, h);
  const bool padding = slots[t] < 0;
  for (int d = (int)ls_thread_x(); d < head_dim; d += (int)ls_block_dim_x()) {
    float o = 0.0f;
    for (int s = 0; s < splits; ++s) o += p[s * part + d] * ls_exp(p[s * part + head_dim] - m0);
    out[(long)t * out_stride + h * head_dim + d] = padding ? 0.0f : o * r / sum;
  }
}

// Paged attention of rows that each attend from one position (decode steps, and rows that fill the
// GPU), for the common head sizes (8, 16, 32, 64, 96, 128, 256) and at most LS_DEC_MAX_GROUP query
// heads per kv head: ls_attention_split_d* (F16 cache) and ls_attention_split_q8_d* (Q8_0 cache) on
// CUDA cores or AMD's vector units, and for heads of 64 and 128 ls_attention_dmma_d* and
// ls_attention_dmma_q8_d* on NVIDIA tensor cores (sm_80 on). Grid (kv_heads x head_parts, rows,
// splits): a block takes one row, one part of a kv head's query heads (at most LS_DEC_PART_HEADS on
// CUDA cores, LS_DMMA_HEADS on tensor cores; the host splits larger groups into equal parts, and a
// head's arithmetic is the same in any part, so the same bits) and one split of the row's positions.
//
// Flash decoding in one launch. A row uses one split per LS_DEC_SPLIT_MIN positions up to the grid's
// split count (a graph keeps its grid as the context grows). Inside a block, each 32-lane group walks
// its own positions with an online softmax, loading each position's key and value together (nothing
// waits for a softmax statistic before the values are read), and the four groups merge once through
// shared memory (ls_dec_merge). On CUDA cores (ls_dec_range) LPK lanes take a position, each a
// contiguous slice of its key and value, so a group holds 32 / LPK positions, twice over; the lanes
// of a position share its score through shuffles, and a group's running maximum is shared by all its
// lanes, so at the end its positions' sums add by shuffles without rescaling. On tensor cores
// (ls_dec_range_mma) a group takes 16 positions a round as m16n8k16 products. Weights stay in float on
// CUDA cores and are rounded to half for the tensor-core products (as llama.cpp's CUDA flash
// attention does); the CPU backend rounds them to half after normalizing: about 2e-4 relative L2
// apart either way. With one split used the block writes the row's normalized output; otherwise it
// writes (unnormalized output, maximum, sum) to `partial`, and the last split of a row and part to
// finish (a counter in `arrivals`, left at zero for the next launch) merges them (ls_dec_finish). The
// query is rounded to half first, as llama.cpp's F16 cache path does.
#define LS_DEC_LANES 32
// Lane groups per block.
#define LS_DEC_GROUPS (LS_ATT_THREADS / LS_DEC_LANES)
// Positions of a block's range whose keys and values are prefetched into L2 before the wait.
#define LS_DEC_PREFETCH 256
// Fewest positions per split: about one round of a block's key and value loads.
#define LS_DEC_SPLIT_MIN 32

// Key and value dims per lane for heads of 128 and more, and sets of a lane group's positions
// loaded before any is used. The attention lab builds other values to compare (H200, 8B shape):
// 16 dims a lane take 188 registers (two blocks a multiprocessor) and 64 rows of 160 positions
// took 49 us a layer against 36 with 8 (121 registers then, 125 with the Q8_0 output); 8 dims with
// four sets, 50.
#ifndef LS_DEC_WIDE_DPL
#define LS_DEC_WIDE_DPL 8
#endif
#ifndef LS_DEC_SETS
#define LS_DEC_SETS 2
#endif

#if LS_AMD
// blocks are always LS_ATT_THREADS: a lane may have the registers a larger block could not give it
#define LS_DEC_BOUNDS __attribute__((amdgpu_flat_work_group_size(LS_ATT_THREADS, LS_ATT_THREADS)))
#else
#define LS_DEC_BOUNDS
#endif

template <int D>
struct LsDec {
  static constexpr int DPL = D >= 128 ? LS_DEC_WIDE_DPL : D == 96 ? 12 : 8;  // key and value dims per lane
  static constexpr int LPK = D / DPL;                                       // lanes per position
  static constexpr int KPG = LS_DEC_LANES / LPK;                            // positions per lane group at once
  static constexpr int U = LS_DEC_SETS;
  static constexpr int STEP = KPG * U;                                      // positions per lane group and round
};

// N consecutive halves at p as floats, in the widest loads their alignment allows (p is aligned to
// the bytes of the widest power-of-two count dividing N, up to 8 halves).
template <int N>
LS_DEVICE void ls_load_halves(const uint16_t* p, float (&out)[N]) {
  if constexpr (N % 8 == 0) {
#pragma unroll
    for (int j = 0; j < N / 8; ++j) ls_unpack_halves8(ls_load16(p + 8 * j), out + 8 * j);
  } else if constexpr (N % 4 == 0) {
#pragma unroll
    for (int j = 0; j < N / 4; ++j) {
      const unsigned long long v = ((const unsigned long long*)p)[j];
#pragma unroll
      for (int i = 0; i < 4; ++i) out[4 * j + i] = ls_half_to_float((uint16_t)(v >> (16 * i)));
    }
  } else if constexpr (N % 2 == 0) {
#pragma unroll
    for (int j = 0; j < N / 2; ++j) {
      const unsigned u = ((const unsigned*)p)[j];
      out[2 * j] = ls_half_to_float((uint16_t)(u & 0xFFFFu));
      out[2 * j + 1] = ls_half_to_float((uint16_t)(u >> 16));
    }
  } else {
#pragma unroll
    for (int j = 0; j < N; ++j) out[j] = ls_half_to_float(p[j]);
  }
}

// The cache's keys or values as the kernels read them. F16: halves, slot-major (index
// slot * kv_dim + dim). Q8_0: signed bytes in the same layout and one half scale per 32 values
// (d[index / 32]); a value is q * d, exact in float, as the CPU backend and ggml's
// dequantize_row_q8_0 compute it. `load` reads N consecutive values from an index that is a
// multiple of N; `half` and `halves8` give the tiled kernels' shared-memory halves (a Q8_0 value
// rounded to half there); `prefetch` brings the lines of N values from index i into L2.
struct LsKvF16 {
  const uint16_t* h;
  template <int N>
  LS_MEMBER void load(long i, float (&out)[N]) const {
    ls_load_halves<N>(h + i, out);
  }
  LS_MEMBER uint16_t half(long i) const { return h[i]; }
  LS_MEMBER ls_u32x4 halves8(long i) const { return ls_load16(h + i); }
  template <int N>
  LS_MEMBER void prefetch(long i) const {
#pragma unroll
    for (int b = 0; b < 2 * N; b += 128) ls_prefetch_l2(h + i + b / 2);
  }
};

struct LsKvQ8 {
  const int8_t* q;
  const uint16_t* d;
  template <int N>
  LS_MEMBER void load(long i, float (&out)[N]) const {
    if constexpr (N % 4 == 0 && 32 % N == 0) {  // one block's values, in 4-byte words
      const float s = ls_half_to_float(d[i / 32]);
      unsigned w[N / 4];
      if constexpr (N % 16 == 0) {
#pragma unroll
        for (int j = 0; j < N / 16; ++j) {
          const ls_u32x4 v = ls_load16(q + i + 16 * j);
          w[4 * j] = v.x, w[4 * j + 1] = v.y, w[4 * j + 2] = v.z, w[4 * j + 3] = v.w;
        }
      } else if constexpr (N % 8 == 0) {
        const ls_u32x2 v = *(const ls_u32x2*)(q + i);
        w[0] = v.x, w[1] = v.y;
      } else {
        w[0] = *(const unsigned*)(q + i);
      }
#pragma unroll
      for (int j = 0; j < N; ++j) out[j] = (float)(int8_t)(w[j / 4] >> (8 * (j % 4))) * s;
    } else {
#pragma unroll
      for (int j = 0; j < N; ++j) out[j] = (float)q[i + j] * ls_half_to_float(d[(i + j) / 32]);
    }
  }
  LS_MEMBER uint16_t half(long i) const { return ls_float_to_half((float)q[i] * ls_half_to_float(d[i / 32])); }
  template <int N>
  LS_MEMBER void prefetch(long i) const {
#pragma unroll
    for (int b = 0; b < N; b += 128) ls_prefetch_l2(q + i + b);
    ls_prefetch_l2(d + i / 32);
  }
  LS_MEMBER ls_u32x4 halves8(long i) const {
    float v[8];
    load<8>(i, v);
    ls_u32x4 r;
    r.x = ls_float_to_half(v[0]) | ((unsigned)ls_float_to_half(v[1]) << 16);
    r.y = ls_float_to_half(v[2]) | ((unsigned)ls_float_to_half(v[3]) << 16);
    r.z = ls_float_to_half(v[4]) | ((unsigned)ls_float_to_half(v[5]) << 16);
    r.w = ls_float_to_half(v[6]) | ((unsigned)ls_float_to_half(v[7]) << 16);
    return r;
  }
};

struct LsDecRow {
  bool padding;
  int begin;
  int end;
  int used;  // splits that have positions: at most the grid's split count
  const int* table;
};

// Row t's range for this split: one split per LS_DEC_SPLIT_MIN positions, at most `splits`; splits
// past `used` have empty ranges.
LS_DEVICE LsDecRow ls_dec_row(int t, int split, int splits, const int* positions, const int* slots,
                              const int* table_offsets, const int* seq_last, const int* tables, int causal, int window) {
  LsDecRow r;
  r.padding = slots[t] < 0;
  const int pos = positions[t];
  const int last = causal ? pos : seq_last[t];
  const int first = window > 0 ? (pos - window + 1 > 0 ? pos - window + 1 : 0) : 0;
  const int count = r.padding ? 0 : last - first + 1;
  const int want = (count + LS_DEC_SPLIT_MIN - 1) / LS_DEC_SPLIT_MIN;
  r.used = want < 1 ? 1 : want < splits ? want : splits;
  const int per = (count + r.used - 1) / r.used;
  r.begin = first + split * per;
  r.end = r.begin + per < last + 1 ? r.begin + per : last + 1;
  if (r.padding || split >= r.used) r.end = r.begin;
  r.table = tables ? tables + table_offsets[t] : nullptr;
  return r;
}

LS_DEVICE long ls_dec_slot(const LsDecRow& r, int p, int block_size) {
  return (long)r.table[p / block_size] * block_size + p % block_size;
}

// Query heads head0 .. head0 + group - 1, rounded to half as llama.cpp's F16 cache path does, into
// qs[g * D + d].
template <int D>
LS_DEVICE void ls_dec_load_q(const float* qkv, int stride, int t, int head0, int group, float* qs) {
  const float* qrow = qkv + (long)t * stride + (long)head0 * D;
  for (int i = (int)ls_thread_x(); i < group * D; i += LS_ATT_THREADS) {
    qs[i] = ls_half_to_float(ls_float_to_half(qrow[i]));
  }
}

// The keys and values of the first LS_DEC_PREFETCH positions of r's range into L2, a (position, keys
// or values) pair per thread.
template <int D, class KV>
LS_DEVICE void ls_dec_prefetch(const KV keys, const KV values, const LsDecRow& r, int block_size, int kv_dim, int kvh) {
  const int n = r.end - r.begin < LS_DEC_PREFETCH ? r.end - r.begin : LS_DEC_PREFETCH;
  for (int i = (int)ls_thread_x(); i < 2 * n; i += LS_ATT_THREADS) {
    const long at = ls_dec_slot(r, r.begin + i / 2, block_size) * kv_dim + (long)kvh * D;
    if (i % 2 == 0) keys.template prefetch<D>(at);
    else values.template prefetch<D>(at);
  }
}

// The cache slots of a lane's U positions of the round at `base` (a valid position's slot where one
// is past the range: loaded, never used).
template <int D>
LS_DEVICE void ls_dec_slots(const LsDecRow& r, int base, int kslot, int block_size, long (&slot)[LsDec<D>::U]) {
  using S = LsDec<D>;
#pragma unroll
  for (int u = 0; u < S::U; ++u) {
    const int p = base + u * S::KPG + kslot;
    slot[u] = ls_dec_slot(r, p < r.end ? p : base, block_size);
  }
}

// The lane groups' shares of a block's range merged: group w left, for each of the block's `group`
// heads h, its maximum and sum in wstat[(w * H + h) * 2 + {0, 1}] and its values (weighted against
// its own maximum) in wacc[(w * H + h) * D + d]. Leaves oacc[h * D + d] (weighted against run_m[h],
// not normalized), run_m[h] and run_l[h] (the weights' sum) in shared memory.
template <int D, int H>
LS_DEVICE void ls_dec_merge(int group, const float* wacc, const float* wstat, float* oacc, float* run_m, float* run_l) {
  ls_sync_block();
  for (int idx = (int)ls_thread_x(); idx < group * D; idx += LS_ATT_THREADS) {
    const int h = idx / D;
    float mx = LS_ATT_NEG;
#pragma unroll
    for (int w = 0; w < LS_DEC_GROUPS; ++w) mx = __builtin_fmaxf(mx, wstat[(w * H + h) * 2]);
    float o = 0.0f;
    float sum = 0.0f;
#pragma unroll
    for (int w = 0; w < LS_DEC_GROUPS; ++w) {
      const float f = ls_exp(wstat[(w * H + h) * 2] - mx);  // 1 x nothing for an empty range
      o += f * wacc[(w * H + h) * D + idx % D];
      sum += f * wstat[(w * H + h) * 2 + 1];
    }
    oacc[idx] = o;
    if (idx % D == 0) {
      run_m[h] = mx;
      run_l[h] = sum;
    }
  }
  ls_sync_block();
}

// Flash decoding of r's positions on the CUDA cores (or AMD's vector units) for the block's `group`
// query heads (qs, at most LS_DEC_PART_HEADS), merged by ls_dec_merge. Lane group `grp` takes the
// rounds at r.begin + grp * STEP, every LS_DEC_GROUPS-th. The first round's loads are issued before
// the caller's query is in shared memory (`before_q` runs between them), so that they wait together.
template <int D, class KV, class BeforeQ>
LS_DEVICE void ls_dec_range(const KV keys, const KV values, const LsDecRow& r, int block_size, int kv_dim, int kvh,
                            int group, float scale, float softcap, BeforeQ before_q, const float* qs, float* wacc,
                            float* wstat, float* oacc, float* run_m, float* run_l) {
  using S = LsDec<D>;
  constexpr int H = LS_DEC_PART_HEADS;
  const int tid = (int)ls_thread_x();
  const int lane = tid % LS_DEC_LANES;
  const int grp = tid / LS_DEC_LANES;
  const int sub = lane % S::LPK;
  const int kslot = lane / S::LPK;
  const long head = (long)kvh * D + sub * S::DPL;
  float acc[H][S::DPL];
  float m[H];
  float l[H];
#pragma unroll
  for (int g = 0; g < H; ++g) {
    m[g] = LS_ATT_NEG;
    l[g] = 0.0f;
#pragma unroll
    for (int j = 0; j < S::DPL; ++j) acc[g][j] = 0.0f;
  }
  const int first = r.begin + grp * S::STEP;
  float k[S::U][S::DPL];
  float v[S::U][S::DPL];
  long slot[S::U];
  if (first < r.end) {
    ls_dec_slots<D>(r, first, kslot, block_size, slot);
#pragma unroll
    for (int u = 0; u < S::U; ++u) {
      keys.template load<S::DPL>(slot[u] * kv_dim + head, k[u]);
      values.template load<S::DPL>(slot[u] * kv_dim + head, v[u]);
    }
  }
  before_q();
  for (int base = first; base < r.end; base += LS_DEC_GROUPS * S::STEP) {
    if (base != first) {
#pragma unroll
      for (int u = 0; u < S::U; ++u) {
        keys.template load<S::DPL>(slot[u] * kv_dim + head, k[u]);
        values.template load<S::DPL>(slot[u] * kv_dim + head, v[u]);
      }
    }
    // the next round's slots while these loads are out
    const int next = base + LS_DEC_GROUPS * S::STEP;
    if (next < r.end) ls_dec_slots<D>(r, next, kslot, block_size, slot);
    float s[S::U][H];
#pragma unroll
    for (int u = 0; u < S::U; ++u) {
      const bool in = base + u * S::KPG + kslot < r.end;
#pragma unroll
      for (int g = 0; g < H; ++g) {
        if (g < group) {
          const float* q = qs + g * D + sub * S::DPL;
          float d = 0.0f;
#pragma unroll
          for (int i = 0; i < S::DPL; ++i) d += q[i] * k[u][i];
#pragma unroll
          for (int mk = S::LPK / 2; mk > 0; mk >>= 1) d += ls_shfl_xor(d, mk);
          s[u][g] = in ? ls_softcap(d * scale, softcap) : LS_ATT_NEG;
        }
      }
    }
#pragma unroll
    for (int g = 0; g < H; ++g) {
      if (g < group) {
        float mx = s[0][g];
#pragma unroll
        for (int u = 1; u < S::U; ++u) mx = __builtin_fmaxf(mx, s[u][g]);
#pragma unroll
        for (int mk = S::LPK; mk < LS_DEC_LANES; mk <<= 1) mx = __builtin_fmaxf(mx, ls_shfl_xor(mx, mk));
        const float mn = __builtin_fmaxf(m[g], mx);  // a real score: the round's first position is in range
        const float alpha = ls_exp(m[g] - mn);
        m[g] = mn;
        l[g] *= alpha;
#pragma unroll
        for (int j = 0; j < S::DPL; ++j) acc[g][j] *= alpha;
#pragma unroll
        for (int u = 0; u < S::U; ++u) {
          const float e = ls_exp(s[u][g] - mn);  // 0 past the range
          l[g] += e;
#pragma unroll
          for (int j = 0; j < S::DPL; ++j) acc[g][j] += e * v[u][j];
        }
      }
    }
  }
  // the group's positions summed (one maximum for all its lanes), then the groups merged
#pragma unroll
  for (int g = 0; g < H; ++g) {
    if (g < group) {
#pragma unroll
      for (int mk = S::LPK; mk < LS_DEC_LANES; mk <<= 1) {
        l[g] += ls_shfl_xor(l[g], mk);
#pragma unroll
        for (int j = 0; j < S::DPL; ++j) acc[g][j] += ls_shfl_xor(acc[g][j], mk);
      }
      if (kslot == 0) {
#pragma unroll
        for (int j = 0; j < S::DPL; ++j) wacc[(grp * H + g) * D + sub * S::DPL + j] = acc[g][j];
      }
      if (lane == 0) {
        wstat[(grp * H + g) * 2] = m[g];
        wstat[(grp * H + g) * 2 + 1] = l[g];
      }
    }
  }
  ls_dec_merge<D, H>(group, wacc, wstat, oacc, run_m, run_l);
}

#if LS_NVIDIA
// c (16x8, f32) += a (16x16, f16, row-major fragments) x b (16x8, f16, column-major fragments).
LS_DEVICE void ls_mma_f16_16x8x16(float (&c)[4], const unsigned (&a)[4], const unsigned (&b)[2]) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};\n"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

LS_DEVICE unsigned ls_half2_bits(float lo, float hi) {
  return (unsigned)ls_float_to_half(lo) | ((unsigned)ls_float_to_half(hi) << 16);
}

// The low halves of x and y (lo), or their high halves (hi), as one pair.
LS_DEVICE unsigned ls_lo_halves(unsigned x, unsigned y) {
  return __byte_perm(x, y, 0x5410);
}
LS_DEVICE unsigned ls_hi_halves(unsigned x, unsigned y) {
  return __byte_perm(x, y, 0x7632);
}
#endif

// ls_dec_range on tensor cores (NVIDIA sm_80 on, head sizes 64 and 128): each lane group takes 16
// positions a round as two m16n8k16 products of scores, S = Q K^T (the block's heads as rows 0-7 of
// A, half-rounded; keys as B), and one product per 16 dims of values, O^T += V^T P^T (values as A;
// the weights, half-rounded, as B straight from the score tiles' registers), accumulated in float.
// Nothing goes through shared memory: the sum over a head's dims is the same in any order, so lane
// (g, t) takes dims t * D/4 .. of a score's query and key (one contiguous load of each key), and the
// output's dims are laid out so that it reads dims g * D/8 .. of each of its four positions' values
// (a 16-dim tile's rows g and g + 8 are dims g * D/8 + 2i and + 1). Each head's running maximum is
// shared by the four lanes of its score row; the output's columns (heads 2t, 2t + 1) take their
// rescale factors from those lanes. TWO_ROUNDS: a round's keys and values are loaded while the round
// before it is multiplied (two sets of registers: 237 for heads of 128 against 162, so two blocks a
// multiprocessor instead of three), for many rows and long ranges, whose blocks wait on their loads.
template <int D, class KV, bool TWO_ROUNDS>
LS_DEVICE void ls_dec_range_mma(const KV keys, const KV values, const LsDecRow& r, int block_size, int kv_dim,
                                int kvh, int group, float scale, float softcap, const float* qkv, int stride, int t_row,
                                int head0, float* wacc, float* wstat, float* oacc, float* run_m, float* run_l) {
#if LS_NVIDIA && (!defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800)
  static_assert(D == 64 || D == 128, "head sizes 64 and 128");
  constexpr int H = LS_DMMA_HEADS;
  constexpr int KSTEPS = D / 16;  // k16 steps of a score tile
  constexpr int KH = D / 4;       // key (and query) halves a lane holds
  constexpr int VH = D / 8;       // value halves a lane holds per position
  constexpr int MT = D / 16;      // m16 tiles of the output's dims
  constexpr int ROUND = 16;       // positions of a lane group's round
  const int tid = (int)ls_thread_x();
  const int lane = tid % 32;
  const int grp = tid / 32;
  const int g = lane >> 2;
  const int t = lane & 3;
  const long kat = (long)kvh * D + t * KH;  // this lane's key dims
  const long vat = (long)kvh * D + g * VH;  // and value dims
  // the query of head g (a zero row past the group), dims t * KH .., as A fragments' pairs
  unsigned qa[KSTEPS][2];
  {
    const float* q = qkv + (long)t_row * stride + (long)(head0 + g) * D + t * KH;
#pragma unroll
    for (int ks = 0; ks < KSTEPS; ++ks) {
      float v[4] = {0.0f, 0.0f, 0.0f, 0.0f};
      if (g < group) {
#pragma unroll
        for (int i = 0; i < 4; ++i) v[i] = q[4 * ks + i];
      }
      qa[ks][0] = ls_half2_bits(v[0], v[1]);
      qa[ks][1] = ls_half2_bits(v[2], v[3]);
    }
  }
  float o[MT][4];
#pragma unroll
  for (int mt = 0; mt < MT; ++mt)
#pragma unroll
    for (int e = 0; e < 4; ++e) o[mt][e] = 0.0f;
  float m = LS_ATT_NEG;  // head g's
  float l = 0.0f;
  // lane i < 16 finds position base + i's slot; every lane takes the ones it loads
  auto slot_of = [&](int base) -> long {
    const int own = base + (lane & 15);
    return base < r.end ? ls_dec_slot(r, own < r.end ? own : base, block_size) : 0L;
  };
  using KeyWords = ls_u32x4[2][KH / 8];
  using ValueWords = ls_u32x4[4][VH / 8];
  auto load = [&](long found, KeyWords& kw, ValueWords& vw) {
    const int lo = (int)found, hi = (int)(found >> 32);
    long kslot[2], vslot[4];
#pragma unroll
    for (int nt = 0; nt < 2; ++nt) {
      const int src = nt * 8 + g;
      kslot[nt] = (long)(unsigned)__shfl_sync(0xffffffffu, lo, src) |
                  ((long)__shfl_sync(0xffffffffu, hi, src) << 32);
    }
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int src = (j >> 1) * 8 + 2 * t + (j & 1);
      vslot[j] = (long)(unsigned)__shfl_sync(0xffffffffu, lo, src) |
                 ((long)__shfl_sync(0xffffffffu, hi, src) << 32);
    }
#pragma unroll
    for (int nt = 0; nt < 2; ++nt)
#pragma unroll
      for (int i = 0; i < KH / 8; ++i) kw[nt][i] = keys.halves8(kslot[nt] * kv_dim + kat + 8 * i);
#pragma unroll
    for (int j = 0; j < 4; ++j)
#pragma unroll
      for (int i = 0; i < VH / 8; ++i) vw[j][i] = values.halves8(vslot[j] * kv_dim + vat + 8 * i);
  };
  auto compute = [&](int base, const KeyWords& kw, const ValueWords& vw) {
    // scores: element e of tile nt is head g (rows g + 8 are empty), position base + nt * 8 + 2t + e
    float s[2][4];
#pragma unroll
    for (int nt = 0; nt < 2; ++nt) {
#pragma unroll
      for (int e = 0; e < 4; ++e) s[nt][e] = 0.0f;
      const unsigned* kk = (const unsigned*)kw[nt];
#pragma unroll
      for (int ks = 0; ks < KSTEPS; ++ks) {
        const unsigned a[4] = {qa[ks][0], 0u, qa[ks][1], 0u};
        const unsigned b[2] = {kk[2 * ks], kk[2 * ks + 1]};
        ls_mma_f16_16x8x16(s[nt], a, b);
      }
#pragma unroll
      for (int e = 0; e < 2; ++e) {
        const bool in = base + nt * 8 + 2 * t + e < r.end;
        s[nt][e] = in ? ls_softcap(s[nt][e] * scale, softcap) : LS_ATT_NEG;
      }
    }
    float mx = __builtin_fmaxf(__builtin_fmaxf(s[0][0], s[0][1]), __builtin_fmaxf(s[1][0], s[1][1]));
    mx = __builtin_fmaxf(mx, ls_shfl_xor(mx, 1));
    mx = __builtin_fmaxf(mx, ls_shfl_xor(mx, 2));
    const float mn = __builtin_fmaxf(m, mx);  // a real score: the round's first position is in range
    const float alpha = ls_exp(m - mn);
    m = mn;
    float p[2][2];
#pragma unroll
    for (int nt = 0; nt < 2; ++nt)
#pragma unroll
      for (int e = 0; e < 2; ++e) p[nt][e] = ls_exp(s[nt][e] - mn);  // 0 past the range
    l = l * alpha + p[0][0] + p[0][1] + p[1][0] + p[1][1];
    const unsigned pb[2] = {ls_half2_bits(p[0][0], p[0][1]), ls_half2_bits(p[1][0], p[1][1])};
    // the output's columns are heads 2t and 2t + 1: their factors from those heads' score rows
    const float a0 = __shfl_sync(0xffffffffu, alpha, 8 * t);
    const float a1 = __shfl_sync(0xffffffffu, alpha, 8 * t + 4);
#pragma unroll
    for (int mt = 0; mt < MT; ++mt) {
      o[mt][0] *= a0;
      o[mt][1] *= a1;
      o[mt][2] *= a0;
      o[mt][3] *= a1;
      // word mt of each position's value dims g * VH ..: dims g * VH + 2mt (row g) and + 1 (row g + 8)
      const unsigned w0 = ((const unsigned*)vw[0])[mt], w1 = ((const unsigned*)vw[1])[mt];
      const unsigned w2 = ((const unsigned*)vw[2])[mt], w3 = ((const unsigned*)vw[3])[mt];
      const unsigned a[4] = {ls_lo_halves(w0, w1), ls_hi_halves(w0, w1), ls_lo_halves(w2, w3), ls_hi_halves(w2, w3)};
      ls_mma_f16_16x8x16(o[mt], a, pb);
    }
  };
  constexpr int STRIDE = LS_DEC_GROUPS * ROUND;
  if constexpr (TWO_ROUNDS) {
    KeyWords kw0, kw1;
    ValueWords vw0, vw1;
    int base = r.begin + grp * ROUND;
    if (base < r.end) load(slot_of(base), kw0, vw0);
    long found = slot_of(base + STRIDE);
    for (; base < r.end; base += 2 * STRIDE) {
      const int next = base + STRIDE;
      if (next < r.end) load(found, kw1, vw1);
      found = slot_of(next + STRIDE);
      compute(base, kw0, vw0);
      if (next >= r.end) break;
      if (next + STRIDE < r.end) load(found, kw0, vw0);
      found = slot_of(next + 2 * STRIDE);
      compute(next, kw1, vw1);
    }
  } else {
    for (int base = r.begin + grp * ROUND; base < r.end; base += STRIDE) {
      KeyWords kw;
      ValueWords vw;
      load(slot_of(base), kw, vw);
      compute(base, kw, vw);
    }
  }
  l += ls_shfl_xor(l, 1);
  l += ls_shfl_xor(l, 2);
  // o[mt][e]: head 2t + (e & 1), dim g * VH + 2mt + (e >> 1)
#pragma unroll
  for (int e = 0; e < 4; ++e) {
    const int h = 2 * t + (e & 1);
    if (h < group) {
#pragma unroll
      for (int mt = 0; mt < MT; ++mt) wacc[(grp * H + h) * D + g * VH + 2 * mt + (e >> 1)] = o[mt][e];
    }
  }
  if (t == 0 && g < group) {
    wstat[(grp * H + g) * 2] = m;
    wstat[(grp * H + g) * 2 + 1] = l;
  }
  ls_dec_merge<D, H>(group, wacc, wstat, oacc, run_m, run_l);
#else  // never launched here
  (void)keys, (void)values, (void)r, (void)block_size, (void)kv_dim, (void)kvh, (void)group, (void)scale;
  (void)softcap, (void)qkv, (void)stride, (void)t_row, (void)head0, (void)wacc, (void)wstat, (void)oacc;
  (void)run_m, (void)run_l;
#endif
}

// The block's output once its range is merged (oacc, run_m, run_l): normalized into `out` when the
// row took one split; otherwise its share into `partial`, and the last split of the row and part to
// arrive merges every split's. With q8 (not null) the output's Q8_0 form too, for the product that
// follows (as ls_quantize_q8_0 writes it: the block's heads are whole blocks of 32 values, and a
// lane group holds 32 consecutive values of each pass over them).
template <int D, int H>
LS_DEVICE void ls_dec_finish(const LsDecRow& r, int t, int split, int splits, int heads, int kv_heads, int head_parts,
                             int group, int head0, const float* sinks, const float* oacc, const float* run_m,
                             const float* run_l, float* out, int out_stride, float* partial, unsigned* arrivals,
                             int8_t* q8, float* q8_d, int* q8_sums) {
  LS_SHARED float factor[H];
  LS_SHARED float weights[H * LS_ATT_MAX_SPLITS];
  LS_SHARED int merges;
  const int tid = (int)ls_thread_x();
  const int lane = tid % LS_DEC_LANES;
  const int grp = tid / LS_DEC_LANES;
  const int part = D + LS_ATT_SPLIT_STATS;
  if (r.used == 1) {  // the whole row in this block
    if (tid < group) {
      float m = run_m[tid];
      float sum = run_l[tid];
      const float f = ls_fold_sink(m, sum, sinks, head0 + tid);
      factor[tid] = sum > 0.0f ? f / sum : 0.0f;
    }
    ls_sync_block();
    for (int idx = tid; idx < group * D; idx += LS_ATT_THREADS) {
      const float v = r.padding ? 0.0f : oacc[idx] * factor[idx / D];
      const long at = (long)t * out_stride + head0 * D + idx;
      out[at] = v;
      if (q8) ls_store_q8_0(v, at, q8, q8_d, q8_sums);
    }
    return;
  }
  float* mine = partial + ((long)t * heads + head0) * splits * part;
  for (int idx = tid; idx < group * D; idx += LS_ATT_THREADS) {
    mine[((long)(idx / D) * splits + split) * part + idx % D] = oacc[idx];
  }
  if (tid < group) {
    mine[((long)tid * splits + split) * part + D] = run_m[tid];
    mine[((long)tid * splits + split) * part + D + 1] = run_l[tid];
  }
  // the last split to arrive merges: every split's writes are visible to it past the counter
  ls_fence_device();
  ls_sync_block();
  if (tid == 0) {
    unsigned* counter = arrivals + (long)t * kv_heads * head_parts + (int)ls_block_x();
    merges = ls_atomic_add(counter, 1u) == (unsigned)(r.used - 1);
    if (merges) *counter = 0u;
  }
  ls_sync_block();
  if (!merges) return;
  ls_fence_device();
  // each head's splits a split per lane: their weights exp(m_s - max) * sink factor / sum
  for (int g = grp; g < group; g += LS_DEC_GROUPS) {
    const float* st = mine + (long)g * splits * part + D;
    const float ms = lane < r.used ? ls_load_coherent(st + (long)lane * part) : LS_ATT_NEG;
    const float ls = lane < r.used ? ls_load_coherent(st + (long)lane * part + 1) : 0.0f;
    float m = ls_group32_max(ms);
    const float e = lane < r.used ? ls_exp(ms - m) : 0.0f;
    float sum = ls_group32_sum(ls * e);
    const float f = ls_fold_sink(m, sum, sinks, head0 + g);
    weights[g * LS_ATT_MAX_SPLITS + lane] = sum > 0.0f ? e * f / sum : 0.0f;
  }
  ls_sync_block();
  for (int idx = tid; idx < group * D; idx += LS_ATT_THREADS) {
    const int g = idx / D;
    const float* p = mine + (long)g * splits * part + idx % D;
    float o = 0.0f;
    for (int s = 0; s < r.used; ++s) o += weights[g * LS_ATT_MAX_SPLITS + s] * ls_load_coherent(p + (long)s * part);
    const float v = r.padding ? 0.0f : o;
    const long at = (long)t * out_stride + head0 * D + idx;
    out[at] = v;
    if (q8) ls_store_q8_0(v, at, q8, q8_d, q8_sums);
  }
}

// The decode kernels' body: `mma` picks the tensor-core range (ls_dec_range_mma) over ls_dec_range,
// TWO_ROUNDS its loads a round ahead.
template <int D, bool MMA, bool TWO_ROUNDS, class KV>
LS_DEVICE void ls_attention_decode(const float* qkv, int stride, const KV keys, const KV values,
                                   const int* positions, const int* slots, const int* table_offsets,
                                   const int* seq_last, const int* tables, float* out, int out_stride, float* partial,
                                   unsigned* arrivals, int heads, int kv_heads, int block_size, float scale,
                                   float softcap, const float* sinks, int causal, int window, int splits,
                                   int head_parts, int8_t* q8, float* q8_d, int* q8_sums) {
  constexpr int H = MMA ? LS_DMMA_HEADS : LS_DEC_PART_HEADS;
  LS_SHARED float wacc[LS_DEC_GROUPS * H * D];
  LS_SHARED float wstat[LS_DEC_GROUPS * H * 2];
  LS_SHARED float oacc[H * D];
  LS_SHARED float run_m[H];
  LS_SHARED float run_l[H];
  // block x: part part_of_kv of kv head kvh's query heads (head_parts parts of `group` heads each)
  const int kvh = (int)ls_block_x() / head_parts;
  const int part_of_kv = (int)ls_block_x() % head_parts;
  const int t = (int)ls_block_y();
  const int split = (int)ls_block_z();
  const int group = heads / kv_heads / head_parts;
  const int kv_dim = kv_heads * D;
  const int head0 = (kvh * head_parts + part_of_kv) * group;
  // the batch metadata is the host's (copied before the step's first kernel), so the split's range
  // and its keys' and values' lines can be found while the kernel before this one still runs
  const LsDecRow r = ls_dec_row(t, split, splits, positions, slots, table_offsets, seq_last, tables, causal, window);
  if (split >= r.used) return;
  ls_dec_prefetch<D>(keys, values, r, block_size, kv_dim, kvh);
  ls_grid_wait();
  if constexpr (MMA) {
    ls_dec_range_mma<D, KV, TWO_ROUNDS>(keys, values, r, block_size, kv_dim, kvh, group, scale, softcap, qkv, stride,
                                        t, head0, wacc, wstat, oacc, run_m, run_l);
  } else {
    LS_SHARED float qs[H * D];
    ls_dec_range<D, KV>(keys, values, r, block_size, kv_dim, kvh, group, scale, softcap,
                        [&] {
                          ls_dec_load_q<D>(qkv, stride, t, head0, group, qs);
                          ls_sync_block();
                        },
                        qs, wacc, wstat, oacc, run_m, run_l);
  }
  ls_dec_finish<D, H>(r, t, split, splits, heads, kv_heads, head_parts, group, head0, sinks, oacc, run_m, run_l, out,
                      out_stride, partial, arrivals, q8, q8_d, q8_sums);
}

// ls_attention_split_d* (F16 cache) and ls_attention_split_q8_d* (Q8_0 cache, head sizes that are
// whole blocks of 32) on CUDA cores or AMD's vector units; ls_attention_dmma_d* and
// ls_attention_dmma_q8_d* (64 and 128) on NVIDIA tensor cores, the host's choice where it has them,
// and ls_attention_dmma2_d* (F16 cache) with their loads a round ahead for many rows.
// q8, q8_d, q8_sums: null, or where the output's Q8_0 form goes (ls_dec_finish).
#define LS_ATTENTION_DEC(name, mma, two, d)                                                                      \
  LS_KERNEL LS_DEC_BOUNDS void ls_attention_##name##_d##d(                                                        \
      const float* qkv, int stride, const uint16_t* keys, const uint16_t* values, const int* positions,           \
      const int* slots, const int* table_offsets, const int* seq_last, const int* tables, float* out,            \
      int out_stride, float* partial, unsigned* arrivals, int heads, int kv_heads, int block_size, float scale,   \
      float softcap, const float* sinks, int causal, int window, int splits, int head_parts, int8_t* q8,         \
      float* q8_d, int* q8_sums) {                                                                              \
    ls_attention_decode<d, mma, two>(qkv, stride, LsKvF16{keys}, LsKvF16{values}, positions, slots, table_offsets, \
                                     seq_last, tables, out, out_stride, partial, arrivals, heads, kv_heads,         \
                                     block_size, scale, softcap, sinks, causal, window, splits, head_parts, q8,     \
                                     q8_d, q8_sums);                                                                \
  }

#define LS_ATTENTION_DEC_Q8(name, mma, two, d)                                                                   \
  LS_KERNEL LS_DEC_BOUNDS void ls_attention_##name##_q8_d##d(                                                     \
      const float* qkv, int stride, const int8_t* keys, const uint16_t* key_scales, const int8_t* values,         \
      const uint16_t* value_scales, const int* positions, const int* slots, const int* table_offsets,             \
      const int* seq_last, const int* tables, float* out, int out_stride, float* partial, unsigned* arrivals,     \
      int heads, int kv_heads, int block_size, float scale, float softcap, const float* sinks, int causal,        \
      int window, int splits, int head_parts, int8_t* q8, float* q8_d, int* q8_sums) {                           \
    ls_attention_decode<d, mma, two>(qkv, stride, LsKvQ8{keys, key_scales}, LsKvQ8{values, value_scales},         \
                                     positions, slots, table_offsets, seq_last, tables, out, out_stride, partial,   \
                                     arrivals, heads, kv_heads, block_size, scale, softcap, sinks, causal, window,  \
                                     splits, head_parts, q8, q8_d, q8_sums);                                        \
  }

LS_ATTENTION_DEC(split, false, false, 8)
LS_ATTENTION_DEC(split, false, false, 16)
LS_ATTENTION_DEC(split, false, false, 32)
LS_ATTENTION_DEC(split, false, false, 64)
LS_ATTENTION_DEC(split, false, false, 96)
LS_ATTENTION_DEC(split, false, false, 128)
LS_ATTENTION_DEC(split, false, false, 256)
LS_ATTENTION_DEC_Q8(split, false, false, 32)
LS_ATTENTION_DEC_Q8(split, false, false, 64)
LS_ATTENTION_DEC_Q8(split, false, false, 96)
LS_ATTENTION_DEC_Q8(split, false, false, 128)
LS_ATTENTION_DEC_Q8(split, false, false, 256)
LS_ATTENTION_DEC(dmma, true, false, 64)
LS_ATTENTION_DEC(dmma, true, false, 128)
LS_ATTENTION_DEC_Q8(dmma, true, false, 64)
LS_ATTENTION_DEC_Q8(dmma, true, false, 128)
LS_ATTENTION_DEC(dmma2, true, true, 64)
LS_ATTENTION_DEC(dmma2, true, true, 128)

// Tiled attention for prompts (many rows per sequence), with the same rounding as the per-lane
// kernels. Grid (kv_heads, tiles), LS_ATT_THREADS threads. A tile is up to 64 / group consecutive
// rows of one sequence (`tiles` holds first row and row count per tile): its 64 query vectors
// (rows x the group's query heads) share every key and value chunk loaded into shared memory, and
// each thread computes a 4 x 4 block of scores (4 queries x 4 positions) per dimension step. Two
// passes over the tile's position range: (max, sum) per query, then half-rounded weights times
// values. Head sizes up to 128.
#define LS_TILE_K 32
#define LS_TILE_PAD 4  // keeps 8-byte loads aligned and shared-memory banks 2-way at worst

template <int D, class KV>
LS_DEVICE void ls_attention_tile(const float* qkv, int stride, const KV keys, const KV values,
                                 const int* positions, const int* slots, const int* table_offsets, const int* seq_last,
                                 const int* tables, const int* tiles, float* out, int out_stride, int heads, int kv_heads,
                                 int block_size, float scale, float softcap, const float* sinks, int causal, int window) {
  ls_grid_wait();
  constexpr int DG = D / 8;  // dims per thread in the weighted-values product
  LS_SHARED uint16_t q_t[D][LS_TILE_Q + LS_TILE_PAD];
  LS_SHARED uint16_t k_t[D][LS_TILE_K + LS_TILE_PAD];
  LS_SHARED uint16_t v_s[LS_TILE_K][D];
  LS_SHARED float scores[LS_TILE_Q][LS_TILE_K + 1];
  LS_SHARED float row_max[LS_TILE_Q];
  LS_SHARED float row_inv[LS_TILE_Q];
  LS_SHARED int q_first[LS_TILE_Q];
  LS_SHARED int q_last[LS_TILE_Q];
  LS_SHARED int chunk_slot[LS_TILE_K];
  LS_SHARED int range[2];

  const int kvh = (int)ls_block_x();
  const int tile = (int)ls_block_y();
  const int tid = (int)ls_thread_x();
  const int r0 = tiles[2 * tile];
  const int rows = tiles[2 * tile + 1];
  const int group = heads / kv_heads;
  const int nq = rows * group;
  const int kv_dim = kv_heads * D;
  const int* table = tables + table_offsets[r0];

  for (int i = tid; i < LS_TILE_Q * D; i += LS_ATT_THREADS) {
    const int qi = i / D;
    const int d = i % D;
    float v = 0.0f;
    if (qi < nq) v = qkv[(long)(r0 + qi / group) * stride + (long)(kvh * group + qi % group) * D + d];
    q_t[d][qi] = ls_float_to_half(v);
  }
  if (tid < LS_TILE_Q) {
    int f = 1, l = 0;  // empty
    if (tid < nq) {
      const int row = r0 + tid / group;
      const int pos = positions[row];
      l = causal ? pos : seq_last[row];
      f = window > 0 ? (pos - window + 1 > 0 ? pos - window + 1 : 0) : 0;
    }
    q_first[tid] = f;
    q_last[tid] = l;
  }
  ls_sync_block();
  if (tid == 0) {
    int lo = 0x7fffffff, hi = -1;
    for (int qi = 0; qi < nq; qi += group) {
      lo = q_first[qi] < lo ? q_first[qi] : lo;
      hi = q_last[qi] > hi ? q_last[qi] : hi;
    }
    range[0] = lo;
    range[1] = hi;
  }
  ls_sync_block();
  const int lo = range[0];
  const int hi = range[1];
  const int qg = tid % 16;  // scores: queries 4qg..4qg+3
  const int kg = tid / 16;  //         positions 4kg..4kg+3 of the chunk
  float m = LS_ATT_NEG;
  float l = 0.0f;

  for (int pass = 0; pass < 2; ++pass) {
    float o[4][DG];
#pragma unroll
    for (int a = 0; a < 4; ++a)
#pragma unroll
      for (int i = 0; i < DG; ++i) o[a][i] = 0.0f;
    for (int c0 = lo; c0 <= hi; c0 += LS_TILE_K) {
      const int len = hi + 1 - c0 < LS_TILE_K ? hi + 1 - c0 : LS_TILE_K;
      if (tid < LS_TILE_K) {
        const int p = c0 + tid;
        chunk_slot[tid] = tid < len ? table[p / block_size] * block_size + p % block_size : 0;
      }
      ls_sync_block();
      for (int i = tid; i < LS_TILE_K * D; i += LS_ATT_THREADS) {
        const int j = i / D;
        const int d = i % D;
        const long at = (long)chunk_slot[j] * kv_dim + (long)kvh * D + d;
        k_t[d][j] = j < len ? keys.half(at) : (uint16_t)0;
        if (pass == 1) v_s[j][d] = j < len ? values.half(at) : (uint16_t)0;
      }
      ls_sync_block();
      float acc[4][4];
#pragma unroll
      for (int a = 0; a < 4; ++a)
#pragma unroll
        for (int b = 0; b < 4; ++b) acc[a][b] = 0.0f;
      for (int d = 0; d < D; ++d) {
        const ls_u32x2 qw = *(const ls_u32x2*)&q_t[d][4 * qg];
        const ls_u32x2 kw = *(const ls_u32x2*)&k_t[d][4 * kg];
        const float qv[4] = {ls_half_to_float((uint16_t)(qw.x & 0xFFFF)), ls_half_to_float((uint16_t)(qw.x >> 16)),
                             ls_half_to_float((uint16_t)(qw.y & 0xFFFF)), ls_half_to_float((uint16_t)(qw.y >> 16))};
        const float kv[4] = {ls_half_to_float((uint16_t)(kw.x & 0xFFFF)), ls_half_to_float((uint16_t)(kw.x >> 16)),
                             ls_half_to_float((uint16_t)(kw.y & 0xFFFF)), ls_half_to_float((uint16_t)(kw.y >> 16))};
#pragma unroll
        for (int a = 0; a < 4; ++a)
#pragma unroll
          for (int b = 0; b < 4; ++b) acc[a][b] += qv[a] * kv[b];
      }
#pragma unroll
      for (int a = 0; a < 4; ++a) {
        const int qi = 4 * qg + a;
#pragma unroll
        for (int b = 0; b < 4; ++b) {
          const int j = 4 * kg + b;
          const int p = c0 + j;
          const bool valid = qi < nq && j < len && p >= q_first[qi] && p <= q_last[qi];
          scores[qi][j] = valid ? ls_softcap(acc[a][b] * scale, softcap) : -__builtin_inff();
        }
      }
      ls_sync_block();
      if (tid < nq) {
        if (pass == 0) {
          for (int j = 0; j < len; ++j) {
            const float s = scores[tid][j];
            if (s != -__builtin_inff()) {
              const float nm = __builtin_fmaxf(m, s);
              l = l * ls_exp(m - nm) + ls_exp(s - nm);
              m = nm;
            }
          }
        } else {
          const float mx = row_max[tid];
          const float inv = row_inv[tid];
          for (int j = 0; j < len; ++j) {
            const float s = scores[tid][j];
            scores[tid][j] = s != -__builtin_inff() ? ls_half_to_float(ls_float_to_half(ls_exp(s - mx) * inv)) : 0.0f;
          }
        }
      }
      ls_sync_block();
      if (pass == 1) {
        const int pq = tid % 16;  // weighted values: queries 4pq..4pq+3
        const int dg = tid / 16;  //                  dims dg*DG .. dg*DG+DG-1
        for (int j = 0; j < len; ++j) {
          float w[4];
#pragma unroll
          for (int a = 0; a < 4; ++a) w[a] = scores[4 * pq + a][j];
#pragma unroll
          for (int i = 0; i < DG; ++i) {
            const float v = ls_half_to_float(v_s[j][dg * DG + i]);
#pragma unroll
            for (int a = 0; a < 4; ++a) o[a][i] += w[a] * v;
          }
        }
        ls_sync_block();
      }
    }
    if (pass == 0) {
      if (tid < LS_TILE_Q) {
        if (tid < nq) ls_fold_sink(m, l, sinks, kvh * group + tid % group);
        row_max[tid] = m;
        row_inv[tid] = l > 0.0f ? 1.0f / l : 0.0f;
      }
      ls_sync_block();
    } else {
      const int pq = tid % 16;
      const int dg = tid / 16;
#pragma unroll
      for (int a = 0; a < 4; ++a) {
        const int qi = 4 * pq + a;
        if (qi < nq) {
          const int row = r0 + qi / group;
          float* dst = out + (long)row * out_stride + (long)(kvh * group + qi % group) * D + dg * DG;
          const bool padding = slots[row] < 0;
#pragma unroll
          for (int i = 0; i < DG; ++i) dst[i] = padding ? 0.0f : o[a][i];
        }
      }
    }
  }
}

#define LS_ATTENTION_TILE(d)                                                                                     \
  LS_KERNEL void ls_attention_tile_d##d(const float* qkv, int stride, const uint16_t* keys, const uint16_t* values, \
                                        const int* positions, const int* slots, const int* table_offsets,          \
                                        const int* seq_last, const int* tables, const int* tiles, float* out,      \
                                        int out_stride, int heads, int kv_heads, int block_size, float scale,      \
                                        float softcap, const float* sinks, int causal, int window) {               \
    ls_attention_tile<d>(qkv, stride, LsKvF16{keys}, LsKvF16{values}, positions, slots, table_offsets, seq_last,  \
                         tables, tiles, out, out_stride, heads, kv_heads, block_size, scale, softcap, sinks,      \
                         causal, window);                                                                         \
  }

#define LS_ATTENTION_TILE_Q8(d)                                                                                  \
  LS_KERNEL void ls_attention_tile_q8_d##d(const float* qkv, int stride, const int8_t* keys,                      \
                                           const uint16_t* key_scales, const int8_t* values,                      \
                                           const uint16_t* value_scales, const int* positions, const int* slots,  \
                                           const int* table_offsets, const int* seq_last, const int* tables,      \
                                           const int* tiles, float* out, int out_stride, int heads, int kv_heads, \
                                           int block_size, float scale, float softcap, const float* sinks,        \
                                           int causal, int window) {                                              \
    ls_attention_tile<d>(qkv, stride, LsKvQ8{keys, key_scales}, LsKvQ8{values, value_scales}, positions, slots,   \
                         table_offsets, seq_last, tables, tiles, out, out_stride, heads, kv_heads, block_size,    \
                         scale, softcap, sinks, causal, window);                                                  \
  }

LS_ATTENTION_TILE(8)
LS_ATTENTION_TILE(16)
LS_ATTENTION_TILE(32)
LS_ATTENTION_TILE(64)
LS_ATTENTION_TILE(96)
LS_ATTENTION_TILE(128)
LS_ATTENTION_TILE_Q8(32)
LS_ATTENTION_TILE_Q8(64)
LS_ATTENTION_TILE_Q8(96)
LS_ATTENTION_TILE_Q8(128)

// The tiled prompt attention on tensor cores (NVIDIA sm_80 on; the host launches it nowhere else, and
// on AMD its body is empty): the same tiles, passes and rounding as ls_attention_tile_d*, with the
// scores and the weighted values as mma.sync.m16n8k16 half products accumulated in float. Each of
// the four waves owns 16 of the tile's 64 query vectors (their half-rounded values held as A
// fragments for the whole pass); a chunk of LS_TILE_K positions is staged in shared memory, keys as
// rows and values transposed (position pairs contiguous, as the B fragments want them). Pass 0
// reduces each query's (max, sum) over a chunk's scores across the 4 lanes that hold its row; pass 1
// turns the scores into half-rounded normalized weights, which are the next product's A fragments
// straight from the score tiles' registers. Head sizes 64 and 128.
#define LS_MMA_PAD 8  // halves of padding per shared row: the fragment loads hit 32 distinct banks

template <int D, class KV>
LS_DEVICE void ls_attention_mma(const float* qkv, int stride, const KV keys, const KV values,
                                const int* positions, const int* slots, const int* table_offsets, const int* seq_last,
                                const int* tables, const int* tiles, float* out, int out_stride, int heads, int kv_heads,
                                int block_size, float scale, float softcap, const float* sinks, int causal, int window) {
  ls_grid_wait();
#if LS_NVIDIA && (!defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800)
  static_assert(LS_ATT_THREADS == 128 && LS_TILE_Q == 64 && LS_TILE_K == 32, "four waves of 16 queries, 32 positions a chunk");
  constexpr int QS = D + LS_MMA_PAD;          // row stride of q_s and k_s, halves
  constexpr int VS = LS_TILE_K + LS_MMA_PAD;  // row stride of v_t
  constexpr int KSTEPS = D / 16;              // k16 steps of a score tile
  constexpr int DTILES = D / 8;               // n8 tiles of a query's values
  __shared__ __align__(16) uint16_t q_s[LS_TILE_Q * QS];
  __shared__ __align__(16) uint16_t k_s[LS_TILE_K * QS];
  __shared__ __align__(16) uint16_t v_t[D * VS];
  LS_SHARED int q_first[LS_TILE_Q];
  LS_SHARED int q_last[LS_TILE_Q];
  LS_SHARED int chunk_slot[LS_TILE_K];
  LS_SHARED int range[2];

  const int kvh = (int)ls_block_x();
  const int tile = (int)ls_block_y();
  const int tid = (int)ls_thread_x();
  const int lane = tid % 32;
  const int g = lane >> 2;  // the fragment's row (and B's column) group
  const int t = lane & 3;   // its position within the group
  const int r0 = tiles[2 * tile];
  const int rows = tiles[2 * tile + 1];
  const int group = heads / kv_heads;
  const int nq = rows * group;
  const int kv_dim = kv_heads * D;
  const int* table = tables + table_offsets[r0];

  for (int i = tid; i < LS_TILE_Q * D; i += LS_ATT_THREADS) {
    const int qi = i / D;
    const int d = i % D;
    float v = 0.0f;
    if (qi < nq) v = qkv[(long)(r0 + qi / group) * stride + (long)(kvh * group + qi % group) * D + d];
    q_s[qi * QS + d] = ls_float_to_half(v);
  }
  if (tid < LS_TILE_Q) {
    int f = 1, l = 0;  // empty
    if (tid < nq) {
      const int row = r0 + tid / group;
      const int pos = positions[row];
      l = causal ? pos : seq_last[row];
      f = window > 0 ? (pos - window + 1 > 0 ? pos - window + 1 : 0) : 0;
    }
    q_first[tid] = f;
    q_last[tid] = l;
  }
  ls_sync_block();
  if (tid == 0) {
    int lo = 0x7fffffff, hi = -1;
    for (int qi = 0; qi < nq; qi += group) {
      lo = q_first[qi] < lo ? q_first[qi] : lo;
      hi = q_last[qi] > hi ? q_last[qi] : hi;
    }
    range[0] = lo;
    range[1] = hi;
  }
  ls_sync_block();
  const int lo = range[0];
  const int hi = range[1];
  // this lane's two query vectors: rows g and g + 8 of its wave's 16
  const int qv[2] = {(tid / 32) * 16 + g, (tid / 32) * 16 + g + 8};
  const int first[2] = {q_first[qv[0]], q_first[qv[1]]};
  const int last[2] = {q_last[qv[0]], q_last[qv[1]]};
  unsigned qa[KSTEPS][4];
#pragma unroll
  for (int ks = 0; ks < KSTEPS; ++ks) {
    const int c = ks * 16 + 2 * t;
    qa[ks][0] = *(const unsigned*)&q_s[qv[0] * QS + c];
    qa[ks][1] = *(const unsigned*)&q_s[qv[1] * QS + c];
    qa[ks][2] = *(const unsigned*)&q_s[qv[0] * QS + c + 8];
    qa[ks][3] = *(const unsigned*)&q_s[qv[1] * QS + c + 8];
  }
  float m[2] = {LS_ATT_NEG, LS_ATT_NEG};
  float l[2] = {0.0f, 0.0f};
  float o[DTILES][4];
#pragma unroll
  for (int dt = 0; dt < DTILES; ++dt)
#pragma unroll
    for (int e = 0; e < 4; ++e) o[dt][e] = 0.0f;

  for (int pass = 0; pass < 2; ++pass) {
    for (int c0 = lo; c0 <= hi; c0 += LS_TILE_K) {
      const int len = hi + 1 - c0 < LS_TILE_K ? hi + 1 - c0 : LS_TILE_K;
      if (tid < LS_TILE_K) {
        const int p = c0 + tid;
        chunk_slot[tid] = tid < len ? table[p / block_size] * block_size + p % block_size : 0;
      }
      ls_sync_block();
      for (int i = tid; i < LS_TILE_K * (D / 8); i += LS_ATT_THREADS) {
        const int j = i / (D / 8);
        const int d8 = (i % (D / 8)) * 8;
        const long at = (long)chunk_slot[j] * kv_dim + (long)kvh * D + d8;
        ls_u32x4 kw = {0u, 0u, 0u, 0u};
        if (j < len) kw = keys.halves8(at);
        *(ls_u32x4*)&k_s[j * QS + d8] = kw;
        if (pass == 1) {
          ls_u32x4 vw = {0u, 0u, 0u, 0u};
          if (j < len) vw = values.halves8(at);
          const unsigned w4[4] = {vw.x, vw.y, vw.z, vw.w};
#pragma unroll
          for (int e = 0; e < 4; ++e) {
            v_t[(d8 + 2 * e) * VS + j] = (uint16_t)(w4[e] & 0xFFFFu);
            v_t[(d8 + 2 * e + 1) * VS + j] = (uint16_t)(w4[e] >> 16);
          }
        }
      }
      ls_sync_block();
      // scores: element e of tile nt is query qv[e / 2], chunk position nt * 8 + 2t + e % 2
      float s[4][4];
#pragma unroll
      for (int nt = 0; nt < 4; ++nt) {
#pragma unroll
        for (int e = 0; e < 4; ++e) s[nt][e] = 0.0f;
        const uint16_t* krow = &k_s[(nt * 8 + g) * QS + 2 * t];
#pragma unroll
        for (int ks = 0; ks < KSTEPS; ++ks) {
          const unsigned b[2] = {*(const unsigned*)&krow[ks * 16], *(const unsigned*)&krow[ks * 16 + 8]};
          ls_mma_f16_16x8x16(s[nt], qa[ks], b);
        }
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          const int j = nt * 8 + 2 * t + (e & 1);
          const int p = c0 + j;
          const int r = e >> 1;
          const bool valid = j < len && p >= first[r] && p <= last[r];
          s[nt][e] = valid ? ls_softcap(s[nt][e] * scale, softcap) : -__builtin_inff();
        }
      }
      if (pass == 0) {
#pragma unroll
        for (int r = 0; r < 2; ++r) {
          float mx = -__builtin_inff();
#pragma unroll
          for (int nt = 0; nt < 4; ++nt) mx = __builtin_fmaxf(mx, __builtin_fmaxf(s[nt][2 * r], s[nt][2 * r + 1]));
          mx = __builtin_fmaxf(mx, ls_shfl_xor(mx, 1));
          mx = __builtin_fmaxf(mx, ls_shfl_xor(mx, 2));
          const float nm = __builtin_fmaxf(m[r], mx);
          float sum = 0.0f;
#pragma unroll
          for (int nt = 0; nt < 4; ++nt) sum += ls_exp(s[nt][2 * r] - nm) + ls_exp(s[nt][2 * r + 1] - nm);
          sum += ls_shfl_xor(sum, 1);
          sum += ls_shfl_xor(sum, 2);
          l[r] = l[r] * ls_exp(m[r] - nm) + sum;
          m[r] = nm;
        }
      } else {
        // half(exp(s - max) / sum), as the CPU backend rounds weights, then times the values
#pragma unroll
        for (int kk = 0; kk < 2; ++kk) {
          float w[2][4];
#pragma unroll
          for (int h = 0; h < 2; ++h)
#pragma unroll
            for (int e = 0; e < 4; ++e) {
              const float v = s[2 * kk + h][e];
              w[h][e] = v != -__builtin_inff() ? ls_exp(v - m[e >> 1]) * l[e >> 1] : 0.0f;
            }
          const unsigned pa[4] = {ls_half2_bits(w[0][0], w[0][1]), ls_half2_bits(w[0][2], w[0][3]),
                                  ls_half2_bits(w[1][0], w[1][1]), ls_half2_bits(w[1][2], w[1][3])};
#pragma unroll
          for (int dt = 0; dt < DTILES; ++dt) {
            const uint16_t* vrow = &v_t[(dt * 8 + g) * VS + kk * 16 + 2 * t];
            const unsigned b[2] = {*(const unsigned*)&vrow[0], *(const unsigned*)&vrow[8]};
            ls_mma_f16_16x8x16(o[dt], pa, b);
          }
        }
      }
      ls_sync_block();  // before the next chunk overwrites k_s and v_t
    }
    if (pass == 0) {
      // the sinks join each query's denominator; l becomes 1 / sum for pass 1
#pragma unroll
      for (int r = 0; r < 2; ++r) {
        if (qv[r] < nq) ls_fold_sink(m[r], l[r], sinks, kvh * group + qv[r] % group);
        l[r] = l[r] > 0.0f ? 1.0f / l[r] : 0.0f;
      }
    }
  }
#pragma unroll
  for (int r = 0; r < 2; ++r) {
    if (qv[r] < nq) {
      const int row = r0 + qv[r] / group;
      float* dst = out + (long)row * out_stride + (long)(kvh * group + qv[r] % group) * D + 2 * t;
      const bool padding = slots[row] < 0;
#pragma unroll
      for (int dt = 0; dt < DTILES; ++dt) {
        dst[dt * 8] = padding ? 0.0f : o[dt][2 * r];
        dst[dt * 8 + 1] = padding ? 0.0f : o[dt][2 * r + 1];
      }
    }
  }
#else  // never launched here
  (void)qkv, (void)stride, (void)keys, (void)values, (void)positions, (void)slots, (void)table_offsets;
  (void)seq_last, (void)tables, (void)tiles, (void)out, (void)out_stride, (void)heads, (void)kv_heads;
  (void)block_size, (void)scale, (void)softcap, (void)sinks, (void)causal, (void)window;
#endif
}

#define LS_ATTENTION_MMA(d)                                                                                      \
  LS_KERNEL void ls_attention_mma_d##d(const float* qkv, int stride, const uint16_t* keys, const uint16_t* values, \
                                       const int* positions, const int* slots, const int* table_offsets,          \
                                       const int* seq_last, const int* tables, const int* tiles, float* out,      \
                                       int out_stride, int heads, int kv_heads, int block_size, float scale,      \
                                       float softcap, const float* sinks, int causal, int window) {               \
    ls_attention_mma<d>(qkv, stride, LsKvF16{keys}, LsKvF16{values}, positions, slots, table_offsets, seq_last,   \
                        tables, tiles, out, out_stride, heads, kv_heads, block_size, scale, softcap, sinks,       \
                        causal, window);                                                                          \
  }

#define LS_ATTENTION_MMA_Q8(d)                                                                                   \
  LS_KERNEL void ls_attention_mma_q8_d##d(const float* qkv, int stride, const int8_t* keys,                       \
                                          const uint16_t* key_scales, const int8_t* values,                       \
                                          const uint16_t* value_scales, const int* positions, const int* slots,   \
                                          const int* table_offsets, const int* seq_last, const int* tables,       \
                                          const int* tiles, float* out, int out_stride, int heads, int kv_heads,  \
                                          int block_size, float scale, float softcap, const float* sinks,         \
                                          int causal, int window) {                                               \
    ls_attention_mma<d>(qkv, stride, LsKvQ8{keys, key_scales}, LsKvQ8{values, value_scales}, positions, slots,    \
                        table_offsets, seq_last, tables, tiles, out, out_stride, heads, kv_heads, block_size,     \
                        scale, softcap, sinks, causal, window);                                                   \
  }

LS_ATTENTION_MMA(64)
LS_ATTENTION_MMA(128)
LS_ATTENTION_MMA_Q8(64)
LS_ATTENTION_MMA_Q8(128)
