// Element-wise float kernels. Launch with a 1-D grid covering n; any block size.
#include "ls_compat.h"

LS_KERNEL void ls_vector_add_f32(const float* a, const float* b, float* out, int n) {
  const int i = (int)(ls_block_x() * ls_block_dim_x() + ls_thread_x());
  if (i < n) out[i] = a[i] + b[i];
}

// x[t][c] += bias[c] for every element of n rows of `cols`.
LS_KERNEL void ls_add_bias_f32(float* x, const float* bias, int cols, int total) {
  const int i = (int)(ls_block_x() * ls_block_dim_x() + ls_thread_x());
  if (i < total) x[i] += bias[i % cols];
}

// SwiGLU over fused gate|up rows: out[t][i] = silu(g) * u, g = gate_up[t][i], u = gate_up[t][i + f].
LS_KERNEL void ls_swiglu_f32(const float* gate_up, float* out, int f, int total) {
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

// out[i] = x[rows[i]] for i < n, rows of `cols` floats.
// GeGLU: gelu(gate) * up over the fused gate|up halves, GELU in its tanh form in float32.
LS_KERNEL void ls_geglu_f32(const float* gate_up, float* out, int f, int total) {
  const int i = (int)(ls_block_x() * ls_block_dim_x() + ls_thread_x());
  if (i >= total) return;
  const int t = i / f;
  const int c = i % f;
  const float g = gate_up[(long)t * 2 * f + c];
  const float u = gate_up[(long)t * 2 * f + f + c];
  out[i] = 0.5f * g * (1.0f + ls_tanh(0.7978845608028654f * g * (1.0f + 0.044715f * g * g))) * u;
}

LS_KERNEL void ls_tanh_f32(float* x, int total) {
  const int i = (int)(ls_block_x() * ls_block_dim_x() + ls_thread_x());
  if (i >= total) return;
  x[i] = ls_tanh(x[i]);
}

LS_KERNEL void ls_scale_f32(float* x, float factor, int total) {
  const int i = (int)(ls_block_x() * ls_block_dim_x() + ls_thread_x());
  if (i >= total) return;
  x[i] *= factor;
}

// A mixture's output: out[first + t] = sum over slots j of w[t * used + j] * y[j * tokens + t], the
// slots added in order (as llama.cpp adds the experts' outputs). The weights' float bits sit in
// int memory (the step's int region). 1-D grid over tokens * cols.
LS_KERNEL void ls_combine_experts_f32(const float* y, const float* weights, float* out, int first, int tokens, int used,
                                      int cols) {
  const int i = (int)(ls_block_x() * ls_block_dim_x() + ls_thread_x());
  if (i >= tokens * cols) return;
  const int t = i / cols;
  const int c = i % cols;
  float sum = weights[(long)t * used] * y[(long)t * cols + c];
  for (int j = 1; j < used; ++j) sum = sum + weights[(long)t * used + j] * y[((long)j * tokens + t) * cols + c];
  out[(long)(first + t) * cols + c] = sum;
}

LS_KERNEL void ls_gather_rows_f32(const float* x, const int* rows, float* out, int cols, int total) {
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
    const float r0 = v0 * c - v1 * s;
    const float r1 = v0 * s + v1 * c;
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
