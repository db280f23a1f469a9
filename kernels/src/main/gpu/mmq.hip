// Batched products of Q4_0 and Q8_0 weights with Q8_0 activations on int8 tensor cores:
// y[c][row] = W[row] . x[c] for ncols tokens, every weight block read once per LS_MMQ_COLS tokens
// (the GEMV kernels of gemv.hip read it once per LS_MMV_MAX_COLS). The arithmetic is the GEMV's:
// per 32-value block an exact integer dot product of the weight's quants (Q4_0's minus 8) with the
// activation's int8 values, scaled by both blocks' scales and added in float, block after block
// (the GEMV adds the same terms in another order, so results agree to float rounding, not bits).
//
// NVIDIA (sm_80 on): a block of LS_MMQ_THREADS threads computes LS_MMQ_ROWS (16) rows x
// LS_MMQ_COLS (64) tokens as eight 16x8 tiles, one mma.sync.m16n8k32 s8 per tile and weight block;
// its LS_MMQ_SPLIT waves take every LS_MMQ_SPLIT-th weight block each (so a block's waves read
// neighbouring blocks) and their sums are added through shared memory in wave order (deterministic).
// Small tiles and the split keep every multiprocessor busy with few long loops even for 1024-row
// weights. AMD: a plain dp4a loop with the same sums per block (no MFMA/WMMA path yet; the host
// launches these kernels on NVIDIA devices only).
//
// Grid: x = ceil(rows / LS_MMQ_ROWS), y = ceil(ncols / LS_MMQ_COLS). y has row stride `ystride`
// floats; with `accumulate` the result is added to y.
#include "ls_formats.h"

#define LS_MMQ_TILES (LS_MMQ_COLS / 8)
static_assert(LS_MMQ_THREADS == 32 * LS_MMQ_SPLIT, "one wave of 32 per share of the weight blocks");
static_assert(LS_MMQ_ROWS == 16, "a block's rows are one 16-row tile");

#if LS_NVIDIA
// c (16x8, int32) = a (16x32, int8, row-major fragments) x b (32x8, int8, column-major fragments).
LS_DEVICE void ls_mma_s8_16x8x32(int (&c)[4], const int (&a)[4], const int (&b)[2]) {
  asm volatile(
      "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%10, %11, %12, %13};\n"
      : "=r"(c[0]), "=r"(c[1]), "=r"(c[2]), "=r"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(0), "r"(0), "r"(0), "r"(0));
}
#endif

// The weight quants of a block as signed int8, four per int: `lo` holds values 4i..4i+3 and `hi`
// values 16+4i..16+4i+3 of the block's 32, i = `quad`.
template <bool Q4>
LS_DEVICE void ls_mmq_weight_quads(const uint8_t* w, long blk, int quad, int* lo, int* hi) {
  if (Q4) {
    // repacked Q4_0: byte i holds value i (low nibble) and value i + 16 (high nibble), offset by 8
    const int v = ((const int*)(w + blk * 16))[quad];
    // a nibble q plus 0x78 stays below 0x100, so no byte carries into the next; flipping bit 7
    // then leaves q - 8 in two's complement
    *lo = (int)((((unsigned)v & 0x0F0F0F0Fu) + 0x78787878u) ^ 0x80808080u);
    *hi = (int)(((((unsigned)v >> 4) & 0x0F0F0F0Fu) + 0x78787878u) ^ 0x80808080u);
  } else {
    const int* q = (const int*)(w + blk * 32);
    *lo = q[quad];
    *hi = q[4 + quad];
  }
}

// Column c's activation row and output row: c itself, or a group's map (as in gemv.hip).
LS_DEVICE int ls_mmq_xrow(const int* map, int c) {
  return map ? map[2 * c] : c;
}

LS_DEVICE int ls_mmq_yrow(const int* map, int c) {
  return map ? map[2 * c + 1] : c;
}

