// Small-batch matrix times activations: y[c][row] = W[row] . x[c] for c < NCOLS (1 to
// LS_MMV_MAX_COLS tokens), the weights read once for all the tokens. A block of LS_MMV_THREADS
// threads computes ls_mmv_rows(NCOLS) consecutive rows (LS_MMV_NARROW_ROWS for few tokens,
// LS_MMV_WIDE_ROWS from LS_MMV_WIDE_COLS on, so each activation load serves more weights), its
// threads splitting the row's length, then reducing through shared memory; the Q4_0 / Q8_0 GEMV's
// blocks for fewer than LS_MMV_WIDE_COLS tokens are LS_MMVQ_ONE_ROWS (one token) or
// LS_MMVQ_FEW_ROWS rows of LS_MMVQ_NARROW_THREADS threads, or, for one token over few enough rows,
// LS_MMVQ_WAVE_THREADS (ls_mmvq_rows, ls_mmvq_threads). The host sizes the grid as ceil(rows / rows
// per block); the constants are in ls_launch.h.
//
//   mmvq (Q4_0, Q8_0 repacked; Q4_1, Q5_0, Q5_1 in GGML's layout): activations quantized to Q8_0
//     (int8 q, float d, int sum per 32), int8 dot products with 4-way dot instructions, the way
//     llama.cpp's mul_mat_vec_q does.
//   mmvk (Q3_K, Q4_K, Q5_K, Q6_K in GGML's layout): activations quantized to Q8_K (int8 q, float d
//     per 256), integer dot products of each run of 32 weights, scaled per sub-block in integers,
//     the way ggml's CPU vec_dot_*_q8_K does.
//   mmvf (Q2_K, F16, BF16, F32; the mixtures' K-quant experts): the weights dequantized eight at a
//     time against float activations, rounded beforehand as the CPU backend does (Q8_K for
//     K-quants, none for the float formats).
//
// y has row stride `ystride` floats; with `accumulate` the result is added to y.
//
// Mixtures of experts (the ls_mmv*_ex entries): the weight stacks every expert's rows; `groups`
// holds a group count, then the groups (expert id, column count, then the activation row and output
// row of each column): all columns of a group use the same expert, so its rows are read once for
// all of them. Rows are `row_base + expert * rows` onwards. Block row blockIdx.y takes groups
// blockIdx.y, + stride, ... (stride: the grid's height), so the host sizes the grid by the pair
// count alone, a captured graph serves every routing, and no block is spent on an absent group.
#include "ls_formats.h"

constexpr int ls_mmv_rows(int ncols) {
  return ncols >= LS_MMV_WIDE_COLS ? LS_MMV_WIDE_ROWS : LS_MMV_NARROW_ROWS;
}

// The Q4_0 / Q8_0 GEMV's block (ls_mmvq_q4_0_*, ls_mmvq_q8_0_*): rows, then the most threads (a
// one-token launch takes LS_MMVQ_NARROW_THREADS or LS_MMVQ_WAVE_THREADS, the host's choice).
template <int NCOLS>
constexpr int ls_mmvq_rows = NCOLS >= LS_MMV_WIDE_COLS ? LS_MMV_WIDE_ROWS
                             : NCOLS == 1                ? LS_MMVQ_ONE_ROWS
                                                         : LS_MMVQ_FEW_ROWS;

template <int NCOLS>
constexpr int ls_mmvq_threads = NCOLS >= LS_MMV_WIDE_COLS ? LS_MMV_THREADS
                                : NCOLS == 1                ? LS_MMVQ_WAVE_THREADS
                                                            : LS_MMVQ_NARROW_THREADS;

// Column c's activation row, and its output row: c itself, or from a group's map.
LS_DEVICE int ls_mmv_xrow(const int* map, int c, int ncols) {
  return map ? map[2 * (c < ncols ? c : 0)] : c;
}

LS_DEVICE int ls_mmv_yrow(const int* map, int c) {
  return map ? map[2 * c + 1] : c;
}

// THREADS: the most threads a block may have (the Q4_0 / Q8_0 GEMV takes its block size at launch).
template <int NCOLS, int LS_MMV_ROWS = ls_mmv_rows(NCOLS), int THREADS = LS_MMV_THREADS>
LS_DEVICE void ls_mmv_store(float (&acc)[LS_MMV_ROWS][NCOLS], float* y, int row0, int rows, int ystride, int accumulate,
                            const int* map, int ncols) {
  static_assert(LS_MMV_ROWS * NCOLS <= THREADS, "a thread per sum");
  LS_SHARED float partial[THREADS / 32][LS_MMV_ROWS * NCOLS];
  const unsigned wave = ls_wave_size();
  const unsigned tid = ls_thread_x();
  const unsigned lane = tid & (wave - 1);
#pragma unroll
  for (int r = 0; r < LS_MMV_ROWS; ++r) {
#pragma unroll
    for (int c = 0; c < NCOLS; ++c) {
      const float v = ls_wave_sum(acc[r][c]);
      if (lane == 0) partial[tid / wave][r * NCOLS + c] = v;
    }
  }
  ls_sync_block();
  if (tid < LS_MMV_ROWS * NCOLS) {
    const int r = (int)tid / NCOLS;
    const int c = (int)tid % NCOLS;
    float sum = 0.0f;
    // a fixed trip count, the block's own waves taken (a bound read at run time made every GEMV's
    // code 1.5 KB longer, and 8B Q4_K's batch-1 step 12% slower on an H200)
#pragma unroll
    for (unsigned w = 0; w < THREADS / 32; ++w) {
      if (w < ls_block_dim_x() / wave) sum += partial[w][tid];
    }
    if (row0 + r < rows && c < ncols) {
      float* out = y + (long)ls_mmv_yrow(map, c) * ystride + row0 + r;
      *out = accumulate ? *out + sum : sum;
    }
  }
}

