// Batched products of Q4_0 and Q8_0 weights with Q8_0 activations on int8 tensor cores:
// y[c][row] = W[row] . x[c] for ncols tokens, every weight block read once per LS_MMQ_COLS tokens
// (the GEMV kernels of gemv.hip read it once per LS_MMV_MAX_COLS). The arithmetic is the GEMV's:
// per 32-value block an exact integer dot product of the weight's quants (Q4_0's minus 8) with the
// activation's int8 values, scaled by both blocks' scales and added in float, block after block
// (the GEMV adds the same terms in another order, so results agree to float rounding, not bits).
//
// NVIDIA (sm_80 on): a block of LS_MMQ_THREADS threads computes LS_MMQ_ROWS (32) rows x
// LS_MMQ_COLS (64) tokens, each of its four waves 16 rows x 32 tokens as four 16x8 tiles, one
// mma.sync.m16n8k32 s8 per tile and weight block. The weights' and the activations' next
// LS_MMQ_KBLOCKS blocks are staged in shared memory (16-byte loads, issued before the current
// stage is multiplied), so each activation block is read from memory once per block, not once per
// wave and tile, and fragments come from shared memory. AMD: a plain dp4a loop with the same sums
// per block (no MFMA/WMMA path yet; the host launches these kernels on NVIDIA devices only).
//
// Grid: x = ceil(rows / LS_MMQ_ROWS), y = ceil(ncols / LS_MMQ_COLS). y has row stride `ystride`
// floats; with `accumulate` the result is added to y.
#include "ls_formats.h"

static_assert(LS_MMQ_THREADS == 128, "four waves of 32: two row tiles x two column halves");
static_assert(LS_MMQ_ROWS == 32 && LS_MMQ_COLS == 64, "a wave's share is 16 rows x 32 tokens");

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
  constexpr int KB = LS_MMQ_KBLOCKS;
  constexpr int WB = Q4 ? 16 : 32;           // quant bytes per weight block (repacked layout)
  constexpr int WSTRIDE = KB * WB + 16;      // a staged weight row, padded against bank conflicts
  constexpr int XSTRIDE = KB * LS_QK + 16;   // a staged activation row, likewise
  constexpr int WCHUNKS = LS_MMQ_ROWS * KB * WB / 16;   // 16-byte pieces of a weight stage
  constexpr int XCHUNKS = LS_MMQ_COLS * KB * LS_QK / 16;
  constexpr int WPER = (WCHUNKS + LS_MMQ_THREADS - 1) / LS_MMQ_THREADS;
  constexpr int XPER = XCHUNKS / LS_MMQ_THREADS;
  static_assert(XCHUNKS % LS_MMQ_THREADS == 0, "every thread stages as many activation pieces");
  static_assert(LS_MMQ_ROWS * KB <= LS_MMQ_THREADS && LS_MMQ_COLS * KB <= 2 * LS_MMQ_THREADS, "scales staged in one or two rounds");
  __shared__ __align__(16) uint8_t ws[LS_MMQ_ROWS * WSTRIDE];
  __shared__ __align__(16) int8_t xs[LS_MMQ_COLS * XSTRIDE];
  __shared__ float wds[LS_MMQ_ROWS][KB];
  __shared__ float xds[LS_MMQ_COLS][KB];
  const int lane = (int)(tid & 31);
  const int wave = (int)(tid >> 5);
  const int g = lane >> 2;  // the fragment's row (A, C) or column (B)
  const int t = lane & 3;   // the fragment's quad of k (A, B) or pair of columns (C)
  const int r0 = (wave & 1) * 16 + g;     // this lane's rows in the block: r0 and r0 + 8
  const int cbase = (wave >> 1) * 32;     // this wave's first column in the block
  // tiles past the last column are skipped: the count is the same for the whole wave
  const int left = ncols - col0 - cbase;
  const int tiles = left <= 0 ? 0 : (left + 7) / 8 < 4 ? (left + 7) / 8 : 4;

  // What this thread stages: weight pieces (row, 16-byte offset), activation pieces, one scale each.
  long wsrc[WPER];
  int wdst[WPER];
#pragma unroll
  for (int i = 0; i < WPER; ++i) {
    const int c = (int)tid + i * LS_MMQ_THREADS;
    const int row = c / (KB * WB / 16);
    const int off = (c % (KB * WB / 16)) * 16;
    const int rr = row_block + row < rows ? row_block + row : rows - 1;  // clamped rows are never stored
    wsrc[i] = c < WCHUNKS ? ((row_base + rr) * nb) * WB + off : -1;
    wdst[i] = row * WSTRIDE + off;
  }
  long xsrc[XPER];
  int xdst[XPER];
#pragma unroll
  for (int i = 0; i < XPER; ++i) {
    const int c = (int)tid + i * LS_MMQ_THREADS;
    const int col = c / (KB * LS_QK / 16);
    const int off = (c % (KB * LS_QK / 16)) * 16;
    const int n = col0 + col < ncols ? col0 + col : ncols - 1;  // clamped columns are never stored
    xsrc[i] = (long)ls_mmq_xrow(map, n) * k + off;
    xdst[i] = col * XSTRIDE + off;
  }
  // scales: thread tid < ROWS*KB takes weight scale (tid / KB, tid % KB); activation scales two per thread
  const int wd_row = (int)tid / KB, wd_kb = (int)tid % KB;
  const long wd_src = (row_base + (row_block + wd_row < rows ? row_block + wd_row : rows - 1)) * nb + wd_kb;
  long xd_src[2];
