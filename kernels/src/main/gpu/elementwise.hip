// Element-wise float kernels. Launch with a 1-D grid covering n; any block size.
#include "ls_compat.h"
#include "ls_heads.h"

LS_KERNEL void ls_vector_add_f32(const float* a, const float* b, float* out, int n) {
  ls_grid_wait();
  const int i = (int)(ls_block_x() * ls_block_dim_x() + ls_thread_x());
  if (i < n) out[i] = a[i] + b[i];
}

// x[t][c] += bias[c] for every element of n rows of `cols`.
LS_KERNEL void ls_add_bias_f32(float* x, const float* bias, int cols, int total) {
  ls_grid_wait();
  const int i = (int)(ls_block_x() * ls_block_dim_x() + ls_thread_x());
  if (i < total) x[i] += bias[i % cols];
}

// SwiGLU over fused gate|up rows: out[t][i] = silu(g) * u, g = gate_up[t][i], u = gate_up[t][i + f].
LS_KERNEL void ls_swiglu_f32(const float* gate_up, float* out, int f, int total) {
  ls_grid_wait();
  const int i = (int)(ls_block_x() * ls_block_dim_x() + ls_thread_x());
  if (i >= total) return;
  const int t = i / f;
  const int c = i % f;
  const float g = gate_up[(long)t * 2 * f + c];
  const float u = gate_up[(long)t * 2 * f + f + c];
  out[i] = g / (1.0f + ls_exp(-g)) * u;
}

// SwiGLU that also writes the Q8_0 form of its output (f a multiple of 32) for the down projection.
LS_KERNEL void ls_swiglu_q8(const float* gate_up, float* out, int8_t* q, float* d, int* sums, int f, int total) {
  ls_grid_wait();
  const int i = (int)(ls_block_x() * ls_block_dim_x() + ls_thread_x());
  if (i >= total) return;  // total is a multiple of 32: whole groups leave together
  const int t = i / f;
  const int c = i % f;
  const float g = gate_up[(long)t * 2 * f + c];
  const float u = gate_up[(long)t * 2 * f + f + c];
  const float v = g / (1.0f + ls_exp(-g)) * u;
  out[i] = v;
  ls_store_q8_0(v, i, q, d, sums);
}

// gpt-oss's SwiGLU (ggml's swiglu_oai, alpha 1.702, limit 7): the gate clamped above at the limit,
// the up half to [-limit, limit], then x * sigmoid(alpha * x) * (y + 1).
LS_KERNEL void ls_swiglu_oai_f32(const float* gate_up, float* out, float alpha, float limit, int f, int total) {
  ls_grid_wait();
  const int i = (int)(ls_block_x() * ls_block_dim_x() + ls_thread_x());
  if (i >= total) return;
  const int t = i / f;
  const int c = i % f;
  const float x = __builtin_fminf(gate_up[(long)t * 2 * f + c], limit);
  const float y = __builtin_fmaxf(__builtin_fminf(gate_up[(long)t * 2 * f + f + c], limit), -limit);
  out[i] = x / (1.0f + ls_exp(alpha * -x)) * (y + 1.0f);
}

// out[i] = x[rows[i]] for i < n, rows of `cols` floats.
// GeGLU: gelu(gate) * up over the fused gate|up halves, GELU in its tanh form in float32.
LS_KERNEL void ls_geglu_f32(const float* gate_up, float* out, int f, int total) {
  ls_grid_wait();
  const int i = (int)(ls_block_x() * ls_block_dim_x() + ls_thread_x());
  if (i >= total) return;
  const int t = i / f;
  const int c = i % f;
  const float g = gate_up[(long)t * 2 * f + c];
  const float u = gate_up[(long)t * 2 * f + f + c];
  out[i] = 0.5f * g * (1.0f + ls_tanh(0.7978845608028654f * g * (1.0f + 0.044715f * g * g))) * u;
}

LS_KERNEL void ls_tanh_f32(float* x, int total) {
  ls_grid_wait();
  const int i = (int)(ls_block_x() * ls_block_dim_x() + ls_thread_x());
  if (i >= total) return;
  x[i] = ls_tanh(x[i]);
}