// Q4_0 / Q8_0 against Q8_0 activations xq (NCOLS rows of k int8), xd (scales), xs (sums).
template <int NCOLS, bool Q4, int LS_MMV_ROWS = ls_mmv_rows(NCOLS), int THREADS = LS_MMV_THREADS>
LS_DEVICE void ls_mmvq(const uint8_t* w, const uint16_t* wd, const int8_t* xq, const float* xd, const int* xs,
                       float* y, int rows, int k, int ystride, int accumulate, long row_base = 0,
                       const int* map = nullptr, int ncols = NCOLS) {
  const int nb = k / LS_QK;
  const int row0 = (int)ls_block_x() * LS_MMV_ROWS;
  float acc[LS_MMV_ROWS][NCOLS];
#pragma unroll
  for (int r = 0; r < LS_MMV_ROWS; ++r)
#pragma unroll
    for (int c = 0; c < NCOLS; ++c) acc[r][c] = 0.0f;

  ls_u32x4 wq[LS_MMV_ROWS][Q4 ? 1 : 2];
  float dw[LS_MMV_ROWS];
  // weight block b of this block's rows (past the last row a clamped duplicate, never stored)
  auto load = [&](int b) {
#pragma unroll
    for (int r = 0; r < LS_MMV_ROWS; ++r) {
      const int row = row0 + r < rows ? row0 + r : rows - 1;
      const long blk = (row_base + row) * nb + b;
      dw[r] = ls_half_to_float(wd[blk]);
      if (Q4) {
        wq[r][0] = ls_load16(w + blk * 16);
      } else {
        wq[r][0] = ls_load16(w + blk * 32);
        wq[r][Q4 ? 0 : 1] = ls_load16(w + blk * 32 + 16);
      }
    }
  };
  // No kernel writes weights: the first ones load while the kernel before this one finishes.
  if ((int)ls_thread_x() < nb) load((int)ls_thread_x());
  ls_grid_wait();
  for (int b = (int)ls_thread_x(); b < nb; b += (int)ls_block_dim_x()) {
    if (b != (int)ls_thread_x()) load(b);
#pragma unroll
    for (int c = 0; c < NCOLS; ++c) {
      const long xr = ls_mmv_xrow(map, c, ncols);
      const int8_t* xb = xq + xr * k + (long)b * LS_QK;
      const ls_u32x4 x0 = ls_load16(xb);
      const ls_u32x4 x1 = ls_load16(xb + 16);
      const float dx = xd[xr * nb + b];
      const int xi[8] = {(int)x0.x, (int)x0.y, (int)x0.z, (int)x0.w, (int)x1.x, (int)x1.y, (int)x1.z, (int)x1.w};
#pragma unroll
      for (int r = 0; r < LS_MMV_ROWS; ++r) {
        int sumi = 0;
        if (Q4) {
          const int wi[4] = {(int)wq[r][0].x, (int)wq[r][0].y, (int)wq[r][0].z, (int)wq[r][0].w};
#pragma unroll
          for (int j = 0; j < 4; ++j) {
            sumi = ls_dp4a(wi[j] & 0x0F0F0F0F, xi[j], sumi);             // elements 4j..4j+3
            sumi = ls_dp4a((wi[j] >> 4) & 0x0F0F0F0F, xi[4 + j], sumi);  // elements 16+4j..
          }
          // sum((q - 8) * x) = sum(q * x) - 8 * sum(x)
          acc[r][c] += dw[r] * dx * (float)(sumi - 8 * xs[xr * nb + b]);
        } else {
          const int wi[8] = {(int)wq[r][0].x, (int)wq[r][0].y, (int)wq[r][0].z, (int)wq[r][0].w,
                             (int)wq[r][Q4 ? 0 : 1].x, (int)wq[r][Q4 ? 0 : 1].y, (int)wq[r][Q4 ? 0 : 1].z,
                             (int)wq[r][Q4 ? 0 : 1].w};
#pragma unroll
          for (int j = 0; j < 8; ++j) sumi = ls_dp4a(wi[j], xi[j], sumi);
          acc[r][c] += dw[r] * dx * (float)sumi;
        }
      }
    }
  }
  ls_mmv_store<NCOLS, LS_MMV_ROWS, THREADS>(acc, y, row0, rows, ystride, accumulate, map, ncols);
}