#pragma unroll
  for (int i = 0; i < 2; ++i) {
    const int c = (int)tid + i * LS_MMQ_THREADS;
    const int n = col0 + c / KB < ncols ? col0 + c / KB : ncols - 1;
    xd_src[i] = (long)ls_mmq_xrow(map, n) * nb + c % KB;
  }

  ls_u32x4 wreg[WPER], xreg[XPER];
  float wdreg = 0.0f, xdreg[2] = {0.0f, 0.0f};
  // Loads stage b0's pieces into registers; blocks past the row's end read as zeros.
  auto fetch = [&](int b0) {
    const bool whole = b0 + KB <= nb;
#pragma unroll
    for (int i = 0; i < WPER; ++i) {
      const int blk = (wdst[i] % WSTRIDE) / WB;
      wreg[i] = wsrc[i] >= 0 && (whole || b0 + blk < nb) ? ls_load16(w + wsrc[i] + (long)b0 * WB) : ls_u32x4{0, 0, 0, 0};
    }
#pragma unroll
    for (int i = 0; i < XPER; ++i) {
      const int blk = (xdst[i] % XSTRIDE) / LS_QK;
      xreg[i] = whole || b0 + blk < nb ? ls_load16(xq + xsrc[i] + (long)b0 * LS_QK) : ls_u32x4{0, 0, 0, 0};
    }
    if ((int)tid < LS_MMQ_ROWS * KB) wdreg = b0 + wd_kb < nb ? ls_half_to_float(wd[wd_src + b0]) : 0.0f;
#pragma unroll
    for (int i = 0; i < 2; ++i) {
      const int c = (int)tid + i * LS_MMQ_THREADS;
      xdreg[i] = c < LS_MMQ_COLS * KB && b0 + c % KB < nb ? xd[xd_src[i] + b0] : 0.0f;
    }
  };
  auto stage = [&]() {
#pragma unroll
    for (int i = 0; i < WPER; ++i)
      if (wsrc[i] >= 0) *(ls_u32x4*)(ws + wdst[i]) = wreg[i];
#pragma unroll
    for (int i = 0; i < XPER; ++i) *(ls_u32x4*)(xs + xdst[i]) = xreg[i];
    if ((int)tid < LS_MMQ_ROWS * KB) wds[wd_row][wd_kb] = wdreg;
#pragma unroll
    for (int i = 0; i < 2; ++i) {
      const int c = (int)tid + i * LS_MMQ_THREADS;
      if (c < LS_MMQ_COLS * KB) xds[c / KB][c % KB] = xdreg[i];
    }
  };

  float acc[4][4];
#pragma unroll
  for (int j = 0; j < 4; ++j)
#pragma unroll
    for (int i = 0; i < 4; ++i) acc[j][i] = 0.0f;

  fetch(0);
  stage();
  ls_sync_block();
  for (int b0 = 0; b0 < nb; b0 += KB) {
    if (b0 + KB < nb) fetch(b0 + KB);  // in flight while this stage is multiplied
#pragma unroll
    for (int kb = 0; kb < KB; ++kb) {
      int a[4];
      if (Q4) {
        // byte i of a repacked Q4_0 block holds value i (low nibble) and value i + 16 (high), offset by 8;
        // a nibble plus 0x78 stays below 0x100, and flipping bit 7 then leaves q - 8
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          const unsigned v = *(const unsigned*)(ws + (r0 + 8 * h) * WSTRIDE + kb * WB + 4 * t);
          a[h] = (int)(((v & 0x0F0F0F0Fu) + 0x78787878u) ^ 0x80808080u);
          a[2 + h] = (int)((((v >> 4) & 0x0F0F0F0Fu) + 0x78787878u) ^ 0x80808080u);
        }
      } else {
#pragma unroll
        for (int h = 0; h < 2; ++h) {
          a[h] = *(const int*)(ws + (r0 + 8 * h) * WSTRIDE + kb * WB + 4 * t);
          a[2 + h] = *(const int*)(ws + (r0 + 8 * h) * WSTRIDE + kb * WB + 16 + 4 * t);
        }
      }
      const float da = wds[r0][kb];
      const float db = wds[r0 + 8][kb];
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        if (j < tiles) {
          const int c = cbase + 8 * j;
          const int8_t* xp = xs + (c + g) * XSTRIDE + kb * LS_QK;
          const int bx[2] = {*(const int*)(xp + 4 * t), *(const int*)(xp + 16 + 4 * t)};
          int cc[4];
          ls_mma_s8_16x8x32(cc, a, bx);
          const float dx0 = xds[c + 2 * t][kb];
          const float dx1 = xds[c + 2 * t + 1][kb];
          acc[j][0] += da * dx0 * (float)cc[0];
          acc[j][1] += da * dx1 * (float)cc[1];
          acc[j][2] += db * dx0 * (float)cc[2];
          acc[j][3] += db * dx1 * (float)cc[3];
        }
      }
    }
    ls_sync_block();  // every wave is done with this stage
    if (b0 + KB < nb) {
      stage();
      ls_sync_block();
    }
  }
#pragma unroll
  for (int j = 0; j < 4; ++j) {
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const int row = row_block + r0 + (i < 2 ? 0 : 8);
      const int n = col0 + cbase + j * 8 + 2 * t + (i & 1);
      if (j < tiles && row < rows && n < ncols) {
        float* out = y + (long)ls_mmq_yrow(map, n) * ystride + row;
        *out = accumulate ? *out + acc[j][i] : acc[j][i];
      }
    }
  }
  ls_sync_block();  // the staged memory serves the next group (ls_mmq_ex_*)
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