LS_KERNEL void ls_scale_f32(float* x, float factor, int total) {
  ls_grid_wait();
  const int i = (int)(ls_block_x() * ls_block_dim_x() + ls_thread_x());
  if (i >= total) return;
  x[i] *= factor;
}

// Mixtures of experts on the device. A routing row (one per token, 2 * used floats) holds the
// token's chosen experts' ids, then their weights; pair p = t * used + j is slot j of token t.

// One token's choice of experts: logits z (the router's, `experts` wide) into slots [0, used) of
// slot_id and slot_value (shared memory, LS_ROUTE_MAX_USED each), by a block of LS_ROUTE_THREADS
// threads, thread i holding experts i, i + LS_ROUTE_THREADS, ... in registers; every thread sees
// the slots when it returns.
// top_k_softmax 0: the softmax over every expert (maximum subtracted), the `used` most likely
// chosen (the lower id first among equals): slot values are their probabilities. 1: the experts of
// the largest logits (SOFTMAX_WEIGHT, gpt-oss): slot values are those logits. Logits that are not
// numbers leave ids of -1, which the products skip.
// Each candidate finds its own rank (how many candidates beat it) against the others' values in
// shared memory, and the `used` best write their slots: no sequential rounds of reductions, which
// made one token's routing the longest small kernel of a mixture's layer.
LS_DEVICE void ls_route_choose(const float* z, int experts, int used, int top_k_softmax, int* slot_id,
                               float* slot_value) {
  static_assert(LS_ROUTE_MAX_EXPERTS % LS_ROUTE_THREADS == 0 && LS_ROUTE_MAX_USED <= LS_ROUTE_THREADS,
                "whole experts per thread, a slot per thread");
  constexpr int per = LS_ROUTE_MAX_EXPERTS / LS_ROUTE_THREADS;
  LS_SHARED float key[LS_ROUTE_MAX_EXPERTS];
  LS_SHARED float scratch[LS_ROUTE_THREADS / 32];
  const int tid = (int)ls_thread_x();
  // the candidates: probabilities (never negative, -1 leaves the running), or the logits (-inf leaves it)
  const float out_of_running = top_k_softmax ? -__builtin_huge_valf() : -1.0f;
  if (tid < used) {
    slot_value[tid] = out_of_running;
    slot_id[tid] = -1;
  }
  float v[per];
#pragma unroll
  for (int k = 0; k < per; ++k) {
    const int e = tid + k * LS_ROUTE_THREADS;
    v[k] = e < experts ? z[e] : -__builtin_huge_valf();
  }
  if (!top_k_softmax) {
    float m = v[0];
#pragma unroll
    for (int k = 1; k < per; ++k) m = __builtin_fmaxf(m, v[k]);
    m = ls_block_max(m, scratch);
    float sum = 0.0f;
#pragma unroll
    for (int k = 0; k < per; ++k) {
      v[k] = tid + k * LS_ROUTE_THREADS < experts ? ls_exp(v[k] - m) : out_of_running;
      sum += tid + k * LS_ROUTE_THREADS < experts ? v[k] : 0.0f;
    }
    const float inv = 1.0f / ls_block_sum(sum, scratch);
#pragma unroll
    for (int k = 0; k < per; ++k) v[k] = tid + k * LS_ROUTE_THREADS < experts ? v[k] * inv : out_of_running;
  }
#pragma unroll
  for (int k = 0; k < per; ++k) {
    const int e = tid + k * LS_ROUTE_THREADS;
    if (e < experts) key[e] = v[k];
  }
  ls_sync_block();
#pragma unroll
  for (int k = 0; k < per; ++k) {
    const int e = tid + k * LS_ROUTE_THREADS;
    if (e >= experts || !(v[k] > out_of_running)) continue;  // not a number, or out of the running
    int rank = 0;
#pragma unroll 8
    for (int f = 0; f < experts; ++f) {
      const float o = key[f];
      rank += o > v[k] || (o == v[k] && f < e);
    }
    if (rank < used) {
      slot_value[rank] = v[k];
      slot_id[rank] = e;
    }
  }
  ls_sync_block();
}