// Float activations x (NCOLS rows of k floats) against any format with an eight-element reader.
template <int NCOLS, void (*DEQ8)(const uint8_t*, const uint16_t*, long, int, int, float*), int LS_MMV_ROWS = ls_mmv_rows(NCOLS)>
LS_DEVICE void ls_mmvf(const uint8_t* w, const uint16_t* wd, const float* x, float* y, int rows, int k, int ystride,
                       int accumulate, long row_base = 0, const int* map = nullptr, int ncols = NCOLS) {
  const int groups = k / 8;
  const int row0 = (int)ls_block_x() * LS_MMV_ROWS;
  float acc[LS_MMV_ROWS][NCOLS];
#pragma unroll
  for (int r = 0; r < LS_MMV_ROWS; ++r)
#pragma unroll
    for (int c = 0; c < NCOLS; ++c) acc[r][c] = 0.0f;

  float wv[LS_MMV_ROWS][8];
  // eight weights of each of this block's rows (past the last row a clamped duplicate, never stored)
  auto load = [&](int g) {
#pragma unroll
    for (int r = 0; r < LS_MMV_ROWS; ++r) {
      const int row = row0 + r < rows ? row0 + r : rows - 1;
      DEQ8(w, wd, row_base + row, k, g * 8, wv[r]);
    }
  };
  // No kernel writes weights: the first ones load while the kernel before this one finishes.
  if ((int)ls_thread_x() < groups) load((int)ls_thread_x());
  ls_grid_wait();
  for (int g = (int)ls_thread_x(); g < groups; g += LS_MMV_THREADS) {
    if (g != (int)ls_thread_x()) load(g);
#pragma unroll
    for (int c = 0; c < NCOLS; ++c) {
      const float* xp = x + (long)ls_mmv_xrow(map, c, ncols) * k + (long)g * 8;
      const ls_u32x4 a = ls_load16(xp);
      const ls_u32x4 b = ls_load16(xp + 4);
      const float xv[8] = {__builtin_bit_cast(float, a.x), __builtin_bit_cast(float, a.y),
                           __builtin_bit_cast(float, a.z), __builtin_bit_cast(float, a.w),
                           __builtin_bit_cast(float, b.x), __builtin_bit_cast(float, b.y),
                           __builtin_bit_cast(float, b.z), __builtin_bit_cast(float, b.w)};
#pragma unroll
      for (int r = 0; r < LS_MMV_ROWS; ++r) {
        float s = 0.0f;
#pragma unroll
        for (int i = 0; i < 8; ++i) s += wv[r][i] * xv[i];
        acc[r][c] += s;
      }
    }
  }
  ls_mmv_store<NCOLS>(acc, y, row0, rows, ystride, accumulate, map, ncols);
}

// One token's K-quant product with integer dot products (ls_mmvk_*), as ggml's CPU vec_dot_*_q8_K
// computes it: the activations quantized to Q8_K (int8 q, one float d per 256: out_q / out_d of
// ls_quantize_q8_k), each run of 32 weights' integer values dotted with q four at a time, the sums
// scaled by the weight's sub-block scales in integers, then by its d (and dmin) and the activation's
// d in float. A thread takes one run of 32 (one or two sub-blocks) of LS_MMV_NARROW_ROWS rows per
// step; the float path (ls_mmvf) spent most of its instructions turning each weight into a float.

// 32 bytes at p (2-byte aligned) as eight words, through aligned word loads.
LS_DEVICE void ls_words32_a2(const uint8_t* p, uint32_t (&out)[8]) {
  const uint32_t* a = (const uint32_t*)((uintptr_t)p & ~(uintptr_t)3);
  if (((uintptr_t)p & 2) == 0) {
#pragma unroll
    for (int i = 0; i < 8; ++i) out[i] = a[i];
  } else {
    uint32_t prev = a[0];
#pragma unroll
    for (int i = 0; i < 8; ++i) {
      const uint32_t next = a[i + 1];
      out[i] = (prev >> 16) | (next << 16);
      prev = next;
    }
  }
}

// 32 bytes at p (16-byte aligned) as eight words.
LS_DEVICE void ls_words32_a16(const uint8_t* p, uint32_t (&out)[8]) {
  const ls_u32x4 a = ls_load16(p), b = ls_load16(p + 16);
  out[0] = a.x, out[1] = a.y, out[2] = a.z, out[3] = a.w;
  out[4] = b.x, out[5] = b.y, out[6] = b.z, out[7] = b.w;
}

// A run of 32 K-quant weights (block b, elements e..e+31) for the integer dot products: their
// integer values as four bytes per word (v[0..3] the first 16, v[4..7] the last), and how their dot
// product with activation ints x (sums qs0, qs1 of its two halves) becomes a float:
// d * (a0 * (x.v[0..3] - off * qs0) + a1 * (x.v[4..7] - off * qs1)) - dmin * (m * (qs0 + qs1)).
struct LsKRun {
  uint32_t v[8];
  int a0, a1, off, m;
  float d, dmin;
};

LS_DEVICE void ls_krun_q4_k(const uint8_t* b, int e, LsKRun& r) {
  const int c = e / 64, hi = (e % 64) >= 32;
  ls_k4_scale_min(b + 4, 2 * c + hi, &r.a0, &r.m);
  r.a1 = r.a0;
  r.off = 0;
  r.d = ls_f16_at(b);
  r.dmin = ls_f16_at(b + 2);
  ls_words32_a16(b + 16 + 32 * c, r.v);
#pragma unroll
  for (int i = 0; i < 8; ++i) r.v[i] = (r.v[i] >> (hi ? 4 : 0)) & 0x0F0F0F0Fu;
}

LS_DEVICE void ls_krun_q5_k(const uint8_t* b, int e, LsKRun& r) {
  const int c = e / 64, hi = (e % 64) >= 32, g = 2 * c + hi;
  ls_k4_scale_min(b + 4, g, &r.a0, &r.m);
  r.a1 = r.a0;
  r.off = 0;
  r.d = ls_f16_at(b);
  r.dmin = ls_f16_at(b + 2);
  uint32_t qh[8];
  ls_words32_a16(b + 48 + 32 * c, r.v);
  ls_words32_a16(b + 16, qh);
#pragma unroll
  for (int i = 0; i < 8; ++i) r.v[i] = ((r.v[i] >> (hi ? 4 : 0)) & 0x0F0F0F0Fu) | (((qh[i] >> g) & 0x01010101u) << 4);
}