// Rows [row_block, row_block + LS_MMQ_ROWS) of the weight starting at row `row_base`, times columns
// [col0, col0 + LS_MMQ_COLS) of the ncols (columns through `map` when given).
template <bool Q4>
LS_DEVICE void ls_mmq_tile(const uint8_t* w, const uint16_t* wd, const int8_t* xq, const float* xd, float* y,
                           int rows, int k, int ystride, int accumulate, long row_base, const int* map, int ncols,
                           int row_block, int col0) {
  const int nb = k / LS_QK;
  const unsigned tid = ls_thread_x();
#if LS_NVIDIA
  const int lane = (int)(tid & 31);
  const int wave = (int)(tid >> 5);
  const int g = lane >> 2;  // the fragment's row (A, C) or column (B)
  const int t = lane & 3;   // the fragment's quad of k (A, B) or pair of columns (C)
  const int row_a = row_block + g;
  const int row_b = row_a + 8;
  // clamped duplicate rows and columns are computed, never stored
  const long wa = (row_base + (row_a < rows ? row_a : rows - 1)) * nb;
  const long wb = (row_base + (row_b < rows ? row_b : rows - 1)) * nb;
  // tiles past the last column are skipped: the count is the same for the whole block
  const int tiles = (ncols - col0 + 7) / 8 < LS_MMQ_TILES ? (ncols - col0 + 7) / 8 : LS_MMQ_TILES;
  long xrow[LS_MMQ_TILES];     // the activation row this lane loads for each tile (B's column g)
  long crow[LS_MMQ_TILES][2];  // the activation rows of this lane's results (C's columns 2t, 2t+1)
#pragma unroll
  for (int j = 0; j < LS_MMQ_TILES; ++j) {
    const int n = col0 + j * 8;
    xrow[j] = ls_mmq_xrow(map, n + g < ncols ? n + g : ncols - 1);
    crow[j][0] = ls_mmq_xrow(map, n + 2 * t < ncols ? n + 2 * t : ncols - 1);
    crow[j][1] = ls_mmq_xrow(map, n + 2 * t + 1 < ncols ? n + 2 * t + 1 : ncols - 1);
  }
  float acc[LS_MMQ_TILES][4];
#pragma unroll
  for (int j = 0; j < LS_MMQ_TILES; ++j)
#pragma unroll
    for (int i = 0; i < 4; ++i) acc[j][i] = 0.0f;

#pragma unroll 2
  for (int b = wave; b < nb; b += LS_MMQ_SPLIT) {
    int a[4];
    ls_mmq_weight_quads<Q4>(w, wa + b, t, &a[0], &a[2]);
    ls_mmq_weight_quads<Q4>(w, wb + b, t, &a[1], &a[3]);
    const float da = ls_half_to_float(wd[wa + b]);
    const float db = ls_half_to_float(wd[wb + b]);
#pragma unroll
    for (int j = 0; j < LS_MMQ_TILES; ++j) {
      if (j < tiles) {
        const int* xp = (const int*)(xq + xrow[j] * k + (long)b * LS_QK);
        const int bx[2] = {xp[t], xp[4 + t]};
        int c[4];
        ls_mma_s8_16x8x32(c, a, bx);
        const float dx0 = xd[crow[j][0] * nb + b];
        const float dx1 = xd[crow[j][1] * nb + b];
        acc[j][0] += da * dx0 * (float)c[0];
        acc[j][1] += da * dx1 * (float)c[1];
        acc[j][2] += db * dx0 * (float)c[2];
        acc[j][3] += db * dx1 * (float)c[3];
      }
    }
  }
  // the other waves' sums to wave 0, added in wave order
  LS_SHARED float partial[LS_MMQ_SPLIT - 1][LS_MMQ_TILES * 4][32];
  if (wave > 0) {
#pragma unroll
    for (int j = 0; j < LS_MMQ_TILES; ++j)
#pragma unroll
      for (int i = 0; i < 4; ++i) partial[wave - 1][j * 4 + i][lane] = acc[j][i];
  }
  ls_sync_block();
  if (wave == 0) {
    for (int v = 0; v < LS_MMQ_SPLIT - 1; ++v) {
#pragma unroll
      for (int j = 0; j < LS_MMQ_TILES; ++j)
#pragma unroll
        for (int i = 0; i < 4; ++i) acc[j][i] += partial[v][j * 4 + i][lane];
    }
#pragma unroll
    for (int j = 0; j < LS_MMQ_TILES; ++j) {
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        const int row = i < 2 ? row_a : row_b;
        const int n = col0 + j * 8 + 2 * t + (i & 1);
        if (row < rows && n < ncols) {
          float* out = y + (long)ls_mmq_yrow(map, n) * ystride + row;
          *out = accumulate ? *out + acc[j][i] : acc[j][i];
        }
      }
    }
  }
  ls_sync_block();  // the partial sums' memory serves the next group (ls_mmq_ex_*)