// Slot j's weight from ls_route_choose's slots: top_k_softmax 0, its probability divided by the
// chosen ones' sum (at least 6.1e-5, a half's smallest normal), as llama.cpp's build_moe_ffn with
// softmax gating; 1, the softmax over the chosen logits; either scaled. The sums run in slot order,
// so every thread that computes a slot's weight gets the same bits.
LS_DEVICE float ls_route_weight(const int* slot_id, const float* slot_value, int j, int used, float scale,
                                int top_k_softmax) {
  if (top_k_softmax) {
    float m = -__builtin_huge_valf();
    for (int i = 0; i < used; ++i) m = __builtin_fmaxf(m, slot_value[i]);
    float sum = 0.0f;
    for (int i = 0; i < used; ++i) sum += slot_value[i] == -__builtin_huge_valf() ? 0.0f : ls_exp(slot_value[i] - m);
    const float mine = slot_value[j] == -__builtin_huge_valf() ? 0.0f : ls_exp(slot_value[j] - m);
    return mine * (sum > 0.0f ? 1.0f / sum : 0.0f) * scale;
  }
  float chosen = 0.0f;
  for (int i = 0; i < used; ++i) chosen += slot_id[i] >= 0 ? slot_value[i] : 0.0f;
  return slot_value[j] / __builtin_fmaxf(chosen, 6.103515625e-5f) * scale;
}

// One token's routing row (its experts' ids, then their weights) from its logits z, by a block of
// LS_ROUTE_THREADS threads (see ls_route_choose).
LS_DEVICE void ls_route_token(const float* z, float* row, int experts, int used, float scale, int top_k_softmax) {
  LS_SHARED float slot_value[LS_ROUTE_MAX_USED];
  LS_SHARED int slot_id[LS_ROUTE_MAX_USED];
  ls_route_choose(z, experts, used, top_k_softmax, slot_id, slot_value);
  const int tid = (int)ls_thread_x();
  if (tid < used) {
    row[tid] = (float)slot_id[tid];
    row[used + tid] = ls_route_weight(slot_id, slot_value, tid, used, scale, top_k_softmax);
  }
}

// The routing of tokens [0, tokens): row first + t of `logits` into routing row t, a block per token.
LS_KERNEL void ls_route_experts_f32(const float* logits, float* routing, int first, int experts, int used,
                                    float scale, int top_k_softmax) {
  ls_grid_wait();
  ls_route_token(logits + (long)(first + (int)ls_block_x()) * experts, routing + (long)ls_block_x() * 2 * used, experts,
                 used, scale, top_k_softmax);
}