LS_DEVICE void ls_krun_q6_k(const uint8_t* b, int e, LsKRun& r) {
  const int n = e / 128, quarter = (e % 128) / 32;
  uint32_t qh[8];
  ls_words32_a2(b + 64 * n + (quarter & 1) * 32, r.v);
  ls_words32_a2(b + 128 + 32 * n, qh);
  const int low_shift = quarter >= 2 ? 4 : 0, high_shift = 2 * quarter;
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    r.v[i] = ((r.v[i] >> low_shift) & 0x0F0F0F0Fu) | (((qh[i] >> high_shift) & 0x03030303u) << 4);
  }
  r.a0 = (int8_t)b[192 + 8 * n + 2 * quarter];
  r.a1 = (int8_t)b[192 + 8 * n + 1 + 2 * quarter];
  r.off = 32;  // values are v - 32
  r.m = 0;
  r.d = ls_f16_at(b + 208);
  r.dmin = 0.0f;
}

LS_DEVICE void ls_krun_q3_k(const uint8_t* b, int e, LsKRun& r) {
  const int g = e / 16;  // even: this run is sub-blocks g and g + 1
  uint32_t hm[8];
  ls_words32_a2(b + 32 + 32 * (g / 8), r.v);
  ls_words32_a2(b, hm);
  const int shift = 2 * ((g % 8) / 2);
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    // the two low bits, and 4 where the high bit is set (its absence subtracts 4): value + 4
    r.v[i] = ((r.v[i] >> shift) & 0x03030303u) | (((hm[i] >> (g / 2)) & 0x01010101u) << 2);
  }
  const uint8_t* s = b + 96;
  int sc[2];
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    const int gg = g + h;
    const int low = gg < 8 ? (s[gg] & 0x0F) : (s[gg - 8] >> 4);
    const int high = (s[8 + gg % 4] >> (2 * (gg / 4))) & 3;
    sc[h] = (low | (high << 4)) - 32;
  }
  r.a0 = sc[0];
  r.a1 = sc[1];
  r.off = 4;
  r.m = 0;
  r.d = ls_f16_at(b + 108);
  r.dmin = 0.0f;
}

// NCOLS tokens (at most LS_MMV_MAX_COLS) against a K-quant weight: a thread takes one run of 32 of
// the block's rows per step, its bits unpacked once for all the tokens.
template <int NCOLS, void (*RUN)(const uint8_t*, int, LsKRun&), int BYTES, int LS_MMV_ROWS = ls_mmv_rows(NCOLS)>
LS_DEVICE void ls_mmvk(const uint8_t* w, const int8_t* xq, const float* xd, float* y, int rows, int k, int ystride,
                       int accumulate) {
  const int nb = k / LS_QK_K;
  const int row0 = (int)ls_block_x() * LS_MMV_ROWS;
  float acc[LS_MMV_ROWS][NCOLS];
#pragma unroll
  for (int r = 0; r < LS_MMV_ROWS; ++r)
#pragma unroll
    for (int c = 0; c < NCOLS; ++c) acc[r][c] = 0.0f;
  for (int j = (int)ls_thread_x(); j < k / 32; j += LS_MMV_THREADS) {
    const int sb = j / 8, e = (j % 8) * 32;
    int x[NCOLS][8], qs[NCOLS][2];
    float dq[NCOLS];
#pragma unroll
    for (int c = 0; c < NCOLS; ++c) {
      const int8_t* p = xq + (long)c * k + (long)j * 32;
      const ls_u32x4 a = ls_load16(p), h = ls_load16(p + 16);
      x[c][0] = (int)a.x, x[c][1] = (int)a.y, x[c][2] = (int)a.z, x[c][3] = (int)a.w;
      x[c][4] = (int)h.x, x[c][5] = (int)h.y, x[c][6] = (int)h.z, x[c][7] = (int)h.w;
      qs[c][0] = 0;
      qs[c][1] = 0;
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        qs[c][0] = ls_dp4a(x[c][i], 0x01010101, qs[c][0]);
        qs[c][1] = ls_dp4a(x[c][4 + i], 0x01010101, qs[c][1]);
      }
      dq[c] = xd[(long)c * nb + sb];
    }
#pragma unroll
    for (int r = 0; r < LS_MMV_ROWS; ++r) {
      const long row = row0 + r < rows ? row0 + r : rows - 1;
      LsKRun run;
      RUN(w + (row * nb + sb) * BYTES, e, run);
#pragma unroll
      for (int c = 0; c < NCOLS; ++c) {
        int i0 = 0, i1 = 0;
#pragma unroll
        for (int i = 0; i < 4; ++i) {
          i0 = ls_dp4a((int)run.v[i], x[c][i], i0);
          i1 = ls_dp4a((int)run.v[4 + i], x[c][4 + i], i1);
        }
        const int isum = run.a0 * (i0 - run.off * qs[c][0]) + run.a1 * (i1 - run.off * qs[c][1]);
        acc[r][c] += dq[c] * (run.d * (float)isum - run.dmin * (float)(run.m * (qs[c][0] + qs[c][1])));
      }
    }
  }
  ls_mmv_store<NCOLS>(acc, y, row0, rows, ystride, accumulate, nullptr, NCOLS);
}

#define LS_MMVK_ENTRY(name, bytes, n)                                                                       \
  LS_KERNEL void ls_mmvk_##name##_##n(const uint8_t* w, const uint16_t* wd, const int8_t* xq, const float* xd, \
                                      float* y, int rows, int k, int ystride, int accumulate) {            \
    (void)wd;                                                                                               \
    ls_grid_wait();                                                                                         \
    ls_mmvk<n, ls_krun_##name, bytes>(w, xq, xd, y, rows, k, ystride, accumulate);                          \
  }