#else
  // thread: one row of the block's, half of its columns
  constexpr int PER_THREAD = LS_MMQ_COLS * LS_MMQ_ROWS / LS_MMQ_THREADS;
  const int row = row_block + (int)(tid % LS_MMQ_ROWS);
  const int n0 = col0 + (int)(tid / LS_MMQ_ROWS) * PER_THREAD;
  const long wr = (row_base + (row < rows ? row : rows - 1)) * nb;
  float acc[PER_THREAD];
#pragma unroll
  for (int i = 0; i < PER_THREAD; ++i) acc[i] = 0.0f;
  for (int b = 0; b < nb; ++b) {
    int wl[4], wh[4];
#pragma unroll
    for (int q = 0; q < 4; ++q) ls_mmq_weight_quads<Q4>(w, wr + b, q, &wl[q], &wh[q]);
    const float dw = ls_half_to_float(wd[wr + b]);
    for (int i = 0; i < PER_THREAD && n0 + i < ncols; ++i) {
      const long xr = ls_mmq_xrow(map, n0 + i);
      const int* xp = (const int*)(xq + xr * k + (long)b * LS_QK);
      int sumi = 0;
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        sumi = ls_dp4a(wl[q], xp[q], sumi);
        sumi = ls_dp4a(wh[q], xp[4 + q], sumi);
      }
      acc[i] += dw * xd[xr * nb + b] * (float)sumi;
    }
  }
  for (int i = 0; i < PER_THREAD && n0 + i < ncols; ++i) {
    if (row < rows) {
      float* out = y + (long)ls_mmq_yrow(map, n0 + i) * ystride + row;
      *out = accumulate ? *out + acc[i] : acc[i];
    }
  }
#endif
}

LS_KERNEL void ls_mmq_q4_0(const uint8_t* w, const uint16_t* wd, const int8_t* xq, const float* xd, float* y, int rows,
                           int k, int ncols, int ystride, int accumulate) {
  ls_mmq_tile<true>(w, wd, xq, xd, y, rows, k, ystride, accumulate, 0, nullptr, ncols,
                    (int)ls_block_x() * LS_MMQ_ROWS, (int)ls_block_y() * LS_MMQ_COLS);
}

LS_KERNEL void ls_mmq_q8_0(const uint8_t* w, const uint16_t* wd, const int8_t* xq, const float* xd, float* y, int rows,
                           int k, int ncols, int ystride, int accumulate) {
  ls_mmq_tile<false>(w, wd, xq, xd, y, rows, k, ystride, accumulate, 0, nullptr, ncols,
                     (int)ls_block_x() * LS_MMQ_ROWS, (int)ls_block_y() * LS_MMQ_COLS);
}

// A mixture's experts (the weight stacks every expert's `rows` rows from row_base on): `groups`
// holds a group count, then groups of 2 + 2 * LS_MMQ_COLS ints (expert id, column count, then the
// activation row and output row of each column), as ls_group_experts writes them with max_cols
// LS_MMQ_COLS. Grid: x over the rows' tiles, y strides over the groups (`stride`: the grid's height).
#define LS_MMQ_EX_ENTRY(name, q4)                                                                                    \
  LS_KERNEL void ls_mmq_ex_##name(const uint8_t* w, const uint16_t* wd, const int8_t* xq, const float* xd, float* y, \
                                  const int* groups, long long row_base, int rows, int k, int ystride, int stride) { \
    for (int gi = (int)ls_block_y(); gi < groups[0]; gi += stride) {                                                 \
      const int* g = groups + 1 + (long)gi * (2 + 2 * LS_MMQ_COLS);                                                  \
      ls_mmq_tile<q4>(w, wd, xq, xd, y, rows, k, ystride, 0, row_base + (long)g[0] * rows, g + 2, g[1],            \
                      (int)ls_block_x() * LS_MMQ_ROWS, 0);                                                           \
    }                                                                                                                \
  }

LS_MMQ_EX_ENTRY(q4_0, true)
LS_MMQ_EX_ENTRY(q8_0, false)