// The groups of the (token, expert) pairs of `tokens` routing rows for the ls_mmv*_ex and ls_mmq_ex
// products: pair p uses expert id routing[t][j], reads activation row x_first + t (or p with
// x_per_pair) and writes output row p. Each expert's pairs, in pair order, form groups of up to
// max_cols columns (LS_MMV_MAX_COLS for the GEMVs, LS_MMQ_COLS for the tensor-core products; 1 when
// each pair must be computed as if alone); a group of one column goes to `singles` (4 ints each),
// the others to `multis` (2 + 2 * max_cols ints each); each region starts with its group count.
// Expert e's groups follow those of experts below e in each region.
//
// One block of LS_GROUP_THREADS threads: thread s * experts + e takes expert e in slice s of the
// pairs (the pairs cut into LS_GROUP_THREADS / experts equal slices), so each thread reads a slice,
// not every pair: it counts its expert's pairs there, the counts are summed across slices and
// experts, and it then places those pairs knowing how many of the expert's come before its slice.
LS_KERNEL void ls_group_experts(const float* routing, int* singles, int* multis, int tokens, int used, int experts,
                                int x_first, int x_per_pair, int max_cols) {
  ls_grid_wait();
  static_assert(LS_GROUP_THREADS >= LS_ROUTE_MAX_EXPERTS && LS_GROUP_THREADS % 32 == 0, "a slice per expert at least");
  LS_SHARED int before[LS_GROUP_THREADS];  // [s][e]: expert e's pairs in slice s, then in the slices before s
  LS_SHARED int total[LS_ROUTE_MAX_EXPERTS];
  LS_SHARED int single_at[LS_ROUTE_MAX_EXPERTS];  // an expert's single groups, then where its first goes
  LS_SHARED int multi_at[LS_ROUTE_MAX_EXPERTS];
  LS_SHARED int lane_singles[32];
  LS_SHARED int lane_multis[32];
  const int tid = (int)ls_thread_x();
  const int pairs = tokens * used;
  const int slices = LS_GROUP_THREADS / experts;
  const int s = tid / experts;
  const int e = tid % experts;
  const bool active = s < slices;
  const int per = (pairs + slices - 1) / slices;
  const int p0 = s * per < pairs ? s * per : pairs;
  const int p1 = p0 + per < pairs ? p0 + per : pairs;
  if (active) {
    int c = 0;
    int t = p0 / used;
    int j = p0 % used;
    for (int p = p0; p < p1; ++p) {
      c += (int)routing[(long)t * 2 * used + j] == e;
      if (++j == used) {
        j = 0;
        ++t;
      }
    }
    before[tid] = c;
  }
  ls_sync_block();
  if (tid < experts) {
    int sum = 0;
    for (int q = 0; q < slices; ++q) {
      const int c = before[q * experts + tid];
      before[q * experts + tid] = sum;
      sum += c;
    }
    total[tid] = sum;
    const int groups = (sum + max_cols - 1) / max_cols;
    // of wider groups only a last one can have one column
    const int single = max_cols == 1 ? groups : sum % max_cols == 1 ? 1 : 0;
    single_at[tid] = single;
    multi_at[tid] = groups - single;
  }
  ls_sync_block();
  // exclusive sums over the experts: lane l of the first 32 threads takes a run of them
  const int run = (experts + 31) / 32;
  if (tid < 32) {
    int sn = 0;
    int mn = 0;
    for (int x = tid * run; x < experts && x < (tid + 1) * run; ++x) {
      sn += single_at[x];
      mn += multi_at[x];
    }
    lane_singles[tid] = sn;
    lane_multis[tid] = mn;
  }
  ls_sync_block();
  if (tid == 0) {
    int sn = 0;
    int mn = 0;
    for (int l = 0; l < 32; ++l) {
      const int a = lane_singles[l];
      const int b = lane_multis[l];
      lane_singles[l] = sn;
      lane_multis[l] = mn;
      sn += a;
      mn += b;
    }
    singles[0] = sn;
    multis[0] = mn;
  }
  ls_sync_block();
  if (tid < 32) {
    int sn = lane_singles[tid];
    int mn = lane_multis[tid];
    for (int x = tid * run; x < experts && x < (tid + 1) * run; ++x) {
      const int a = single_at[x];
      const int b = multi_at[x];
      single_at[x] = sn;
      multi_at[x] = mn;
      sn += a;
      mn += b;
    }
  }
  ls_sync_block();
  if (!active) return;
  int idx = before[tid];  // the expert's pairs before this one
  const int all = total[e];
  int t = p0 / used;
  int j = p0 % used;
  for (int p = p0; p < p1; ++p) {
    if ((int)routing[(long)t * 2 * used + j] == e) {
      const int gi = idx / max_cols;
      const int col = idx - gi * max_cols;
      const int columns = all - gi * max_cols < max_cols ? all - gi * max_cols : max_cols;
      int* g = columns == 1 ? singles + 1 + 4 * (single_at[e] + (max_cols == 1 ? gi : 0))
                            : multis + 1 + (2 + 2 * max_cols) * (multi_at[e] + gi);
      if (col == 0) {
        g[0] = e;
        g[1] = columns;
      }
      g[2 + 2 * col] = x_per_pair ? p : x_first + t;
      g[3 + 2 * col] = p;
      ++idx;
    }
    if (++j == used) {
      j = 0;
      ++t;
    }
  }
}