// The integer GEMV of a mixture's experts, whose rows are often short (qwen3-30b-a3b: 2048 and
// 768 values, 64 and 24 Q8_0 blocks, where ls_mmvq's one block per thread leaves half or most of
// the 128 threads idle): each block's weight ints are split among S threads, the weight's -8 offset
// (Q4_0) applied by the first part. Same arithmetic as ls_mmvq, the per-part sums added in float.
template <int NCOLS, bool Q4, int S, int LS_MMV_ROWS = ls_mmv_rows(NCOLS)>
LS_DEVICE void ls_mmvq_parts(const uint8_t* w, const uint16_t* wd, const int8_t* xq, const float* xd, const int* xs,
                             float* y, int rows, int k, int ystride, long row_base, const int* map, int ncols) {
  constexpr int INTS = Q4 ? 4 : 8;  // weight ints per block: 32 nibbles or 32 bytes
  constexpr int PART = INTS / S;
  static_assert(INTS % S == 0, "a block's ints split evenly");
  const int nb = k / LS_QK;
  const int row0 = (int)ls_block_x() * LS_MMV_ROWS;
  float acc[LS_MMV_ROWS][NCOLS];
#pragma unroll
  for (int r = 0; r < LS_MMV_ROWS; ++r)
#pragma unroll
    for (int c = 0; c < NCOLS; ++c) acc[r][c] = 0.0f;

  for (int i = (int)ls_thread_x(); i < nb * S; i += LS_MMV_THREADS) {
    const int b = i / S;
    const int part = i % S;
    int wv[LS_MMV_ROWS][PART];
    float dw[LS_MMV_ROWS];
#pragma unroll
    for (int r = 0; r < LS_MMV_ROWS; ++r) {
      const int row = row0 + r < rows ? row0 + r : rows - 1;  // a clamped duplicate; never stored
      const long blk = (row_base + row) * nb + b;
      dw[r] = ls_half_to_float(wd[blk]);
      const int* wp = (const int*)(w + blk * (Q4 ? 16 : 32)) + part * PART;
#pragma unroll
      for (int j = 0; j < PART; ++j) wv[r][j] = wp[j];
    }
#pragma unroll
    for (int c = 0; c < NCOLS; ++c) {
      const long xr = ls_mmv_xrow(map, c, ncols);
      const int* xp = (const int*)(xq + xr * k + (long)b * LS_QK);
      const float dx = xd[xr * nb + b];
      int lo[PART], hi[PART];
#pragma unroll
      for (int j = 0; j < PART; ++j) {
        lo[j] = xp[part * PART + j];
        hi[j] = Q4 ? xp[4 + part * PART + j] : 0;  // Q4_0's high nibbles are elements 16..31
      }
      const int offset = Q4 && part == 0 ? 8 * xs[xr * nb + b] : 0;
#pragma unroll
      for (int r = 0; r < LS_MMV_ROWS; ++r) {
        int sumi = 0;
#pragma unroll
        for (int j = 0; j < PART; ++j) {
          if (Q4) {
            sumi = ls_dp4a(wv[r][j] & 0x0F0F0F0F, lo[j], sumi);
            sumi = ls_dp4a((wv[r][j] >> 4) & 0x0F0F0F0F, hi[j], sumi);
          } else {
            sumi = ls_dp4a(wv[r][j], lo[j], sumi);
          }
        }
        acc[r][c] += dw[r] * dx * (float)(sumi - offset);
      }
    }
  }
  ls_mmv_store<NCOLS>(acc, y, row0, rows, ystride, 0, map, ncols);
}