// A bias per expert on the (token, expert) pairs (ggml_add_id): columns [col, col + width) of pair
// row p = t * used + j of y (rows of `cols`) get row routing[t][j] of `bias` (`width` per expert);
// a pair whose id is not one of the `experts` is left alone. 1-D grid over pairs * width.
LS_KERNEL void ls_add_expert_bias_f32(float* y, const float* routing, const float* bias, int cols, int col, int width,
                                      int used, int experts, int total) {
  ls_grid_wait();
  const int i = (int)(ls_block_x() * ls_block_dim_x() + ls_thread_x());
  if (i >= total) return;
  const int p = i / width;
  const int c = i % width;
  const int e = (int)routing[(long)(p / used) * 2 * used + p % used];
  if (e >= 0 && e < experts) y[(long)p * cols + col + c] += bias[(long)e * width + c];
}

// A mixture's output: out[first + t] = sum over slots j of weight(t, j) * y[t * used + j], the slots
// added in order (as llama.cpp adds the experts' outputs), the weights from the routing rows.
// 1-D grid over tokens * cols.
LS_KERNEL void ls_combine_experts_f32(const float* y, const float* routing, float* out, int first, int tokens, int used,
                                      int cols) {
  ls_grid_wait();
  const int i = (int)(ls_block_x() * ls_block_dim_x() + ls_thread_x());
  if (i >= tokens * cols) return;
  const int t = i / cols;
  const int c = i % cols;
  const float* w = routing + (long)t * 2 * used + used;
  float sum = w[0] * y[(long)t * used * cols + c];
  for (int j = 1; j < used; ++j) sum = sum + w[j] * y[((long)t * used + j) * cols + c];
  out[(long)(first + t) * cols + c] = sum;
}

LS_KERNEL void ls_gather_rows_f32(const float* x, const int* rows, float* out, int cols, int total) {
  ls_grid_wait();
  const int i = (int)(ls_block_x() * ls_block_dim_x() + ls_thread_x());
  if (i >= total) return;
  const int r = i / cols;
  out[i] = x[(long)rows[r] * cols + i % cols];
}

// Rotary embedding of `heads` heads of `head_dim` starting at column `col` of each of n rows, by
// the row's position. `table` holds (cos, sin) per position and pair, computed on the host in
// double precision exactly as the CPU backend computes them; `dims` leading elements of each head
// rotate. neox: pairs (i, i + dims/2); otherwise pairs (2i, 2i + 1).
//
// When `keys` is not null the kernel also writes each row's keys (rotated) and values (columns
// value_col..) as halves into the row's cache slot, which saves the separate cache write.
// Grid (rows, ceil(work / block)), one work item per rotated pair, then per value and per
// unrotated key element.
LS_KERNEL void ls_rope_f32(float* x, int stride, int col, int heads, int head_dim, int dims, int neox,
                           const int* positions, const float* table, int key_col, int value_col, int kv_dim,
                           const int* slots, uint16_t* keys, uint16_t* values) {
  ls_grid_wait();
  const int t = (int)ls_block_x();
  int j = (int)(ls_block_y() * ls_block_dim_x() + ls_thread_x());
  const int half = dims / 2;
  const int pairs = heads * half;
  float* row = x + (long)t * stride;
  if (j < pairs) {
    const int h = j / half;
    const int i = j % half;
    const int i0 = col + (neox ? h * head_dim + i : h * head_dim + 2 * i);
    const int i1 = neox ? i0 + half : i0 + 1;
    const float* cs = table + ((long)positions[t] * half + i) * 2;
    const float c = cs[0];
    const float s = cs[1];
    const float v0 = row[i0];
    const float v1 = row[i1];
    float r0;
    float r1;
    ls_rotate_pair(v0, v1, c, s, &r0, &r1);
    row[i0] = r0;
    row[i1] = r1;
    if (keys && i0 >= key_col) {
      const int slot = slots[t];
      if (slot >= 0) {
        keys[(long)slot * kv_dim + i0 - key_col] = ls_float_to_half(r0);
        keys[(long)slot * kv_dim + i1 - key_col] = ls_float_to_half(r1);
      }
    }
    return;
  }
  if (!keys) return;
  const int slot = slots[t];
  if (slot < 0) return;
  j -= pairs;
  if (j < kv_dim) {
    values[(long)slot * kv_dim + j] = ls_float_to_half(row[value_col + j]);
    return;
  }
  j -= kv_dim;
  const int pass = head_dim - dims;  // key elements past the rotated ones
  if (pass > 0 && j < (kv_dim / head_dim) * pass) {
    const int e = (j / pass) * head_dim + dims + j % pass;
    keys[(long)slot * kv_dim + e] = ls_float_to_half(row[key_col + e]);
  }
}