// One column of a mixture's Q4_0 / Q8_0 expert GEMV (ls_mmvq_ex_*_1_w32). ls_mmvq_parts gives each
// thread a slice of one block of eight rows and sums the rows through shared memory: on the short
// rows of an expert (qwen3-30b-a3b: 64 and 24 blocks) that is 4 or 8 bytes a load and a block-wide
// reduction per eight rows. Here a group of 32 lanes takes LS_MMV_W32_GROUP_ROWS rows, each lane
// whole blocks of every one of them (16-byte loads, all issued before any is used; two blocks of
// each row at a time for Q4_0), and each row ends in one 32-lane sum: no shared memory, no sync.
// Per block and column the arithmetic is ls_mmvq's; the blocks of a row are summed in another order.
template <bool Q4>
LS_DEVICE void ls_mmvq_w32(const uint8_t* w, const uint16_t* wd, const int8_t* xq, const float* xd, const int* xs,
                           float* y, int rows, int k, int ystride, long row_base, const int* map) {
  constexpr int R = LS_MMV_W32_GROUP_ROWS;
  constexpr int U = Q4 ? 2 : 1;  // blocks of each row a lane loads at once
  static_assert(LS_MMV_W32_ROWS == R * (LS_MMV_THREADS / 32), "a block is its groups' rows");
  const int nb = k / LS_QK;
  const int tid = (int)ls_thread_x();
  const int lane = tid % 32;
  const int row0 = (int)ls_block_x() * LS_MMV_W32_ROWS + tid / 32 * R;
  if (row0 >= rows) return;
  const long xr = map[0];
  float acc[R];
#pragma unroll
  for (int r = 0; r < R; ++r) acc[r] = 0.0f;
  for (int b0 = lane; b0 < nb; b0 += 32 * U) {
    ls_u32x4 wq[U][R][Q4 ? 1 : 2];
    float dw[U][R];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const int b = b0 + 32 * u < nb ? b0 + 32 * u : b0;  // past the row: a duplicate, not added
#pragma unroll
      for (int r = 0; r < R; ++r) {
        const int row = row0 + r < rows ? row0 + r : rows - 1;  // a clamped duplicate; never stored
        const long blk = (row_base + row) * nb + b;
        dw[u][r] = ls_half_to_float(wd[blk]);
        if (Q4) {
          wq[u][r][0] = ls_load16(w + blk * 16);
        } else {
          wq[u][r][0] = ls_load16(w + blk * 32);
          wq[u][r][Q4 ? 0 : 1] = ls_load16(w + blk * 32 + 16);
        }
      }
    }
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const int b = b0 + 32 * u;
      if (b >= nb) break;
      const int8_t* xb = xq + xr * k + (long)b * LS_QK;
      const ls_u32x4 x0 = ls_load16(xb);
      const ls_u32x4 x1 = ls_load16(xb + 16);
      const float dx = xd[xr * nb + b];
      const int offset = Q4 ? 8 * xs[xr * nb + b] : 0;
      const int xi[8] = {(int)x0.x, (int)x0.y, (int)x0.z, (int)x0.w, (int)x1.x, (int)x1.y, (int)x1.z, (int)x1.w};
#pragma unroll
      for (int r = 0; r < R; ++r) {
        int sumi = 0;
        if (Q4) {
          const int wi[4] = {(int)wq[u][r][0].x, (int)wq[u][r][0].y, (int)wq[u][r][0].z, (int)wq[u][r][0].w};
#pragma unroll
          for (int j = 0; j < 4; ++j) {
            sumi = ls_dp4a(wi[j] & 0x0F0F0F0F, xi[j], sumi);
            sumi = ls_dp4a((wi[j] >> 4) & 0x0F0F0F0F, xi[4 + j], sumi);
          }
        } else {
          const int wi[8] = {(int)wq[u][r][0].x, (int)wq[u][r][0].y, (int)wq[u][r][0].z, (int)wq[u][r][0].w,
                             (int)wq[u][r][Q4 ? 0 : 1].x, (int)wq[u][r][Q4 ? 0 : 1].y,
                             (int)wq[u][r][Q4 ? 0 : 1].z, (int)wq[u][r][Q4 ? 0 : 1].w};
#pragma unroll
          for (int j = 0; j < 8; ++j) sumi = ls_dp4a(wi[j], xi[j], sumi);
        }
        acc[r] += dw[u][r] * dx * (float)(sumi - offset);
      }
    }
  }
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const float sum = ls_group32_sum(acc[r]);
    if (lane == 0 && row0 + r < rows) y[(long)map[1] * ystride + row0 + r] = sum;
  }
}

// The integer GEMV of the 32-blocks kept in GGML's layout, against the same Q8_0 activations:
// Q4_1 (20 bytes: d, m, 16 quant bytes), Q5_0 (22: d, qh, 16 bytes; only 2-byte aligned, so its
// ints load as two halves) and Q5_1 (24: d, m, qh, 16 bytes), as llama.cpp's vec_dot_q4_1_q8_1 and
// friends. A block's four quant ints (elements 4j.. in the low nibbles, 16 + 4j.. in the high
// ones; Q5's fifth bits from qh moved to bit 4 of each byte) are split among S threads (S = 1 for
// the plain GEMV; 2 or 4 for a mixture's short rows, see ls_mmvq_parts). Per block and column:
//   Q5_0:       d * dx * (sum(q * xq) - 16 * sum(xq))
//   Q4_1, Q5_1: d * dx * sum(q * xq) + m * dx * sum(xq)
// the same products as the CPU backend's float dot of the dequantized weights with the Q8_0-rounded
// activations (q * d + m) * (xq * dx), summed in another order; the offset term by part 0 only.
// (LS_IQ_*, ls_iq_unpack: ls_formats.h.)
template <int NCOLS, int FMT, int S, int LS_MMV_ROWS = ls_mmv_rows(NCOLS)>
LS_DEVICE void ls_mmvq_ggml(const uint8_t* w, const int8_t* xq, const float* xd, const int* xs, float* y, int rows,
                            int k, int ystride, int accumulate, long row_base, const int* map, int ncols) {
  constexpr int PART = 4 / S;
  constexpr int BLOCK_BYTES = LS_IQ_BLOCK_BYTES(FMT);
  static_assert(4 % S == 0, "a block's ints split evenly");
  const int nb = k / LS_QK;
  const int row0 = (int)ls_block_x() * LS_MMV_ROWS;
  float acc[LS_MMV_ROWS][NCOLS];
#pragma unroll
  for (int r = 0; r < LS_MMV_ROWS; ++r)
#pragma unroll
    for (int c = 0; c < NCOLS; ++c) acc[r][c] = 0.0f;

  for (int i = (int)ls_thread_x(); i < nb * S; i += LS_MMV_THREADS) {
    const int b = i / S;
    const int part = i % S;
    int lo[LS_MMV_ROWS][PART], hi[LS_MMV_ROWS][PART];
    float dw[LS_MMV_ROWS], mw[LS_MMV_ROWS];
#pragma unroll
    for (int r = 0; r < LS_MMV_ROWS; ++r) {
      const int row = row0 + r < rows ? row0 + r : rows - 1;  // a clamped duplicate; never stored
      const uint8_t* bp = w + ((row_base + row) * nb + b) * BLOCK_BYTES;
      ls_iq_unpack<FMT, PART>(bp, part * PART, &dw[r], &mw[r], lo[r], hi[r]);
    }
#pragma unroll
    for (int c = 0; c < NCOLS; ++c) {
      const long xr = ls_mmv_xrow(map, c, ncols);
      const int* xp = (const int*)(xq + xr * k + (long)b * LS_QK);
      const float dx = xd[xr * nb + b];
      const int sx = part == 0 ? xs[xr * nb + b] : 0;
      int xlo[PART], xhi[PART];
#pragma unroll
      for (int j = 0; j < PART; ++j) {
        xlo[j] = xp[part * PART + j];
        xhi[j] = xp[4 + part * PART + j];
      }
#pragma unroll
      for (int r = 0; r < LS_MMV_ROWS; ++r) {
        int sumi = 0;
#pragma unroll
        for (int j = 0; j < PART; ++j) {
          sumi = ls_dp4a(lo[r][j], xlo[j], sumi);
          sumi = ls_dp4a(hi[r][j], xhi[j], sumi);
        }
        if (FMT == LS_IQ_Q5_0) {
          acc[r][c] += dw[r] * dx * (float)(sumi - 16 * sx);
        } else {
          acc[r][c] += dw[r] * dx * (float)sumi + mw[r] * dx * (float)sx;
        }
      }
    }
  }
  ls_mmv_store<NCOLS>(acc, y, row0, rows, ystride, accumulate, map, ncols);
}