// ls_head_rms_norm_f32 over the query and key heads, then ls_rope_f32, in one launch (qwen3's and
// gemma3's q/k norms, right before the rope): of the heads of head_dim from column `col`, the first
// `norm_heads` are RMS-normalized in place, the first `q_heads` of them times `q_weight` and the
// others times `k_weight` (head_dim values each), and then the first `heads` are rotated as
// ls_rope_f32 rotates them. A block of LS_HEAD_THREADS threads takes one head of one row and sums
// its squares as ls_head_rms_norm_f32's block does, so the results are the two kernels' bit for bit.
//
// When `keys` is not null the kernel also writes each row's keys (normalized and rotated) and values
// into the row's cache slot as halves, as ls_rope_f32 does: the caller guarantees that the rotated
// heads end with the keys (which start a whole number of heads after `col`) and that no head past
// them is normalized. Grid (rows, max(heads, norm_heads)).
LS_KERNEL void ls_rope_norm_f32(float* x, int stride, int col, int heads, int head_dim, int dims, int neox,
                                const int* positions, const float* table, int norm_heads, int q_heads,
                                const float* q_weight, const float* k_weight, float eps, int key_col, int value_col,
                                int kv_dim, const int* slots, uint16_t* keys, uint16_t* values) {
  ls_grid_wait();
  LS_SHARED float scratch[LS_MAX_WAVES_PER_BLOCK];
  const int t = (int)ls_block_x();
  const int h = (int)ls_block_y();
  const int tid = (int)ls_thread_x();
  const int threads = (int)ls_block_dim_x();
  float* row = x + (long)t * stride;
  const int first = col + h * head_dim;  // the head's first column
  float* head = row + first;
  const bool normed = h < norm_heads;
  float scale = 1.0f;
  if (normed) scale = ls_head_rms_scale(head, head_dim, eps, scratch);  // the same for the whole block
  const float* weight = h < q_heads ? q_weight : k_weight;
  // a key head of a row with a cache slot: its keys and its kv head's values go to the cache
  const int slot = keys ? slots[t] : -1;
  const bool cached = slot >= 0 && first >= key_col;
  const long kv = (long)slot * kv_dim + (first - key_col);
  const int rotated = h < heads ? dims : 0;  // leading elements of the head that rotate
  const int half = dims / 2;
  if (rotated > 0) {
    for (int i = tid; i < half; i += threads) {
      const int e0 = neox ? i : 2 * i;
      const int e1 = neox ? e0 + half : e0 + 1;
      const float* cs = table + ((long)positions[t] * half + i) * 2;
      const float c = cs[0];
      const float s = cs[1];
      float v0 = head[e0];
      float v1 = head[e1];
      if (normed) {  // as ls_head_rms_norm_f32 writes them
        v0 = v0 * scale * weight[e0];
        v1 = v1 * scale * weight[e1];
      }
      float r0;
      float r1;
      ls_rotate_pair(v0, v1, c, s, &r0, &r1);
      head[e0] = r0;
      head[e1] = r1;
      if (cached) {
        keys[kv + e0] = ls_float_to_half(r0);
        keys[kv + e1] = ls_float_to_half(r1);
      }
    }
  }
  if (normed || cached) {
    // the elements that do not rotate: past `dims`, or the whole of a head only normalized
    for (int e = rotated + tid; e < head_dim; e += threads) {
      float v = head[e];
      if (normed) {
        v = v * scale * weight[e];
        head[e] = v;
      }
      if (cached) keys[kv + e] = ls_float_to_half(v);
    }
  }
  if (cached) {
    for (int e = tid; e < head_dim; e += threads) {
      values[kv + e] = ls_float_to_half(row[value_col + first - key_col + e]);
    }
  }
}