#define LS_MMVQ_GGML_ENTRY(name, fmt, n)                                                                     \
  LS_KERNEL void ls_mmvq_##name##_##n(const uint8_t* w, const uint16_t* wd, const int8_t* xq, const float* xd, \
                                      const int* xs, float* y, int rows, int k, int ystride, int accumulate) { \
    (void)wd;                                                                                               \
    ls_grid_wait();                                                                                         \
    ls_mmvq_ggml<n, fmt, 1>(w, xq, xd, xs, y, rows, k, ystride, accumulate, 0, nullptr, n);                 \
  }

#define LS_MMVQ_ENTRY(name, q4, n)                                                                         \
  LS_KERNEL void ls_mmvq_##name##_##n(const uint8_t* w, const uint16_t* wd, const int8_t* xq, const float* xd, \
                                      const int* xs, float* y, int rows, int k, int ystride, int accumulate) { \
    ls_mmvq<n, q4, ls_mmvq_rows<n>, ls_mmvq_threads<n>>(w, wd, xq, xd, xs, y, rows, k, ystride, accumulate);  \
  }

#define LS_MMVF_ENTRY(name, deq8, n)                                                                   \
  LS_KERNEL void ls_mmvf_##name##_##n(const uint8_t* w, const uint16_t* wd, const float* x, float* y,    \
                                      int rows, int k, int ystride, int accumulate) {                    \
    ls_mmvf<n, deq8>(w, wd, x, y, rows, k, ystride, accumulate);                                        \
  }

// This block's groups of a mixture's columns (see the header); the sync keeps the next group's
// partial sums from overwriting ones still being read. With `groups` null, one token's pairs come
// straight from its routing row, each a group of one column (pair j: expert routing[j], activation
// row x_first, or j with x_per_pair; output row j), so a token alone needs no grouping launch; a
// pair without an expert (id -1) is skipped, as the grouping leaves it out.
#define LS_MMV_GROUPS(n, product)                                                 \
  ls_grid_wait();                                                                 \
  const int count = groups ? groups[0] : used;                                    \
  for (int gi = (int)ls_block_y(); gi < count; gi += stride) {                    \
    int direct[4];                                                                \
    const int* g = groups + 1 + (long)gi * (2 + 2 * (n));                         \
    if (!groups) {                                                                \
      direct[0] = (int)routing[gi];                                               \
      direct[1] = 1;                                                              \
      direct[2] = x_per_pair ? gi : x_first;                                      \
      direct[3] = gi;                                                             \
      g = direct;                                                                 \
      if (g[0] < 0) continue;                                                     \
    }                                                                             \
    const long base = row_base + (long)g[0] * rows;                               \
    product;                                                                      \
    ls_sync_block();                                                              \
  }

// ..._s<S>: each weight block's ints split among S threads (short rows: see ls_mmvq_parts).
#define LS_MMVQ_EX_ENTRY_S(name, q4, n, s)                                                                        \
  LS_KERNEL void ls_mmvq_ex_##name##_##n##_s##s(const uint8_t* w, const uint16_t* wd, const int8_t* xq,          \
                                                const float* xd, const int* xs, float* y, const int* groups,    \
                                                long long row_base, int rows, int k, int ystride, int stride, \
                                                const float* routing, int used, int x_first, int x_per_pair) { \
    LS_MMV_GROUPS(n, (ls_mmvq_parts<n, q4, s, LS_MMV_EX_ROWS>(w, wd, xq, xd, xs, y, rows, k, ystride, base, g + 2, g[1])))        \
  }

#define LS_MMVQ_EX_ENTRY(name, q4, n) \
  LS_MMVQ_EX_ENTRY_S(name, q4, n, 1) LS_MMVQ_EX_ENTRY_S(name, q4, n, 2) LS_MMVQ_EX_ENTRY_S(name, q4, n, 4)

// ..._1_w32: one column's groups, LS_MMV_W32_ROWS rows a block (see ls_mmvq_w32).
#define LS_MMVQ_EX_W32_ENTRY(name, q4)                                                                             \
  LS_KERNEL void ls_mmvq_ex_##name##_1_w32(const uint8_t* w, const uint16_t* wd, const int8_t* xq, const float* xd, \
                                           const int* xs, float* y, const int* groups, long long row_base, int rows, \
                                           int k, int ystride, int stride, const float* routing, int used,         \
                                           int x_first, int x_per_pair) {                                          \
    LS_MMV_GROUPS(1, (ls_mmvq_w32<q4>(w, wd, xq, xd, xs, y, rows, k, ystride, base, g + 2)))                      \
  }