// One-shot all-reduce (sum) of n floats over `ranks` GPUs of one host with peer access, in place:
// a tensor-parallel model's layer outputs at decode widths, where NCCL's latency per call dominates.
// Rank r launches this on its stream with its values x, every rank's receive area (r0..r7, unused
// ones null; `cap` lines per sender and parity) and its own counters (one per block). A thread
// pushes its four values into every peer's area as two lines {v0, epoch, v1, epoch}, then waits in
// its own area for each peer's lines of this epoch and sums every rank's values in rank order, so
// every rank holds the same bits. No fence and one crossing of the link: a line's flags say its
// values have landed. Lines of the two parities alternate: the writer of epoch e + 2 has seen the
// reader's lines of e + 1, written after the reader had read those of e. Block b's epoch counts up
// in counters[b] (the same on every rank, which launch the same sums), so a captured graph replays
// with the same arguments, and a flag equal to the epoch cannot be an older one.
LS_KERNEL void ls_allreduce_f32(float* x, unsigned* r0, unsigned* r1, unsigned* r2, unsigned* r3, unsigned* r4,
                                unsigned* r5, unsigned* r6, unsigned* r7, unsigned* counters, int rank, int ranks, int n,
                                int cap) {
  ls_grid_wait();
  unsigned* const areas[LS_AR_MAX_RANKS] = {r0, r1, r2, r3, r4, r5, r6, r7};
  LS_SHARED unsigned epoch_shared;
  const unsigned b = ls_block_x();
  const int t = (int)ls_thread_x();
  if (t == 0) epoch_shared = counters[b] + 1;
  ls_sync_block();
  const unsigned epoch = epoch_shared;
  const int lines = (n + 1) / 2;
  // this thread's lines: j and j + LS_AR_THREADS (values 2j, 2j + 1 and the next line's two)
  const int j = (int)b * LS_AR_THREADS * 2 + t;
  const int line[2] = {j, j + LS_AR_THREADS};
  float mine[LS_AR_PER_THREAD];
  for (int k = 0; k < LS_AR_PER_THREAD; k++) {
    const int i = 2 * line[k / 2] + (k & 1);
    mine[k] = i < n ? x[i] : 0.0f;
  }
  const long slots = (long)(epoch & 1) * ranks;  // this parity's first sender slot
  for (int q = 0; q < ranks; q++) {
    if (q == rank) continue;
    unsigned* to = areas[q] + (slots + rank) * cap * 4;
    for (int k = 0; k < 2; k++) {
      if (line[k] < lines) {
        ls_u32x4 v;
        v.x = __builtin_bit_cast(unsigned, mine[2 * k]);
        v.y = epoch;
        v.z = __builtin_bit_cast(unsigned, mine[2 * k + 1]);
        v.w = epoch;
        ls_line_store(to + (long)line[k] * 4, v);
      }
    }
  }
  float sum[LS_AR_PER_THREAD];
  for (int q = 0; q < ranks; q++) {
    float part[LS_AR_PER_THREAD];
    if (q == rank) {
      for (int k = 0; k < LS_AR_PER_THREAD; k++) part[k] = mine[k];
    } else {
      const unsigned* from = areas[rank] + (slots + q) * cap * 4;
      for (int k = 0; k < 2; k++) {
        ls_u32x4 v;
        v.x = 0;
        v.z = 0;
        if (line[k] < lines) {
          do {
            v = ls_line_load(from + (long)line[k] * 4);
          } while (v.y != epoch || v.w != epoch);
        }
        part[2 * k] = __builtin_bit_cast(float, v.x);
        part[2 * k + 1] = __builtin_bit_cast(float, v.z);
      }
    }
    for (int k = 0; k < LS_AR_PER_THREAD; k++) sum[k] = q == 0 ? part[k] : sum[k] + part[k];
  }
  for (int k = 0; k < LS_AR_PER_THREAD; k++) {
    const int i = 2 * line[k / 2] + (k & 1);
    if (i < n) x[i] = sum[k];
  }
  ls_sync_block();
  if (t == 0) counters[b] = epoch;
}