#define LS_MMVQ_GGML_EX_ENTRY_S(name, fmt, n, s)                                                              \
  LS_KERNEL void ls_mmvq_ex_##name##_##n##_s##s(const uint8_t* w, const uint16_t* wd, const int8_t* xq,          \
                                                const float* xd, const int* xs, float* y, const int* groups,    \
                                                long long row_base, int rows, int k, int ystride, int stride, \
                                                const float* routing, int used, int x_first, int x_per_pair) { \
    (void)wd;                                                                                                   \
    LS_MMV_GROUPS(n, (ls_mmvq_ggml<n, fmt, s, LS_MMV_EX_ROWS>(w, xq, xd, xs, y, rows, k, ystride, 0, base, g + 2, g[1])))         \
  }

#define LS_MMVQ_GGML_EX_ENTRY(name, fmt, n)                                     \
  LS_MMVQ_GGML_EX_ENTRY_S(name, fmt, n, 1) LS_MMVQ_GGML_EX_ENTRY_S(name, fmt, n, 2) \
  LS_MMVQ_GGML_EX_ENTRY_S(name, fmt, n, 4)

#define LS_MMVF_EX_ENTRY(name, deq8, n)                                                                   \
  LS_KERNEL void ls_mmvf_ex_##name##_##n(const uint8_t* w, const uint16_t* wd, const float* x, float* y,    \
                                         const int* groups, long long row_base, int rows, int k, int ystride, \
                                         int stride, const float* routing, int used, int x_first,  \
                                         int x_per_pair) {                                                  \
    LS_MMV_GROUPS(n, (ls_mmvf<n, deq8, LS_MMV_EX_ROWS>(w, wd, x, y, rows, k, ystride, 0, base, g + 2, g[1])))              \
  }

// Experts' groups of one column and of up to LS_MMV_MAX_COLS.
#define LS_FOR_GROUPS(m, a, b) m(a, b, 1) m(a, b, 8)

LS_MMVQ_EX_W32_ENTRY(q4_0, true)
LS_MMVQ_EX_W32_ENTRY(q8_0, false)
LS_MMVQ_EX_ENTRY(q4_0, true, 8)
LS_MMVQ_EX_ENTRY(q8_0, false, 8)
LS_FOR_GROUPS(LS_MMVQ_GGML_EX_ENTRY, q4_1, LS_IQ_Q4_1)
LS_FOR_GROUPS(LS_MMVQ_GGML_EX_ENTRY, q5_0, LS_IQ_Q5_0)
LS_FOR_GROUPS(LS_MMVQ_GGML_EX_ENTRY, q5_1, LS_IQ_Q5_1)
LS_FOR_GROUPS(LS_MMVF_EX_ENTRY, q2_k, ls_deq8_q2_k)
LS_FOR_GROUPS(LS_MMVF_EX_ENTRY, q3_k, ls_deq8_q3_k)
LS_FOR_GROUPS(LS_MMVF_EX_ENTRY, q5_k, ls_deq8_q5_k)
LS_FOR_GROUPS(LS_MMVF_EX_ENTRY, bf16, ls_deq8_bf16)
LS_FOR_GROUPS(LS_MMVF_EX_ENTRY, q4_k, ls_deq8_q4_k)
LS_FOR_GROUPS(LS_MMVF_EX_ENTRY, q6_k, ls_deq8_q6_k)
LS_FOR_GROUPS(LS_MMVF_EX_ENTRY, f16, ls_deq8_f16)
LS_FOR_GROUPS(LS_MMVF_EX_ENTRY, f32, ls_deq8_f32)

#define LS_FOR_NCOLS(m, a, b) m(a, b, 1) m(a, b, 2) m(a, b, 3) m(a, b, 4) m(a, b, 5) m(a, b, 6) m(a, b, 7) m(a, b, 8)
static_assert(LS_MMV_MAX_COLS == 8, "LS_FOR_NCOLS instantiates every GEMV for 1 to LS_MMV_MAX_COLS tokens");

LS_FOR_NCOLS(LS_MMVQ_ENTRY, q4_0, true)
LS_FOR_NCOLS(LS_MMVQ_ENTRY, q8_0, false)
LS_FOR_NCOLS(LS_MMVQ_GGML_ENTRY, q4_1, LS_IQ_Q4_1)
LS_FOR_NCOLS(LS_MMVQ_GGML_ENTRY, q5_0, LS_IQ_Q5_0)
LS_FOR_NCOLS(LS_MMVQ_GGML_ENTRY, q5_1, LS_IQ_Q5_1)
LS_FOR_NCOLS(LS_MMVF_ENTRY, q2_k, ls_deq8_q2_k)
LS_FOR_NCOLS(LS_MMVK_ENTRY, q3_k, LS_Q3_K_BYTES)
LS_FOR_NCOLS(LS_MMVK_ENTRY, q4_k, LS_Q4_K_BYTES)
LS_FOR_NCOLS(LS_MMVK_ENTRY, q5_k, LS_Q5_K_BYTES)
LS_FOR_NCOLS(LS_MMVK_ENTRY, q6_k, LS_Q6_K_BYTES)
LS_FOR_NCOLS(LS_MMVF_ENTRY, bf16, ls_deq8_bf16)
LS_FOR_NCOLS(LS_MMVF_ENTRY, f16, ls_deq8_f16)
LS_FOR_NCOLS(LS_MMVF_ENTRY, f32, ls_deq8_f32)
