// Batched products of Q4_0 and Q8_0 weights with Q8_0 activations on int8 tensor cores:
// y[c][row] = W[row] . x[c] for ncols tokens, every weight block read once per LS_MMQ_COLS tokens
// (the GEMV kernels of gemv.hip read it once per LS_MMV_MAX_COLS). The arithmetic is the GEMV's:
// per 32-value block an exact integer dot product of the weight's quants (Q4_0's minus 8) with the
// activation's int8 values, scaled by both blocks' scales and added in float, block after block
// (the GEMV adds the same terms in another order, so results agree to float rounding, not bits).
//
// NVIDIA (sm_80 on): a block of LS_MMQ_THREADS threads computes LS_MMQ_ROWS (64) rows x
// LS_MMQ_COLS (64) tokens, each of its four waves 32 rows x 32 tokens as 2 x 4 tiles of 16 x 8, one
// mma.sync.m16n8k32 s8 per tile and weight block. Weights, activations and their scales come
// through a ring of shared-memory stages of LS_MMQ_KBLOCKS blocks filled by cp.async (three stages
// for Q4_0, two for Q8_0's larger blocks), so memory runs ahead of the products; fragments are read
// with ldmatrix.
//
// AMD: the integer matrix instructions (ls_mmq_amd.h says which and how their operands lie): gfx90a
// and gfx942 (MFMA, wave64) take a block as two waves of 32 rows x 64 tokens, gfx11 (WMMA, wave32)
// as four waves of 32 rows x 32 tokens, 2 x 4 or 2 x 2 tiles of 16 x 16, one or two instructions per
// tile and weight block. Each lane reads its operands' registers from global memory (no staging in
// local memory yet: these paths compile for every AMD target but no AMD GPU has run them). Other AMD
// targets: a plain dp4a loop with the same sums per block.
//
// Split K: with `splits` > 1 (grid z), block z takes a contiguous share of the weight blocks and
// writes its sums to `partials`; the last of a tile's splits to finish (a counter per tile in
// `arrivals`, zero between launches: that block resets it) adds the splits in order and stores.
// So short, wide products (4096 rows of 14336 values) fill the GPU, and results do not depend on
// which split finished first.
//
// Grid: x = ceil(rows / LS_MMQ_ROWS), y = ceil(ncols / LS_MMQ_COLS), z = splits. y has row stride
// `ystride` floats; with `accumulate` the result is added to y.
#include "ls_formats.h"
#include "ls_mmq_amd.h"

static_assert(LS_MMQ_THREADS == 128, "four waves of 32: two row halves x two column halves");
static_assert(LS_MMQ_ROWS == 64 && LS_MMQ_COLS == 64, "a wave's share is 32 rows x 32 tokens");

// Sums per thread: a block's LS_MMQ_ROWS x LS_MMQ_COLS over its threads.
#define LS_MMQ_ACC (LS_MMQ_ROWS * LS_MMQ_COLS / LS_MMQ_THREADS)

#if LS_AMD && defined(__gfx90a__)
#define LS_MMQ_AMD LS_MMQ_AMD_MFMA16
#elif LS_AMD && defined(__gfx942__)
#define LS_MMQ_AMD LS_MMQ_AMD_MFMA32
#elif LS_AMD && defined(__GFX11__)
#define LS_MMQ_AMD LS_MMQ_AMD_WMMA
#endif

#if LS_MMQ_AMD
#define LS_MMQ_AMD_WAVE (LS_MMQ_AMD == LS_MMQ_AMD_WMMA ? 32 : 64)
// 16 x 16 tiles per wave across its tokens (two down its 32 rows)
#define LS_MMQ_AMD_COL_TILES (LS_MMQ_AMD == LS_MMQ_AMD_WMMA ? 2 : 4)
#define LS_MMQ_AMD_TILE_ITEMS LS_MMQ_AMD_ITEMS(LS_MMQ_AMD)
// one operand's registers of a 32-value block
#define LS_MMQ_AMD_WORDS (LS_MMQ_AMD_STEPS(LS_MMQ_AMD) * LS_MMQ_AMD_LANE_K(LS_MMQ_AMD) / 4)
static_assert(2 * LS_MMQ_AMD_COL_TILES * LS_MMQ_AMD_TILE_ITEMS == LS_MMQ_ACC, "a lane's sums are its tiles' items");
static_assert(LS_MMQ_THREADS / LS_MMQ_AMD_WAVE * 32 * LS_MMQ_AMD_COL_TILES * 16 == LS_MMQ_ROWS * LS_MMQ_COLS,
              "the waves cover the block's rows and tokens once");

typedef int ls_mmq_v4i __attribute__((ext_vector_type(4)));
typedef int ls_mmq_v8i __attribute__((ext_vector_type(8)));

// The exact integer sums of one 16 x 16 tile over one 32-value block: a (weight rows) x b (tokens).
LS_DEVICE void ls_mmq_amd_tile(int (&sums)[LS_MMQ_AMD_TILE_ITEMS], const int (&a)[LS_MMQ_AMD_WORDS],
                               const int (&b)[LS_MMQ_AMD_WORDS]) {
#if LS_MMQ_AMD == LS_MMQ_AMD_MFMA16
  ls_mmq_v4i c = {0, 0, 0, 0};
  c = __builtin_amdgcn_mfma_i32_16x16x16i8(a[0], b[0], c, 0, 0, 0);
  c = __builtin_amdgcn_mfma_i32_16x16x16i8(a[1], b[1], c, 0, 0, 0);
#elif LS_MMQ_AMD == LS_MMQ_AMD_MFMA32
  ls_mmq_v4i c = {0, 0, 0, 0};
  const long a64 = (long)(((unsigned long)(unsigned)a[1] << 32) | (unsigned)a[0]);
  const long b64 = (long)(((unsigned long)(unsigned)b[1] << 32) | (unsigned)b[0]);
  c = __builtin_amdgcn_mfma_i32_16x16x32_i8(a64, b64, c, 0, 0, 0);
#else
  ls_mmq_v8i c = {0, 0, 0, 0, 0, 0, 0, 0};
  const ls_mmq_v4i a0 = {a[0], a[1], a[2], a[3]}, a1 = {a[4], a[5], a[6], a[7]};
  const ls_mmq_v4i b0 = {b[0], b[1], b[2], b[3]}, b1 = {b[4], b[5], b[6], b[7]};
  c = __builtin_amdgcn_wmma_i32_16x16x16_iu8_w32(true, a0, true, b0, c, false);
  c = __builtin_amdgcn_wmma_i32_16x16x16_iu8_w32(true, a1, true, b1, c, false);
#endif
#pragma unroll
  for (int e = 0; e < LS_MMQ_AMD_TILE_ITEMS; ++e) sums[e] = c[e];
}

// This lane's registers of one operand: weight row `block` (Q4) or a token's activation block.
template <bool Q4>
LS_DEVICE void ls_mmq_amd_operand(int (&r)[LS_MMQ_AMD_WORDS], const uint8_t* block, int lane) {
#pragma unroll
  for (int s = 0; s < LS_MMQ_AMD_STEPS(LS_MMQ_AMD); ++s) {
#pragma unroll
    for (int q = 0; q < LS_MMQ_AMD_LANE_K(LS_MMQ_AMD) / 4; ++q) {
      r[s * (LS_MMQ_AMD_LANE_K(LS_MMQ_AMD) / 4) + q] =
          ls_mmq_amd_word<Q4>(block, ls_mmq_amd_first_value(LS_MMQ_AMD, lane, s) + 4 * q);
    }
  }
}
#endif

#if LS_NVIDIA
// The float 1.5 * 2^23 (LS_MMQ_MAGIC_F): adding an integer i with |i| < 2^22 to its bits gives the
// float 1.5 * 2^23 + i exactly, so subtracting it leaves (float)i without a conversion instruction
// (int-to-float conversions issue at a quarter of the float rate: they bounded the products).
#define LS_MMQ_MAGIC 0x4B400000
#define LS_MMQ_MAGIC_F 12582912.0f

// c (16x8, the int32 sums plus LS_MMQ_MAGIC) = a (16x32, int8, row-major fragments) x b (32x8,
// int8, column-major fragments) + LS_MMQ_MAGIC. A block's sum is at most 32 x 127 x 127 < 2^22.
LS_DEVICE void ls_mma_s8_16x8x32_biased(int (&c)[4], const int (&a)[4], const int (&b)[2]) {
  asm volatile(
      "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%10, %11, %12, %13};\n"
      : "=r"(c[0]), "=r"(c[1]), "=r"(c[2]), "=r"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(LS_MMQ_MAGIC), "r"(LS_MMQ_MAGIC),
        "r"(LS_MMQ_MAGIC), "r"(LS_MMQ_MAGIC));
}

// The exact float of a biased sum.
LS_DEVICE float ls_mmq_unbias(int c) {
  return __int_as_float(c) - LS_MMQ_MAGIC_F;
}

LS_DEVICE unsigned ls_smem_addr(const void* p) {
  return (unsigned)__cvta_generic_to_shared(p);
}

// Copies `bytes` (4 or 16) from global to shared memory without holding a register; zeros when
// !valid (src must still be a readable address).
template <int BYTES>
LS_DEVICE void ls_cp_async(void* dst, const void* src, bool valid) {
  if (BYTES == 16) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(ls_smem_addr(dst)), "l"(src),
                 "r"(valid ? 16 : 0));
  } else {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(ls_smem_addr(dst)), "l"(src),
                 "r"(valid ? 4 : 0));
  }
}

LS_DEVICE void ls_cp_async_commit() {
  asm volatile("cp.async.commit_group;\n" ::);
}

// Waits until at most N of this thread's committed groups are still in flight.
template <int N>
LS_DEVICE void ls_cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

// Four 8x8 matrices of 16-bit elements (here pairs of int8): lane l names row l % 8 of matrix l / 8.
LS_DEVICE void ls_ldmatrix_x4(int (&r)[4], const void* row) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(ls_smem_addr(row)));
}

// Four nibble pairs of a repacked Q4_0 block (byte i: value i low, value i + 16 high, offset by 8)
// as signed int8: values 4i..4i+3 (lo) and 16+4i..16+4i+3 (hi). A nibble plus 0x78 stays below
// 0x100, so no byte carries into the next; flipping bit 7 then leaves q - 8 in two's complement.
LS_DEVICE int ls_q4_lo(unsigned v) {
  return (int)(((v & 0x0F0F0F0Fu) + 0x78787878u) ^ 0x80808080u);
}

LS_DEVICE int ls_q4_hi(unsigned v) {
  return (int)((((v >> 4) & 0x0F0F0F0Fu) + 0x78787878u) ^ 0x80808080u);
}
#endif

#if LS_AMD
// blocks are always LS_MMQ_THREADS: a lane may have the registers a larger block could not give it
#define LS_MMQ_BOUNDS __attribute__((amdgpu_flat_work_group_size(LS_MMQ_THREADS, LS_MMQ_THREADS)))
#else
#define LS_MMQ_BOUNDS
#endif

// Column c's activation row and output row: c itself, or a group's map (as in gemv.hip).
LS_DEVICE int ls_mmq_xrow(const int* map, int c) {
  return map ? map[2 * c] : c;
}

LS_DEVICE int ls_mmq_yrow(const int* map, int c) {
  return map ? map[2 * c + 1] : c;
}

// Which row and column of the block this thread's sum i belongs to.
LS_DEVICE void ls_mmq_element(int i, int* row, int* col) {
  const int tid = (int)ls_thread_x();
#if LS_NVIDIA
  const int lane = tid & 31, wave = tid >> 5;
  const int rt = i >> 4, j = (i >> 2) & 3, e = i & 3;
  *row = (wave & 1) * 32 + rt * 16 + (lane >> 2) + (e >> 1) * 8;
  *col = (wave >> 1) * 32 + j * 8 + 2 * (lane & 3) + (e & 1);
#elif LS_MMQ_AMD
  const int lane = tid & (LS_MMQ_AMD_WAVE - 1), wave = tid / LS_MMQ_AMD_WAVE;
  const int t = i / LS_MMQ_AMD_TILE_ITEMS, e = i % LS_MMQ_AMD_TILE_ITEMS;
  const int rt = t / LS_MMQ_AMD_COL_TILES, j = t % LS_MMQ_AMD_COL_TILES;
  *row = (wave & 1) * 32 + rt * 16 + ls_mmq_amd_sum_row(LS_MMQ_AMD, lane, e);
  *col = (wave >> 1) * 32 + j * 16 + (lane & 15);
#else
  *row = tid % LS_MMQ_ROWS;
  *col = (tid / LS_MMQ_ROWS) * LS_MMQ_ACC + i;
#endif
}

// acc = rows [row_block, row_block + LS_MMQ_ROWS) of the weight starting at row `row_base`, times
// columns [col0, col0 + LS_MMQ_COLS) of the ncols (through `map` when given), over weight blocks
// [blk_begin, blk_end), this thread's share as ls_mmq_element lays it out.
template <bool Q4>
LS_DEVICE void ls_mmq_products(const uint8_t* w, const uint16_t* wd, const int8_t* xq, const float* xd, int rows, int k,
                               long row_base, const int* map, int ncols, int row_block, int col0, int blk_begin,
                               int blk_end, float (&acc)[LS_MMQ_ACC]) {
  const int nb = k / LS_QK;
  const int tid = (int)ls_thread_x();
#pragma unroll
  for (int i = 0; i < LS_MMQ_ACC; ++i) acc[i] = 0.0f;
#if LS_NVIDIA
  constexpr int KB = LS_MMQ_KBLOCKS;
  constexpr int STAGES = Q4 ? 3 : 2;
  constexpr int WB = Q4 ? 16 : 32;          // quant bytes per weight block (repacked layout)
  constexpr int WROW = KB * WB + 16;        // a staged weight row, padded so ldmatrix's rows miss each other's banks
  constexpr int XROW = KB * LS_QK + 16;     // a staged activation row, likewise
  constexpr int W_BYTES = LS_MMQ_ROWS * WROW;
  constexpr int X_BYTES = LS_MMQ_COLS * XROW;
  constexpr int WD_BYTES = LS_MMQ_ROWS * KB * 2;   // half scales, [row][kb]
  constexpr int XD_BYTES = KB * LS_MMQ_COLS * 4;   // float scales, [kb][col]
  constexpr int STAGE = W_BYTES + X_BYTES + WD_BYTES + XD_BYTES;
  static_assert(STAGES * STAGE <= 48 * 1024, "static shared memory");
  constexpr int W_PIECES = LS_MMQ_ROWS * KB * WB / 16;
  constexpr int X_PIECES = LS_MMQ_COLS * KB * LS_QK / 16;
  static_assert(W_PIECES % LS_MMQ_THREADS == 0 && X_PIECES % LS_MMQ_THREADS == 0, "pieces per thread");
  static_assert(LS_MMQ_ROWS * KB / 2 == LS_MMQ_THREADS && KB * LS_MMQ_COLS == 2 * LS_MMQ_THREADS, "scales per thread");
  __shared__ __align__(16) uint8_t smem[STAGES * STAGE];

  const int lane = tid & 31, wave = tid >> 5;
  const int g = lane >> 2, t = lane & 3;
  const int wr = (wave & 1) * 32;   // this wave's rows in the block
  const int wc = (wave >> 1) * 32;  // this wave's columns
  const int left = ncols - col0 - wc;
  const int tiles = left <= 0 ? 0 : (left + 7) / 8 < 4 ? (left + 7) / 8 : 4;
  const bool wd_pairs = (nb & 1) == 0;  // a pair of half scales is one aligned 4-byte copy

  // Fills stage buffer `s` with blocks [b0, b0 + KB); blocks past the row's end read as zeros.
  auto load = [&](int s, int b0) {
    uint8_t* base = smem + s * STAGE;
#pragma unroll
    for (int p = 0; p < W_PIECES / LS_MMQ_THREADS; ++p) {
      const int c = tid + p * LS_MMQ_THREADS;
      const int row = c / (KB * WB / 16), off = (c % (KB * WB / 16)) * 16;
      // rows past the end are zeros (never stored): reading the last row for each of them would
      // send every block's copies of it to one cache line
      const bool live = row_block + row < rows;
      const int rr = live ? row_block + row : rows - 1;
      const int blk = b0 + off / WB;
      const bool ok = live && blk < nb;
      ls_cp_async<16>(base + row * WROW + off, w + ((row_base + rr) * nb + (ok ? blk : 0)) * WB + off % WB, ok);
    }
    uint8_t* xs = base + W_BYTES;
#pragma unroll
    for (int p = 0; p < X_PIECES / LS_MMQ_THREADS; ++p) {
      const int c = tid + p * LS_MMQ_THREADS;
      const int col = c / (KB * LS_QK / 16), off = (c % (KB * LS_QK / 16)) * 16;
      const bool live = col0 + col < ncols;  // columns past the end are zeros, as rows are
      const int n = live ? col0 + col : ncols - 1;
      const int blk = b0 + off / LS_QK;
      const bool ok = live && blk < nb;
      ls_cp_async<16>(xs + col * XROW + off,
                      xq + (long)ls_mmq_xrow(map, n) * k + (long)(ok ? blk : 0) * LS_QK + off % LS_QK, ok);
    }
    uint16_t* wds = (uint16_t*)(base + W_BYTES + X_BYTES);
    {
      const int row = tid / (KB / 2), kb = (tid % (KB / 2)) * 2;
      const int rr = row_block + row < rows ? row_block + row : rows - 1;
      const long src = (row_base + rr) * nb + b0 + kb;
      if (wd_pairs) {
        ls_cp_async<4>(wds + row * KB + kb, wd + (b0 + kb < nb ? src : 0), b0 + kb < nb);
      } else {  // odd block counts: plain loads (no product this engine runs has them)
        wds[row * KB + kb] = b0 + kb < nb ? wd[src] : 0;
        wds[row * KB + kb + 1] = b0 + kb + 1 < nb ? wd[src + 1] : 0;
      }
    }
    float* xds = (float*)(base + W_BYTES + X_BYTES + WD_BYTES);
#pragma unroll
    for (int p = 0; p < 2; ++p) {
      const int c = tid + p * LS_MMQ_THREADS;
      const int kb = c / LS_MMQ_COLS, col = c % LS_MMQ_COLS;
      const bool live = col0 + col < ncols;
      const int n = live ? col0 + col : ncols - 1;
      const bool ok = live && b0 + kb < nb;
      ls_cp_async<4>(xds + kb * LS_MMQ_COLS + col, xd + (long)ls_mmq_xrow(map, n) * nb + (ok ? b0 + kb : 0), ok);
    }
  };

  auto compute = [&](int s) {
    const uint8_t* base = smem + s * STAGE;
    const uint8_t* xs = base + W_BYTES;
    const uint16_t* wds = (const uint16_t*)(base + W_BYTES + X_BYTES);
    const float* xds = (const float*)(base + W_BYTES + X_BYTES + WD_BYTES);
    const int m = lane >> 3, mr = lane & 7;  // the ldmatrix matrix and row this lane names
#pragma unroll
    for (int kb = 0; kb < KB; ++kb) {
      int a[2][4];
      if (Q4) {
        // matrices: rows wr + 0..7, 8..15, 16..23, 24..31, the block's 16 bytes each
        int r[4];
        ls_ldmatrix_x4(r, base + (wr + m * 8 + mr) * WROW + kb * WB);
#pragma unroll
        for (int rt = 0; rt < 2; ++rt) {
          a[rt][0] = ls_q4_lo((unsigned)r[2 * rt]);
          a[rt][1] = ls_q4_lo((unsigned)r[2 * rt + 1]);
          a[rt][2] = ls_q4_hi((unsigned)r[2 * rt]);
          a[rt][3] = ls_q4_hi((unsigned)r[2 * rt + 1]);
        }
      } else {
        // matrices: rows +0..7 and +8..15, bytes 0..15 and 16..31 (a0..a3 of the fragment)
#pragma unroll
        for (int rt = 0; rt < 2; ++rt) {
          ls_ldmatrix_x4(a[rt], base + (wr + rt * 16 + (m & 1) * 8 + mr) * WROW + kb * WB + (m >> 1) * 16);
        }
      }
      // B: per ldmatrix two tiles of 8 tokens, bytes 0..15 and 16..31 of each
      int b[4][2];
#pragma unroll
      for (int jp = 0; jp < 2; ++jp) {
        int r[4];
        ls_ldmatrix_x4(r, xs + (wc + jp * 16 + (m >> 1) * 8 + mr) * XROW + kb * LS_QK + (m & 1) * 16);
        b[2 * jp][0] = r[0];
        b[2 * jp][1] = r[1];
        b[2 * jp + 1][0] = r[2];
        b[2 * jp + 1][1] = r[3];
      }
      float da[2][2];
#pragma unroll
      for (int rt = 0; rt < 2; ++rt) {
        da[rt][0] = ls_half_to_float(wds[(wr + rt * 16 + g) * KB + kb]);
        da[rt][1] = ls_half_to_float(wds[(wr + rt * 16 + g + 8) * KB + kb]);
      }
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        if (j < tiles) {
          const float2 dx = *(const float2*)(xds + kb * LS_MMQ_COLS + wc + j * 8 + 2 * t);
#pragma unroll
          for (int rt = 0; rt < 2; ++rt) {
            int c[4];
            ls_mma_s8_16x8x32_biased(c, a[rt], b[j]);
            float* o = acc + (rt * 4 + j) * 4;
            o[0] += da[rt][0] * dx.x * ls_mmq_unbias(c[0]);
            o[1] += da[rt][0] * dx.y * ls_mmq_unbias(c[1]);
            o[2] += da[rt][1] * dx.x * ls_mmq_unbias(c[2]);
            o[3] += da[rt][1] * dx.y * ls_mmq_unbias(c[3]);
          }
        }
      }
    }
  };

  const int stages = (blk_end - blk_begin + KB - 1) / KB;
#pragma unroll
  for (int s = 0; s < STAGES - 1; ++s) {
    if (s < stages) load(s, blk_begin + s * KB);
    ls_cp_async_commit();
  }
  for (int s = 0; s < stages; ++s) {
    ls_cp_async_wait<STAGES - 2>();  // this thread's copies of stage s have landed
    ls_sync_block();                 // everyone's have; and everyone is done with stage s - 1's buffer
    const int next = s + STAGES - 1;
    if (next < stages) load(next % STAGES, blk_begin + next * KB);
    ls_cp_async_commit();
    compute(s % STAGES);
  }
  ls_cp_async_wait<0>();
  ls_sync_block();  // the staged memory serves the next group (ls_mmq_ex_*)
#elif LS_MMQ_AMD
  constexpr int WB = Q4 ? 16 : 32;  // quant bytes per weight block (repacked layout)
  constexpr int CT = LS_MMQ_AMD_COL_TILES, ITEMS = LS_MMQ_AMD_TILE_ITEMS;
  const int lane = tid & (LS_MMQ_AMD_WAVE - 1), wave = tid / LS_MMQ_AMD_WAVE;
  const int wr = row_block + (wave & 1) * 32;  // this wave's first row
  const int wc = col0 + (wave >> 1) * 32;      // and token
  // rows and tokens past the end read the last ones: their sums are never stored
  long wrow[2];
#pragma unroll
  for (int rt = 0; rt < 2; ++rt) {
    const int r = wr + rt * 16 + (lane & 15);
    wrow[rt] = (row_base + (r < rows ? r : rows - 1)) * nb;
  }
  long xrow[CT];
#pragma unroll
  for (int j = 0; j < CT; ++j) {
    const int n = wc + j * 16 + (lane & 15);
    xrow[j] = ls_mmq_xrow(map, n < ncols ? n : ncols - 1);
  }
  const int end = blk_end < nb ? blk_end : nb;
  for (int b = blk_begin; b < end; ++b) {
    int a[2][LS_MMQ_AMD_WORDS];
    float da[2][ITEMS];
#pragma unroll
    for (int rt = 0; rt < 2; ++rt) {
      ls_mmq_amd_operand<Q4>(a[rt], w + (wrow[rt] + b) * WB, lane);
#pragma unroll
      for (int e = 0; e < ITEMS; ++e) {
        const int r = wr + rt * 16 + ls_mmq_amd_sum_row(LS_MMQ_AMD, lane, e);
        da[rt][e] = ls_half_to_float(wd[(row_base + (r < rows ? r : rows - 1)) * nb + b]);
      }
    }
#pragma unroll
    for (int j = 0; j < CT; ++j) {
      if (wc + j * 16 < ncols) {  // the same for the whole wave: the instructions need every lane
        int x[LS_MMQ_AMD_WORDS];
        ls_mmq_amd_operand<false>(x, (const uint8_t*)(xq + xrow[j] * k + (long)b * LS_QK), lane);
        const float dx = xd[xrow[j] * nb + b];
#pragma unroll
        for (int rt = 0; rt < 2; ++rt) {
          int c[ITEMS];
          ls_mmq_amd_tile(c, a[rt], x);
          float* o = acc + (rt * CT + j) * ITEMS;
#pragma unroll
          for (int e = 0; e < ITEMS; ++e) o[e] += da[rt][e] * dx * (float)c[e];
        }
      }
    }
  }
#else
  // thread: one row of the block's, half of its columns
  const int row = row_block + tid % LS_MMQ_ROWS;
  const int n0 = col0 + (tid / LS_MMQ_ROWS) * LS_MMQ_ACC;
  const long wr = (row_base + (row < rows ? row : rows - 1)) * nb;
  for (int b = blk_begin; b < blk_end && b < nb; ++b) {
    int wl[4], wh[4];
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      if (Q4) {
        const unsigned v = ((const unsigned*)(w + (wr + b) * 16))[q];
        wl[q] = (int)(((v & 0x0F0F0F0Fu) + 0x78787878u) ^ 0x80808080u);
        wh[q] = (int)((((v >> 4) & 0x0F0F0F0Fu) + 0x78787878u) ^ 0x80808080u);
      } else {
        const int* qv = (const int*)(w + (wr + b) * 32);
        wl[q] = qv[q];
        wh[q] = qv[4 + q];
      }
    }
    const float dw = ls_half_to_float(wd[wr + b]);
    for (int i = 0; i < LS_MMQ_ACC && n0 + i < ncols; ++i) {
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
#endif
}

// Stores a block's sums (this thread's ACC of them; element(i, &row, &col) says where sum i belongs in
// the block's tile) into y; with splits > 1 through the partials: the tile's last split to finish
// adds them in split order and stores.
template <int ACC, int THREADS, typename Element>
LS_DEVICE void ls_tile_store(float (&acc)[ACC], Element element, float* y, const int* map, int rows, int ncols,
                             int ystride, int accumulate, int row_block, int col0, float* partials,
                             unsigned* arrivals, int splits, int split, long tile) {
  const int tid = (int)ls_thread_x();
  if (splits > 1) {
    LS_SHARED int last;
    constexpr long PART = (long)ACC * THREADS;
    float* all = partials + tile * splits * PART;
#pragma unroll
    for (int i = 0; i < ACC; ++i) all[split * PART + (long)i * THREADS + tid] = acc[i];
    ls_fence_device();
    ls_sync_block();
    if (tid == 0) {
      unsigned* counter = arrivals + tile;
      last = ls_atomic_add(counter, 1u) == (unsigned)(splits - 1);
      if (last) *counter = 0u;
    }
    ls_sync_block();
    if (!last) return;
    ls_fence_device();
    // split by split, each split's ACC loads in flight together (the loads of one sum after another
    // would wait out the L2's latency ACC x splits times); each sum still adds the splits in order
#pragma unroll
    for (int i = 0; i < ACC; ++i) acc[i] = 0.0f;
    for (int p = 0; p < splits; ++p) {
#pragma unroll
      for (int i = 0; i < ACC; ++i) acc[i] += ls_load_coherent(all + p * PART + (long)i * THREADS + tid);
    }
  }
#pragma unroll
  for (int i = 0; i < ACC; ++i) {
    int r, c;
    element(i, &r, &c);
    const int row = row_block + r, n = col0 + c;
    if (row < rows && n < ncols) {
      float* out = y + (long)ls_mmq_yrow(map, n) * ystride + row;
      *out = accumulate ? *out + acc[i] : acc[i];
    }
  }
}

LS_DEVICE void ls_mmq_store(float (&acc)[LS_MMQ_ACC], float* y, const int* map, int rows, int ncols, int ystride,
                            int accumulate, int row_block, int col0, float* partials, unsigned* arrivals, int splits,
                            int split, long tile) {
  auto element = [](int i, int* r, int* c) { ls_mmq_element(i, r, c); };
  ls_tile_store<LS_MMQ_ACC, LS_MMQ_THREADS>(acc, element, y, map, rows, ncols, ystride, accumulate, row_block, col0,
                                            partials, arrivals, splits, split, tile);
}

// A dense product: block z of `splits` takes an equal share of the weight's stages of LS_MMQ_KBLOCKS blocks.
template <bool Q4>
LS_DEVICE void ls_mmq_dense(const uint8_t* w, const uint16_t* wd, const int8_t* xq, const float* xd, float* y, int rows,
                            int k, int ncols, int ystride, int accumulate, float* partials, unsigned* arrivals,
                            int splits) {
  const int nb = k / LS_QK;
  const int split = (int)ls_block_z();
  const int per = ((nb + LS_MMQ_KBLOCKS - 1) / LS_MMQ_KBLOCKS + splits - 1) / splits * LS_MMQ_KBLOCKS;
  const int begin = split * per < nb ? split * per : nb;
  const int end = begin + per < nb ? begin + per : nb;
  const int row_block = (int)ls_block_x() * LS_MMQ_ROWS, col0 = (int)ls_block_y() * LS_MMQ_COLS;
  float acc[LS_MMQ_ACC];
  ls_mmq_products<Q4>(w, wd, xq, xd, rows, k, 0, nullptr, ncols, row_block, col0, begin, end, acc);
  ls_mmq_store(acc, y, nullptr, rows, ncols, ystride, accumulate, row_block, col0, partials, arrivals, splits, split,
               (long)ls_block_y() * ((rows + LS_MMQ_ROWS - 1) / LS_MMQ_ROWS) + ls_block_x());
}

LS_KERNEL LS_MMQ_BOUNDS void ls_mmq_q4_0(const uint8_t* w, const uint16_t* wd, const int8_t* xq, const float* xd,
                                          float* y, int rows, int k, int ncols, int ystride, int accumulate,
                                          float* partials, unsigned* arrivals, int splits) {
  ls_mmq_dense<true>(w, wd, xq, xd, y, rows, k, ncols, ystride, accumulate, partials, arrivals, splits);
}

LS_KERNEL LS_MMQ_BOUNDS void ls_mmq_q8_0(const uint8_t* w, const uint16_t* wd, const int8_t* xq, const float* xd,
                                          float* y, int rows, int k, int ncols, int ystride, int accumulate,
                                          float* partials, unsigned* arrivals, int splits) {
  ls_mmq_dense<false>(w, wd, xq, xd, y, rows, k, ncols, ystride, accumulate, partials, arrivals, splits);
}

// A mixture's experts (the weight stacks every expert's `rows` rows from row_base on): `groups`
// holds a group count, then groups of 2 + 2 * LS_MMQ_COLS ints (expert id, column count, then the
// activation row and output row of each column), as ls_group_experts writes them with max_cols
// LS_MMQ_COLS. Grid: x over the rows' tiles, y strides over the groups (`stride`: the grid's height).
#define LS_MMQ_EX_ENTRY(name, q4)                                                                                    \
  LS_KERNEL LS_MMQ_BOUNDS void ls_mmq_ex_##name(const uint8_t* w, const uint16_t* wd, const int8_t* xq,            \
                                                const float* xd, float* y, const int* groups, long long row_base,   \
                                                int rows, int k, int ystride, int stride) {                          \
    for (int gi = (int)ls_block_y(); gi < groups[0]; gi += stride) {                                                 \
      const int* g = groups + 1 + (long)gi * (2 + 2 * LS_MMQ_COLS);                                                  \
      const int row_block = (int)ls_block_x() * LS_MMQ_ROWS;                                                         \
      float acc[LS_MMQ_ACC];                                                                                         \
      ls_mmq_products<q4>(w, wd, xq, xd, rows, k, row_base + (long)g[0] * rows, g + 2, g[1], row_block, 0, 0,       \
                          k / LS_QK, acc);                                                                           \
      ls_mmq_store(acc, y, g + 2, rows, g[1], ystride, 0, row_block, 0, nullptr, nullptr, 1, 0, 0);                \
    }                                                                                                                \
  }

LS_MMQ_EX_ENTRY(q4_0, true)
LS_MMQ_EX_ENTRY(q8_0, false)

// Batched products on half tensor cores over Q4_0, Q8_0 and K-quant weights (ls_mmh_*): each weight
// turned into half in registers exactly as its half copy holds it (half((q - 8) * d), half(q * d),
// half(d * sc * q - dmin * m), ...), times the half activations the BLAS path reads (xh: ncols rows of k
// halves, the Q8_0 or Q8_K rounding of the floats), float sums (mma.sync.m16n8k16). What the BLAS
// computes from a half copy, without the copy, and without the int8 kernels' scaling of every
// block's sums, which bounds those by instructions.
//
// NVIDIA (sm_80 on): a block computes LS_MMH_ROWS (128) rows x LS_MMH_COLS (64) tokens, each wave 32
// rows x the block's tokens as 2 x TILES tiles of 16 x 8 (TILES 2, 4, 6 or 8, a constant of the loop,
// so that no product is predicated). In groups of LS_MMH_KBLOCKS weight blocks: a lane takes one block
// of each of its rows a group, straight into registers two groups ahead; the activations come through
// two shared-memory stages filled by cp.async. Inside a block of 32 values the products take the
// values in another order, the same for weights and activations: the lane of a row's four that holds
// k pairs 2t and 2t + 8 of a tile takes values 8t..8t+7 over the block's two tiles of 16, so its
// weights are one 16-byte register load (a Q4_K lane: its row's header and 32 quant bytes, the
// sub-block's chunk) and its activations one 16-byte shared-memory read (a spread reader's block is
// values 8t..8t+7 of each of the group's four 32-value quarters, and the activations are staged so).
// Float sums in another order than the BLAS's: results agree to float rounding.
//
// AMD: the half matrix instructions (ls_mmq_amd.h says which and how their operands lie): gfx90a and
// gfx942 (MFMA, wave64) take a block as two waves of 64 rows x the block's tokens, gfx11 (WMMA,
// wave32) as four waves of 32 rows, in 16 x 16 tiles (TILES / 2 of them across the tokens), two
// instructions per tile and weight block. Each lane turns its run of values of its rows' blocks into
// half with ls_deq8_* (the half copy's values) and reads its run of each token's halves, from global
// memory (no staging in local memory: these paths compile for every AMD target, no AMD GPU has run
// them). Other AMD targets (no host launches it there): one thread a row, every token, the same
// halves in float.
//
// Split K, grid and arguments as ls_mmq_* (tiles of LS_MMH_ROWS x LS_MMH_COLS, shares of whole stages).
static_assert(LS_MMH_THREADS == 128 && LS_MMH_ROWS == 128 && LS_MMH_COLS == 64, "four waves of 32 rows x 64 tokens");
static_assert(LS_MMH_KBLOCKS == 4, "a group: one weight block for each lane of a row's four");

// Sums per thread: a block's LS_MMH_ROWS x LS_MMH_COLS over its threads.
#define LS_MMH_ACC (LS_MMH_ROWS * LS_MMH_COLS / LS_MMH_THREADS)

#if LS_NVIDIA
// two blocks a multiprocessor: the registers a lane holds two groups of weights in (a lab knob:
// bench/kernels/run.sh mmh with FLAGS=-DLS_MMH_MIN_BLOCKS=3)
#ifndef LS_MMH_MIN_BLOCKS
#define LS_MMH_MIN_BLOCKS 2
#endif
#define LS_MMH_BOUNDS __launch_bounds__(LS_MMH_THREADS, LS_MMH_MIN_BLOCKS)
#else
#define LS_MMH_BOUNDS LS_MMQ_BOUNDS
#endif

#if LS_NVIDIA
// c (16x8, float) += a (16x16, half, row-major fragments) x b (16x8, half, column-major fragments).
LS_DEVICE void ls_mma_f16_16x8x16(float* c, const unsigned (&a)[4], unsigned b0, unsigned b1) {
  asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};\n"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// Two halves each: x - y and x * y, rounded to nearest (subnormals kept).
LS_DEVICE unsigned ls_hsub2(unsigned x, unsigned y) {
  unsigned r;
  asm("sub.rn.f16x2 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(y));
  return r;
}

LS_DEVICE unsigned ls_hmul2(unsigned x, unsigned y) {
  unsigned r;
  asm("mul.rn.f16x2 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(y));
  return r;
}

// The four values in the bytes of q (each 0..255 less `bias`) times d2 (a half scale twice), as two
// half pairs: bytes 0-1 in lo, 2-3 in hi. Byte u under the half 0x6400 (1024) is the half 1024 + u
// exactly, so one subtraction leaves u - bias exactly and one multiplication rounds (u - bias) * d as
// the half copies do.
template <unsigned BIAS2>
LS_DEVICE void ls_mmh_halves(unsigned q, unsigned d2, unsigned& lo, unsigned& hi) {
  lo = ls_hmul2(ls_hsub2(__byte_perm(q, 0x64646464u, 0x4140), BIAS2), d2);
  hi = ls_hmul2(ls_hsub2(__byte_perm(q, 0x64646464u, 0x4342), BIAS2), d2);
}
#endif

#if LS_AMD && (defined(__gfx90a__) || defined(__gfx942__))
#define LS_MMH_AMD LS_MMQ_AMD_MFMA16
#elif LS_AMD && defined(__GFX11__)
#define LS_MMH_AMD LS_MMQ_AMD_WMMA
#endif

#if LS_MMH_AMD
#define LS_MMH_AMD_WAVE (LS_MMH_AMD == LS_MMQ_AMD_WMMA ? 32 : 64)
// 16 x 16 tiles a wave: down its rows (all of the block's rows over its waves) and across the tokens
#define LS_MMH_AMD_ROW_TILES (LS_MMH_ROWS / (LS_MMH_THREADS / LS_MMH_AMD_WAVE) / 16)
#define LS_MMH_AMD_COL_TILES (LS_MMH_COLS / 16)
#define LS_MMH_AMD_ITEMS LS_MMQ_AMD_ITEMS(LS_MMH_AMD)
static_assert(LS_MMH_AMD_ROW_TILES * LS_MMH_AMD_COL_TILES * LS_MMH_AMD_ITEMS == LS_MMH_ACC,
              "a lane's sums are its tiles' items");
#endif

// Which row and column of the block this thread's sum i belongs to.
LS_DEVICE void ls_mmh_element(int i, int* row, int* col) {
  const int tid = (int)ls_thread_x();
#if LS_NVIDIA
  const int lane = tid & 31, wave = tid >> 5;
  const int rt = i >> 5, j = (i >> 2) & 7, e = i & 3;
  *row = wave * 32 + rt * 16 + (lane >> 2) + (e >> 1) * 8;
  *col = j * 8 + 2 * (lane & 3) + (e & 1);
#elif LS_MMH_AMD
  ls_mmh_amd_element(LS_MMH_AMD, LS_MMH_AMD_ROW_TILES, LS_MMH_AMD_COL_TILES, tid, i, row, col);
#else
  *row = tid;
  *col = i;
#endif
}

#if LS_NVIDIA
// The activations' two stages, one array for every instance of ls_mmh_products (a static array in the
// template would be one per instance).
__shared__ __align__(16) uint8_t ls_mmh_xs[2 * LS_MMH_COLS * LS_MMH_KBLOCKS * LS_QK * 2];
#endif

#if LS_NVIDIA
// Where ls_mmh_products reads its weights: a lane's block of each group (the four a row's lanes share)
// in its four rows (g and g + 8 of the wave's two 16-row tiles), into registers two groups ahead
// (`Regs`, by `load`), put in the form the products use when the group is multiplied (`view`), the
// scales of each quarter (`scales`; the same for the whole group where SPREAD is false), and each
// 16-value step s's values 4s..4s+3 of a row as two half pairs, rounded as the format's half copy
// holds them (`halves`). Every reader takes (w, wd, k, row, block, lane t).
//
// Q4_0 and Q8_0, repacked: 16 or 32 quant bytes a block, the half scales apart (wd).
template <bool Q4>
struct LsMmhRepacked {
  static constexpr bool SPREAD = false;
  static constexpr int WV = Q4 ? 1 : 2;  // 16-byte words of a block's quants
  struct Regs {
    uint4 q[2][2][WV];
    unsigned d[2][2];  // the block's scale, twice
  };
  struct Scales {};
  using View = Regs;
  const uint8_t* qsrc;  // this lane's block of the share's first group, in its first row
  const uint16_t* dsrc;
  long nb;

  LS_MEMBER LsMmhRepacked(const uint8_t* w, const uint16_t* wd, int k, int row, int block, int)
      : qsrc(w + ((long)row * (k / LS_QK) + block) * (16 * WV)),
        dsrc(wd + (long)row * (k / LS_QK) + block),
        nb(k / LS_QK) {}

  // Group grp's (a row's four lanes read 64 contiguous bytes of quants); `in`: the block is in the
  // share; rows past `left` (the weight's rows after this lane's first) are zeros.
  LS_MEMBER void load(int grp, bool in, int left, Regs& r) const {
#pragma unroll
    for (int rt = 0; rt < 2; ++rt) {
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int off = rt * 16 + 8 * h;
        const bool ok = in && off < left;
        const long blk = (long)off * nb + grp * LS_MMH_KBLOCKS;
#pragma unroll
        for (int v = 0; v < WV; ++v)
          r.q[rt][h][v] = ok ? *(const uint4*)(qsrc + blk * (16 * WV) + 16 * v) : make_uint4(0, 0, 0, 0);
        const unsigned dh = ok ? dsrc[blk] : 0u;
        r.d[rt][h] = dh | (dh << 16);
      }
    }
  }

  LS_MEMBER View view(const Regs& r, int) const { return r; }
  LS_MEMBER Scales scales(const View&, int, int) const { return {}; }

  // Q4_0: word s & 3 of the 16 bytes, low nibbles for s < 4, high ones after; Q8_0: word s of 32.
  LS_MEMBER void halves(const Regs& r, const Scales&, int s, int rt, int h, unsigned& lo, unsigned& hi) const {
    const uint4 x = r.q[rt][h][Q4 ? 0 : s >> 2];
    const unsigned word = (s & 3) == 0 ? x.x : (s & 3) == 1 ? x.y : (s & 3) == 2 ? x.z : x.w;
    if (Q4) {
      ls_mmh_halves<0x64086408u>((s < 4 ? word : word >> 4) & 0x0F0F0F0Fu, r.d[rt][h], lo, hi);
    } else {
      ls_mmh_halves<0x64806480u>(word ^ 0x80808080u, r.d[rt][h], lo, hi);
    }
  }
};

// d * sc and dmin * m of sub-block j of a Q4_K / Q5_K super-block from its 16-byte header (d, dmin,
// the 12 scale bytes: ggml's get_scale_min_k4 over bytes 4..15).
LS_DEVICE void ls_mmh_k4_scales(const uint4& hd, int j, float& d1, float& m1) {
  auto byte = [&](int b) {
    const unsigned word = b < 4 ? hd.x : b < 8 ? hd.y : b < 12 ? hd.z : hd.w;
    return (int)((word >> (8 * (b & 3))) & 0xFFu);
  };
  int sc, m;
  if (j < 4) {
    sc = byte(4 + j) & 63;
    m = byte(8 + j) & 63;
  } else {
    sc = (byte(8 + j) & 0x0F) | ((byte(j) >> 6) << 4);
    m = (byte(8 + j) >> 4) | ((byte(4 + j) >> 6) << 4);
  }
  d1 = ls_half_to_float((uint16_t)(hd.x & 0xFFFFu)) * (float)sc;
  m1 = ls_half_to_float((uint16_t)(hd.x >> 16)) * (float)m;
}

// Q4_K, GGML's super-blocks of 256 values in 144 bytes: a group is half a super-block and a lane's
// block its sub-block 4 half + t, so a lane loads its rows' 16-byte headers (d, dmin, the 12 scale
// bytes) and the 32 quant bytes of its sub-block's chunk (the lanes of a chunk's two sub-blocks load
// the same bytes: one request). Values d * sc * q - dmin * m in float, as ls_deq8_q4_k computes them,
// rounded to half once.
struct LsMmhQ4K {
  static constexpr bool SPREAD = false;
  struct Regs {
    uint4 head[2][2];
    uint4 q[2][2][2];
  };
  struct Scales {
    float d1[2][2], m1[2][2];
  };
  using View = Regs;
  const uint8_t* src;  // this lane's first row's super-blocks
  long nsb;            // super-blocks a row
  int first;           // the share's first half super-block
  int t;

  LS_MEMBER LsMmhQ4K(const uint8_t* w, const uint16_t*, int k, int row, int block, int lane_t)
      : src(w + (long)row * (k / LS_QK_K) * LS_Q4_K_BYTES),
        nsb(k / LS_QK_K),
        first((block - lane_t) / LS_MMH_KBLOCKS),
        t(lane_t) {}

  LS_MEMBER void load(int grp, bool in, int left, Regs& r) const {
    const int u = first + grp;  // half super-block u & 1 of super-block u >> 1
    const long at = (long)(u >> 1) * LS_Q4_K_BYTES;
    const int quants = 16 + 64 * (u & 1) + 32 * (t >> 1);
#pragma unroll
    for (int rt = 0; rt < 2; ++rt) {
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int off = rt * 16 + 8 * h;
        const bool ok = in && off < left;
        const uint8_t* b = src + (long)off * nsb * LS_Q4_K_BYTES + at;
        r.head[rt][h] = ok ? *(const uint4*)b : make_uint4(0, 0, 0, 0);
        r.q[rt][h][0] = ok ? *(const uint4*)(b + quants) : make_uint4(0, 0, 0, 0);
        r.q[rt][h][1] = ok ? *(const uint4*)(b + quants + 16) : make_uint4(0, 0, 0, 0);
      }
    }
  }

  LS_MEMBER View view(const Regs& r, int) const { return r; }

  // d * sc and dmin * m of this lane's sub-block j.
  LS_MEMBER Scales scales(const View& r, int grp, int) const {
    const int j = 4 * ((first + grp) & 1) + t;
    Scales out;
#pragma unroll
    for (int rt = 0; rt < 2; ++rt) {
#pragma unroll
      for (int h = 0; h < 2; ++h) ls_mmh_k4_scales(r.head[rt][h], j, out.d1[rt][h], out.m1[rt][h]);
    }
    return out;
  }

  // Word s of the chunk's 32 bytes: low nibbles for an even sub-block, high ones for an odd one.
  LS_MEMBER void halves(const Regs& r, const Scales& sc, int s, int rt, int h, unsigned& lo, unsigned& hi) const {
    const uint4 x = r.q[rt][h][s >> 2];
    const unsigned word = (s & 3) == 0 ? x.x : (s & 3) == 1 ? x.y : (s & 3) == 2 ? x.z : x.w;
    const unsigned v = (word >> (4 * (t & 1))) & 0x0F0F0F0Fu;
    float f[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) f[i] = sc.d1[rt][h] * ls_byte_minus(v, i, 0) - sc.m1[rt][h];
    lo = (unsigned)ls_float_to_half(f[0]) | ((unsigned)ls_float_to_half(f[1]) << 16);
    hi = (unsigned)ls_float_to_half(f[2]) | ((unsigned)ls_float_to_half(f[3]) << 16);
  }
};

// The spread K-quant readers (Q5_K, Q6_K, Q3_K, Q2_K): a group is still half a super-block, but a
// lane's "block" is values 8t..8t+7 of each of its four 32-value quarters q (the activations are
// staged to match, SPREAD), so that a lane loads the bytes of its eight positions of the quarters'
// shared low-bit, high-bit and scale arrays (8 quant bytes where a 32-value block would need 32
// or 64), and step s = 2p + e of its block is values 4e..4e+3 of those eight in quarter p. Values as
// the format's ls_deq8_* computes them in float, rounded to half once: the half copy's operands.

// Two floats as a half pair (a in the low half), rounded to nearest as ls_float_to_half.
LS_DEVICE unsigned ls_mmh_pack(float a, float b) {
  unsigned r;
  asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(b), "f"(a));
  return r;
}

// Four values f(byte i of v) as two half pairs.
template <class F>
LS_DEVICE void ls_mmh_pairs(unsigned v, F f, unsigned& lo, unsigned& hi) {
  lo = ls_mmh_pack(f(v, 0), f(v, 1));
  hi = ls_mmh_pack(f(v, 2), f(v, 3));
}

// 4 * W bytes at p, which is only 2-byte aligned (Q3_K's 110- and Q6_K's 210-byte blocks), as the
// W + 1 words around them; the last only where p is not 4-byte aligned, so that nothing past the
// bytes' last word is read. A row's blocks all sit at the same offset mod 4 as the rows 8 apart
// (8 * 110 and 8 * 210 are multiples of 4), so one shift serves a lane's four rows.
template <int W>
LS_DEVICE void ls_mmh_load_a2(const uint8_t* p, bool ok, unsigned (&w)[W + 1]) {
  const unsigned* a = (const unsigned*)((unsigned long long)p & ~3ull);
  const bool odd = ((unsigned long long)p & 2ull) != 0;
#pragma unroll
  for (int i = 0; i < W; ++i) w[i] = ok ? a[i] : 0u;
  w[W] = ok && odd ? a[W] : 0u;
}

// Word i of those bytes (sh: 16 where p was 2 bytes into a word, else 0).
template <int W>
LS_DEVICE unsigned ls_mmh_word(const unsigned (&w)[W + 1], int i, int sh) {
  return __funnelshift_r(w[i], w[i + 1], sh);
}

LS_DEVICE int ls_mmh_shift_a2(const uint8_t* p) {
  return (int)((unsigned long long)p & 2ull) * 8;
}

// Byte i (0..7) of two words.
LS_DEVICE int ls_mmh_byte8(unsigned w0, unsigned w1, int i) {
  return (int)(((i < 4 ? w0 : w1) >> (8 * (i & 3))) & 0xFFu);
}

// The scale bytes of a row's super-block, which a row's four lanes all need, loaded a word a lane
// (in flight, one register a lane where the run would take three or four) and shared at use
// (ls_mmh_share). Q6_K: lanes 0-2 the words around the 8 scale bytes at p (2-byte aligned; lane 2's
// only where p is not 4-byte aligned), lane 3 d (at dp).
LS_DEVICE unsigned ls_mmh_share_load_q6_k(const uint8_t* p, const uint8_t* dp, bool ok, int t, int sh) {
  const unsigned* a = (const unsigned*)((unsigned long long)p & ~3ull);
  if (!ok) return 0u;
  return t < 2 ? a[t] : t == 2 ? (sh != 0 ? a[2] : 0u) : (unsigned)*(const uint16_t*)dp;
}

// Q3_K: the 12 scale bytes at p and d after them: lanes 0-2 the first three words around them, lane
// 3 the fourth where p is not 4-byte aligned (its last half is d), else d.
LS_DEVICE unsigned ls_mmh_share_load_q3_k(const uint8_t* p, bool ok, int t, int sh) {
  const unsigned* a = (const unsigned*)((unsigned long long)p & ~3ull);
  if (!ok) return 0u;
  return t < 3 ? a[t] : sh != 0 ? a[3] : (unsigned)*(const uint16_t*)(p + 12);
}

// Words 0-3 of a row's shared run, from its four lanes.
template <int N>
LS_DEVICE void ls_mmh_share(unsigned mine, unsigned (&w)[N]) {
  static_assert(N >= 4, "four lanes' words");
  const int quad = (int)(ls_thread_x() & 28u);
#pragma unroll
  for (int i = 0; i < 4; ++i) w[i] = __shfl_sync(0xFFFFFFFFu, mine, quad | i);
}

// Q4_1, Q5_0 and Q5_1 in GGML's layout (blocks of 32 values: 20, 22 and 24 bytes), a lane's block
// of each group in its four rows as Q4_0's; values as ls_deq8_* computes them (q * d + m, (q - 16) *
// d: the products exact in float), rounded to half once.
template <int BYTES>
struct LsMmhBlocks {
  static constexpr bool SPREAD = false;
  const uint8_t* src;  // this lane's block of the share's first group, in its first row
  long nb;

  LS_MEMBER LsMmhBlocks(const uint8_t* w, const uint16_t*, int k, int row, int block, int)
      : src(w + ((long)row * (k / LS_QK) + block) * BYTES), nb(k / LS_QK) {}

  // This lane's block of group grp in the row `off` rows past its first.
  LS_MEMBER const uint8_t* block(int grp, int off) const {
    return src + ((long)off * nb + grp * LS_MMH_KBLOCKS) * BYTES;
  }
};

// Bits 0-3 of x as bit 0 of bytes 0-3 (the shifted copies of x do not overlap: no carries).
LS_DEVICE unsigned ls_mmh_bits4(unsigned x) {
  return ((x & 0x0Fu) * 0x00204081u) & 0x01010101u;
}

// Word s & 3 of a block's 16 quant bytes, low nibbles for s < 4, high ones after (ggml's order: value
// j < 16 in byte j's low nibble, j + 16 in its high one).
LS_DEVICE unsigned ls_mmh_nibbles(const unsigned (&q)[4], int s) {
  return (q[s & 3] >> (s >= 4 ? 4 : 0)) & 0x0F0F0F0Fu;
}

// Q4_1 (4-byte aligned): d and m, 16 quant bytes. Value q * d + m.
struct LsMmhQ41 : LsMmhBlocks<LS_Q4_1_BYTES> {
  struct Regs {
    unsigned dm[2][2];
    unsigned q[2][2][4];
  };
  using View = Regs;
  struct Scales {
    float d[2][2], m[2][2];
  };
  using LsMmhBlocks::LsMmhBlocks;

  LS_MEMBER void load(int grp, bool in, int left, Regs& r) const {
#pragma unroll
    for (int rt = 0; rt < 2; ++rt) {
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int off = rt * 16 + 8 * h;
        const bool ok = in && off < left;
        const unsigned* b = (const unsigned*)block(grp, off);
        r.dm[rt][h] = ok ? b[0] : 0u;
#pragma unroll
        for (int i = 0; i < 4; ++i) r.q[rt][h][i] = ok ? b[1 + i] : 0u;
      }
    }
  }

  LS_MEMBER View view(const Regs& r, int) const { return r; }

  LS_MEMBER Scales scales(const View& v, int, int) const {
    Scales out;
#pragma unroll
    for (int rt = 0; rt < 2; ++rt) {
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        out.d[rt][h] = ls_half_to_float((uint16_t)(v.dm[rt][h] & 0xFFFFu));
        out.m[rt][h] = ls_half_to_float((uint16_t)(v.dm[rt][h] >> 16));
      }
    }
    return out;
  }

  LS_MEMBER void halves(const View& v, const Scales& sc, int s, int rt, int h, unsigned& lo, unsigned& hi) const {
    const float d = sc.d[rt][h], m = sc.m[rt][h];
    ls_mmh_pairs(ls_mmh_nibbles(v.q[rt][h], s), [&](unsigned x, int i) { return d * ls_byte_minus(x, i, 0) + m; },
                 lo, hi);
  }
};

// Q5_1 (8-byte aligned): d and m, qh (value j's fifth bit is bit j), 16 quant bytes. Value q * d + m.
struct LsMmhQ51 : LsMmhBlocks<LS_Q5_1_BYTES> {
  struct Regs {
    unsigned dm[2][2], qh[2][2];
    unsigned q[2][2][4];
  };
  using View = Regs;
  struct Scales {
    float d[2][2], m[2][2];
  };
  using LsMmhBlocks::LsMmhBlocks;

  LS_MEMBER void load(int grp, bool in, int left, Regs& r) const {
#pragma unroll
    for (int rt = 0; rt < 2; ++rt) {
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int off = rt * 16 + 8 * h;
        const bool ok = in && off < left;
        const uint2* b = (const uint2*)block(grp, off);
        const uint2 head = ok ? b[0] : make_uint2(0, 0), q0 = ok ? b[1] : make_uint2(0, 0),
                    q1 = ok ? b[2] : make_uint2(0, 0);
        r.dm[rt][h] = head.x;
        r.qh[rt][h] = head.y;
        r.q[rt][h][0] = q0.x;
        r.q[rt][h][1] = q0.y;
        r.q[rt][h][2] = q1.x;
        r.q[rt][h][3] = q1.y;
      }
    }
  }

  LS_MEMBER View view(const Regs& r, int) const { return r; }

  LS_MEMBER Scales scales(const View& v, int, int) const {
    Scales out;
#pragma unroll
    for (int rt = 0; rt < 2; ++rt) {
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        out.d[rt][h] = ls_half_to_float((uint16_t)(v.dm[rt][h] & 0xFFFFu));
        out.m[rt][h] = ls_half_to_float((uint16_t)(v.dm[rt][h] >> 16));
      }
    }
    return out;
  }

  LS_MEMBER void halves(const View& v, const Scales& sc, int s, int rt, int h, unsigned& lo, unsigned& hi) const {
    const unsigned q = ls_mmh_nibbles(v.q[rt][h], s) | (ls_mmh_bits4(v.qh[rt][h] >> (4 * s)) << 4);
    const float d = sc.d[rt][h], m = sc.m[rt][h];
    ls_mmh_pairs(q, [&](unsigned x, int i) { return d * ls_byte_minus(x, i, 0) + m; }, lo, hi);
  }
};

// Q5_0 (22 bytes, 2-byte aligned): d, qh, 16 quant bytes, in the 6 words around the block (the sixth
// a half where the block is 4-byte aligned, so that nothing past it is read). A lane's blocks all sit
// at one offset mod 4 (its rows 8 apart and its groups 4 blocks apart). Value (q - 16) * d.
struct LsMmhQ50 : LsMmhBlocks<LS_Q5_0_BYTES> {
  struct Regs {
    unsigned w[2][2][6];
    int sh;
  };
  struct View {
    unsigned d[2][2], qh[2][2];
    unsigned q[2][2][4];
  };
  struct Scales {
    float d[2][2];
  };
  using LsMmhBlocks::LsMmhBlocks;

  LS_MEMBER void load(int grp, bool in, int left, Regs& r) const {
    r.sh = ls_mmh_shift_a2(block(grp, 0));
#pragma unroll
    for (int rt = 0; rt < 2; ++rt) {
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int off = rt * 16 + 8 * h;
        const bool ok = in && off < left;
        const uint8_t* p = block(grp, off);
        const unsigned* a = (const unsigned*)((unsigned long long)p & ~3ull);
#pragma unroll
        for (int i = 0; i < 5; ++i) r.w[rt][h][i] = ok ? a[i] : 0u;
        r.w[rt][h][5] = !ok ? 0u : r.sh != 0 ? a[5] : (unsigned)*(const uint16_t*)(p + 20);
      }
    }
  }

  // d at byte 0, qh at 2, the quants at 6: from the words' start, 2 or 4 bytes further.
  LS_MEMBER View view(const Regs& r, int) const {
    View v;
#pragma unroll
    for (int rt = 0; rt < 2; ++rt) {
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const unsigned(&w)[6] = r.w[rt][h];
        v.d[rt][h] = __funnelshift_r(w[0], w[1], r.sh) & 0xFFFFu;
        v.qh[rt][h] = r.sh != 0 ? w[1] : __funnelshift_r(w[0], w[1], 16);
#pragma unroll
        for (int i = 0; i < 4; ++i) v.q[rt][h][i] = r.sh != 0 ? w[2 + i] : __funnelshift_r(w[1 + i], w[2 + i], 16);
      }
    }
    return v;
  }

  LS_MEMBER Scales scales(const View& v, int, int) const {
    Scales out;
#pragma unroll
    for (int rt = 0; rt < 2; ++rt) {
#pragma unroll
      for (int h = 0; h < 2; ++h) out.d[rt][h] = ls_half_to_float((uint16_t)v.d[rt][h]);
    }
    return out;
  }

  LS_MEMBER void halves(const View& v, const Scales& sc, int s, int rt, int h, unsigned& lo, unsigned& hi) const {
    const unsigned q = ls_mmh_nibbles(v.q[rt][h], s) | (ls_mmh_bits4(v.qh[rt][h] >> (4 * s)) << 4);
    const float d = sc.d[rt][h];
    ls_mmh_pairs(q, [&](unsigned x, int i) { return d * ls_byte_minus(x, i, 16); }, lo, hi);
  }
};

// Bytes u, u + 2, u + 4, u + 6 of two words (one a quarter: a lane's 16-value scales, u = t / 2).
LS_DEVICE unsigned ls_mmh_quarter_bytes(unsigned w0, unsigned w1, int u) {
  return __byte_perm(w0, w1, 0x6420u + 0x1111u * (unsigned)u);
}

// The spread readers' common part: this lane's first row's super-blocks of BYTES, the share's first
// half super-block, the lane.
template <int BYTES>
struct LsMmhSpread {
  static constexpr bool SPREAD = true;
  const uint8_t* src;
  long nsb;   // super-blocks a row
  int first;  // the share's first half super-block
  int t;

  LS_MEMBER LsMmhSpread(const uint8_t* w, const uint16_t*, int k, int row, int block, int lane_t)
      : src(w + (long)row * (k / LS_QK_K) * BYTES),
        nsb(k / LS_QK_K),
        first((block - lane_t) / LS_MMH_KBLOCKS),
        t(lane_t) {}

  // Super-block of group grp in the row `off` rows past this lane's first, and which half.
  LS_MEMBER const uint8_t* block(int grp, int off) const {
    return src + ((long)off * nsb + ((first + grp) >> 1)) * BYTES;
  }
  LS_MEMBER int half(int grp) const { return (first + grp) & 1; }
};

// Q5_K (176 bytes, 16-byte aligned): the header (d, dmin, 12 scale bytes), the lane's 8 bytes of the
// quarters' two 32-byte nibble runs (quarters 0-1 the first's low and high nibbles, 2-3 the second's),
// and its 8 bytes of qh (bit 4 half + q). Value d * sc * q - dmin * m.
struct LsMmhQ5K : LsMmhSpread<LS_Q5_K_BYTES> {
  struct Regs {
    uint4 head[2][2];
    uint2 q[2][2][2];
    uint2 qh[2][2];
  };
  struct Scales {
    float d1[2][2], m1[2][2];
    int j;  // the quarter's sub-block of the super-block
  };
  using View = Regs;
  using LsMmhSpread::LsMmhSpread;

  LS_MEMBER View view(const Regs& r, int) const { return r; }

  LS_MEMBER void load(int grp, bool in, int left, Regs& r) const {
    const int c = 2 * half(grp);
#pragma unroll
    for (int rt = 0; rt < 2; ++rt) {
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int off = rt * 16 + 8 * h;
        const bool ok = in && off < left;
        const uint8_t* b = block(grp, off);
        r.head[rt][h] = ok ? *(const uint4*)b : make_uint4(0, 0, 0, 0);
        r.q[rt][h][0] = ok ? *(const uint2*)(b + 48 + 32 * c + 8 * t) : make_uint2(0, 0);
        r.q[rt][h][1] = ok ? *(const uint2*)(b + 80 + 32 * c + 8 * t) : make_uint2(0, 0);
        r.qh[rt][h] = ok ? *(const uint2*)(b + 16 + 8 * t) : make_uint2(0, 0);
      }
    }
  }

  LS_MEMBER Scales scales(const Regs& r, int grp, int p) const {
    Scales out;
    out.j = 4 * half(grp) + p;
#pragma unroll
    for (int rt = 0; rt < 2; ++rt) {
#pragma unroll
      for (int h = 0; h < 2; ++h) ls_mmh_k4_scales(r.head[rt][h], out.j, out.d1[rt][h], out.m1[rt][h]);
    }
    return out;
  }

  LS_MEMBER void halves(const Regs& r, const Scales& sc, int s, int rt, int h, unsigned& lo, unsigned& hi) const {
    const int p = s >> 1, e = s & 1;
    const uint2 x = r.q[rt][h][p >> 1];
    const unsigned q = ((e ? x.y : x.x) >> (4 * (p & 1))) & 0x0F0F0F0Fu;
    const unsigned qh = (((e ? r.qh[rt][h].y : r.qh[rt][h].x) >> sc.j) & 0x01010101u) << 4;
    const float d1 = sc.d1[rt][h], m1 = sc.m1[rt][h];
    ls_mmh_pairs(q | qh, [&](unsigned v, int i) { return d1 * ls_byte_minus(v, i, 0) - m1; }, lo, hi);
  }
};

// Q6_K (210 bytes, 2-byte aligned): the lane's 8 bytes of the half's two 32-byte low-nibble runs
// (quarters 0 and 2 the first's low and high nibbles, 1 and 3 the second's), of its 32 bytes of
// high bits (2 bits a quarter), the half's 8 int8 scales (one a 16 values: the lane's are
// (t / 2) + 2q), and d. Value d * scale * (q - 32).
struct LsMmhQ6K : LsMmhSpread<LS_Q6_K_BYTES> {
  struct Regs {  // as loaded: each 8 bytes in the 3 words around them; one word of the row's scales
    unsigned ql[2][2][2][3];
    unsigned qh[2][2][3];
    unsigned sc[2][2];
    int sh;
  };
  struct View {  // as used: each 8 bytes in 2 words (the registers of a group in flight are the most)
    unsigned ql[2][2][2][2];
    unsigned qh[2][2][2];
    unsigned sc[2][2][2];
    unsigned d[2][2];
  };
  struct Scales {
    float ds[2][2];
  };
  using LsMmhSpread::LsMmhSpread;

  LS_MEMBER void load(int grp, bool in, int left, Regs& r) const {
    const int n = half(grp);
    r.sh = ls_mmh_shift_a2(block(grp, 0));
#pragma unroll
    for (int rt = 0; rt < 2; ++rt) {
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int off = rt * 16 + 8 * h;
        const bool ok = in && off < left;
        const uint8_t* b = block(grp, off);
        ls_mmh_load_a2<2>(b + 64 * n + 8 * t, ok, r.ql[rt][h][0]);
        ls_mmh_load_a2<2>(b + 64 * n + 32 + 8 * t, ok, r.ql[rt][h][1]);
        ls_mmh_load_a2<2>(b + 128 + 32 * n + 8 * t, ok, r.qh[rt][h]);
        r.sc[rt][h] = ls_mmh_share_load_q6_k(b + 192 + 8 * n, b + 208, ok, t, r.sh);
      }
    }
  }

  LS_MEMBER View view(const Regs& r, int) const {
    View v;
#pragma unroll
    for (int rt = 0; rt < 2; ++rt) {
#pragma unroll
      for (int h = 0; h < 2; ++h) {
#pragma unroll
        for (int i = 0; i < 2; ++i) {
          v.ql[rt][h][0][i] = ls_mmh_word<2>(r.ql[rt][h][0], i, r.sh);
          v.ql[rt][h][1][i] = ls_mmh_word<2>(r.ql[rt][h][1], i, r.sh);
          v.qh[rt][h][i] = ls_mmh_word<2>(r.qh[rt][h], i, r.sh);
        }
        unsigned w[4];
        ls_mmh_share(r.sc[rt][h], w);
        v.sc[rt][h][0] = __funnelshift_r(w[0], w[1], r.sh);
        v.sc[rt][h][1] = __funnelshift_r(w[1], w[2], r.sh);
        v.d[rt][h] = w[3];
      }
    }
    return v;
  }

  LS_MEMBER Scales scales(const View& v, int, int p) const {
    Scales out;
#pragma unroll
    for (int rt = 0; rt < 2; ++rt) {
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int scale = (int)(signed char)ls_mmh_byte8(v.sc[rt][h][0], v.sc[rt][h][1], 2 * p + (t >> 1));
        out.ds[rt][h] = ls_half_to_float((uint16_t)v.d[rt][h]) * (float)scale;
      }
    }
    return out;
  }

  LS_MEMBER void halves(const View& v, const Scales& sc, int s, int rt, int h, unsigned& lo, unsigned& hi) const {
    const int p = s >> 1, e = s & 1;
    const unsigned q = (v.ql[rt][h][p & 1][e] >> (p >= 2 ? 4 : 0)) & 0x0F0F0F0Fu;
    const unsigned qh = ((v.qh[rt][h][e] >> (2 * p)) & 0x03030303u) << 4;
    const float ds = sc.ds[rt][h];
    ls_mmh_pairs(q | qh, [&](unsigned x, int i) { return ds * ls_byte_minus(x, i, 32); }, lo, hi);
  }
};

// Q3_K (110 bytes, 2-byte aligned): the lane's 8 bytes of hmask (bit 4 half + q: the value's third
// bit, whose absence subtracts 4) and of the half's 32 bytes of 2-bit values (bits 2q), the 12
// bytes of 6-bit scales (sub-block g's low 4 bits in byte g % 8, high nibble from 8; its top 2 bits
// in byte 8 + g % 4), and d. Value d * (scale - 32) * q.
struct LsMmhQ3K : LsMmhSpread<LS_Q3_K_BYTES> {
  struct Regs {  // as loaded: each run of bytes in the words around it; one word of the row's scales
    unsigned hm[2][2][3];
    unsigned qs[2][2][3];
    unsigned sc[2][2];
    int sh;
  };
  struct View {  // as used: aligned words; the lane's four 6-bit scales a byte each
    unsigned hm[2][2][2];
    unsigned qs[2][2][2];
    unsigned sc[2][2];
    unsigned d[2][2];
    int n;  // the group's half
  };
  struct Scales {
    float dl[2][2];
    int hbit;  // the quarter's bit of hmask
  };
  using LsMmhSpread::LsMmhSpread;

  LS_MEMBER void load(int grp, bool in, int left, Regs& r) const {
    const int n = half(grp);
    r.sh = ls_mmh_shift_a2(block(grp, 0));
#pragma unroll
    for (int rt = 0; rt < 2; ++rt) {
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int off = rt * 16 + 8 * h;
        const bool ok = in && off < left;
        const uint8_t* b = block(grp, off);
        ls_mmh_load_a2<2>(b + 8 * t, ok, r.hm[rt][h]);
        ls_mmh_load_a2<2>(b + 32 + 32 * n + 8 * t, ok, r.qs[rt][h]);
        r.sc[rt][h] = ls_mmh_share_load_q3_k(b + 96, ok, t, r.sh);
      }
    }
  }

  // The lane's sub-blocks of the half are g = 2q + t / 2 (8 n + g in the super-block): their low four
  // bits are nibble n of scale bytes g, their top two bits 2 (2 n + q / 2) of byte 8 + g % 4.
  LS_MEMBER View view(const Regs& r, int grp) const {
    View v;
    v.n = half(grp);
    const int u = t >> 1;
#pragma unroll
    for (int rt = 0; rt < 2; ++rt) {
#pragma unroll
      for (int h = 0; h < 2; ++h) {
#pragma unroll
        for (int i = 0; i < 2; ++i) {
          v.hm[rt][h][i] = ls_mmh_word<2>(r.hm[rt][h], i, r.sh);
          v.qs[rt][h][i] = ls_mmh_word<2>(r.qs[rt][h], i, r.sh);
        }
        unsigned w[5];
        ls_mmh_share(r.sc[rt][h], w);
        w[4] = 0u;
        const unsigned low = ls_mmh_quarter_bytes(__funnelshift_r(w[0], w[1], r.sh), __funnelshift_r(w[1], w[2], r.sh), u);
        const unsigned top = __byte_perm(__funnelshift_r(w[2], w[3], r.sh), 0u, 0x2020u + 0x1111u * (unsigned)u);
        const unsigned high = (((top >> (4 * v.n)) & 0x00000303u) | ((top >> (4 * v.n + 2)) & 0x03030000u)) << 4;
        v.sc[rt][h] = ((low >> (4 * v.n)) & 0x0F0F0F0Fu) | high;
        v.d[rt][h] = __funnelshift_r(w[3], w[4], r.sh) & 0xFFFFu;
      }
    }
    return v;
  }

  LS_MEMBER Scales scales(const View& v, int, int p) const {
    Scales out;
    out.hbit = 4 * v.n + p;
#pragma unroll
    for (int rt = 0; rt < 2; ++rt) {
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        out.dl[rt][h] = ls_half_to_float((uint16_t)v.d[rt][h]) * ls_byte_minus(v.sc[rt][h], p, 32);
      }
    }
    return out;
  }

  LS_MEMBER void halves(const View& v, const Scales& sc, int s, int rt, int h, unsigned& lo, unsigned& hi) const {
    const int p = s >> 1, e = s & 1;
    const unsigned q = (v.qs[rt][h][e] >> (2 * p)) & 0x03030303u;
    const unsigned hb = ((v.hm[rt][h][e] >> sc.hbit) & 0x01010101u) << 2;
    const float dl = sc.dl[rt][h];
    ls_mmh_pairs(q | hb, [&](unsigned x, int i) { return dl * ls_byte_minus(x, i, 4); }, lo, hi);
  }
};

// Q2_K (84 bytes, 4-byte aligned): the half's 8 scale bytes (low nibble scale, high nibble min, one
// a 16 values: the lane's are (t / 2) + 2q), the lane's 8 bytes of the half's 32 bytes of 2-bit
// values (bits 2q), d and dmin. Value d * sc * q - dmin * m.
struct LsMmhQ2K : LsMmhSpread<LS_Q2_K_BYTES> {
  struct Regs {
    unsigned qs[2][2][2];
    unsigned sc[2][2][2];
    unsigned dm[2][2];
  };
  struct Scales {
    float dl[2][2], ml[2][2];
  };
  using View = Regs;
  using LsMmhSpread::LsMmhSpread;

  LS_MEMBER View view(const Regs& r, int) const { return r; }

  LS_MEMBER void load(int grp, bool in, int left, Regs& r) const {
    const int n = half(grp);
#pragma unroll
    for (int rt = 0; rt < 2; ++rt) {
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int off = rt * 16 + 8 * h;
        const bool ok = in && off < left;
        const unsigned* b = (const unsigned*)block(grp, off);
#pragma unroll
        for (int i = 0; i < 2; ++i) {
          r.qs[rt][h][i] = ok ? b[4 + 8 * n + 2 * t + i] : 0u;
          r.sc[rt][h][i] = ok ? b[2 * n + i] : 0u;
        }
        r.dm[rt][h] = ok ? b[20] : 0u;
      }
    }
  }

  LS_MEMBER Scales scales(const Regs& r, int, int p) const {
    Scales out;
#pragma unroll
    for (int rt = 0; rt < 2; ++rt) {
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int sc = ls_mmh_byte8(r.sc[rt][h][0], r.sc[rt][h][1], 2 * p + (t >> 1));
        out.dl[rt][h] = ls_half_to_float((uint16_t)(r.dm[rt][h] & 0xFFFFu)) * (float)(sc & 0x0F);
        out.ml[rt][h] = ls_half_to_float((uint16_t)(r.dm[rt][h] >> 16)) * (float)(sc >> 4);
      }
    }
    return out;
  }

  LS_MEMBER void halves(const Regs& r, const Scales& sc, int s, int rt, int h, unsigned& lo, unsigned& hi) const {
    const int p = s >> 1, e = s & 1;
    const unsigned q = (r.qs[rt][h][e] >> (2 * p)) & 0x03030303u;
    const float dl = sc.dl[rt][h], ml = sc.ml[rt][h];
    ls_mmh_pairs(q, [&](unsigned v, int i) { return dl * ls_byte_minus(v, i, 0) - ml; }, lo, hi);
  }
};
#endif

// The formats ls_mmh_* multiplies (wd: Q4_0's and Q8_0's scales; the others hold theirs in their blocks).
#define LS_MMH_Q4_0 0
#define LS_MMH_Q8_0 1
#define LS_MMH_Q4_K 2
#define LS_MMH_Q5_K 3
#define LS_MMH_Q6_K 4
#define LS_MMH_Q3_K 5
#define LS_MMH_Q2_K 6
#define LS_MMH_Q4_1 7
#define LS_MMH_Q5_0 8
#define LS_MMH_Q5_1 9

#if LS_NVIDIA
template <int FMT>
struct LsMmhReader {
  using type = LsMmhRepacked<FMT == LS_MMH_Q4_0>;
};
template <>
struct LsMmhReader<LS_MMH_Q4_K> {
  using type = LsMmhQ4K;
};
template <>
struct LsMmhReader<LS_MMH_Q5_K> {
  using type = LsMmhQ5K;
};
template <>
struct LsMmhReader<LS_MMH_Q6_K> {
  using type = LsMmhQ6K;
};
template <>
struct LsMmhReader<LS_MMH_Q3_K> {
  using type = LsMmhQ3K;
};
template <>
struct LsMmhReader<LS_MMH_Q2_K> {
  using type = LsMmhQ2K;
};
template <>
struct LsMmhReader<LS_MMH_Q4_1> {
  using type = LsMmhQ41;
};
template <>
struct LsMmhReader<LS_MMH_Q5_0> {
  using type = LsMmhQ50;
};
template <>
struct LsMmhReader<LS_MMH_Q5_1> {
  using type = LsMmhQ51;
};
#endif

#if LS_AMD
// Values e0..e0+7 of weight row `row` in format FMT, as ls_deq8_* computes them.
template <int FMT>
LS_DEVICE void ls_mmh_deq8(const uint8_t* w, const uint16_t* wd, long row, int k, int e0, float* v) {
  if constexpr (FMT == LS_MMH_Q4_0) {
    ls_deq8_q4_0(w, wd, row, k, e0, v);
  } else if constexpr (FMT == LS_MMH_Q8_0) {
    ls_deq8_q8_0(w, wd, row, k, e0, v);
  } else if constexpr (FMT == LS_MMH_Q4_K) {
    ls_deq8_q4_k(w, wd, row, k, e0, v);
  } else if constexpr (FMT == LS_MMH_Q5_K) {
    ls_deq8_q5_k(w, wd, row, k, e0, v);
  } else if constexpr (FMT == LS_MMH_Q6_K) {
    ls_deq8_q6_k(w, wd, row, k, e0, v);
  } else if constexpr (FMT == LS_MMH_Q3_K) {
    ls_deq8_q3_k(w, wd, row, k, e0, v);
  } else if constexpr (FMT == LS_MMH_Q2_K) {
    ls_deq8_q2_k(w, wd, row, k, e0, v);
  } else if constexpr (FMT == LS_MMH_Q4_1) {
    ls_deq8_q4_1(w, wd, row, k, e0, v);
  } else if constexpr (FMT == LS_MMH_Q5_0) {
    ls_deq8_q5_0(w, wd, row, k, e0, v);
  } else {
    ls_deq8_q5_1(w, wd, row, k, e0, v);
  }
}
#endif

#if LS_MMH_AMD
typedef _Float16 ls_mmh_amd_halves __attribute__((ext_vector_type(LS_MMQ_AMD_LANE_K(LS_MMH_AMD))));
typedef float ls_mmh_amd_sums __attribute__((ext_vector_type(LS_MMH_AMD_ITEMS)));

// c (a 16 x 16 tile's sums, float) += a (16 weight rows) x b (16 tokens) over one 16-value step.
LS_DEVICE ls_mmh_amd_sums ls_mmh_amd_tile(ls_mmh_amd_halves a, ls_mmh_amd_halves b, ls_mmh_amd_sums c) {
#if LS_MMH_AMD == LS_MMQ_AMD_MFMA16
  return __builtin_amdgcn_mfma_f32_16x16x16f16(a, b, c, 0, 0, 0);
#else
  return __builtin_amdgcn_wmma_f32_16x16x16_f16_w32(a, b, c);
#endif
}
#endif

// acc = rows [row_block, row_block + LS_MMH_ROWS) of the weight times tokens [col0, col0 +
// LS_MMH_COLS) of xh over weight blocks [blk_begin, blk_end) (of 32 values), this thread's share as
// ls_mmh_element lays it out.
template <int FMT, int TILES>
LS_DEVICE void ls_mmh_products(const uint8_t* w, const uint16_t* wd, const uint16_t* xh, int rows, int k, int ncols,
                               int row_block, int col0, int blk_begin, int blk_end, float (&acc)[LS_MMH_ACC]) {
  const int tid = (int)ls_thread_x();
#pragma unroll
  for (int i = 0; i < LS_MMH_ACC; ++i) acc[i] = 0.0f;
#if LS_NVIDIA
  constexpr int G = LS_MMH_KBLOCKS;    // a group: one weight block per lane of a row's four
  constexpr int XROW = G * LS_QK * 2;  // a token's staged halves of a group: 16 chunks of 16 bytes
  constexpr int X_STAGE = LS_MMH_COLS * XROW;
  static_assert(X_STAGE == 8 * 16 * LS_MMH_THREADS && sizeof(ls_mmh_xs) == 2 * X_STAGE, "a chunk a thread a tile");

  const int lane = tid & 31, wave = tid >> 5;
  const int g = lane >> 2, t = lane & 3;
  const int wr = row_block + wave * 32;  // this wave's first row
  const int groups = (blk_end - blk_begin + G - 1) / G;

  // Where chunk p (halves 8p..8p+7) of block t of token n lies in a stage: the token's 16 chunks
  // permuted so that the eight lanes of a 16-byte read phase (two tokens, four blocks, one p) hit
  // eight different bank groups.
  auto chunk = [](int n, int bt, int p) { return n * XROW + 16 * ((4 * bt + (p ^ (2 * (bt >> 1)))) ^ (n & 1)); };

  using Reader = typename LsMmhReader<FMT>::type;

  // The activations this thread stages, fixed but for the group's offset along k: chunk i (one a
  // tile) is halves 8 xp..8 xp + 7 of block xb of token xn + 8 i (a spread reader's block xb: values
  // 8 xb..8 xb + 7 of each 32, so its chunk xp is the group's values 32 xp + 8 xb onwards). Tokens
  // past the last and blocks past the share's end are staged as zeros; tiles past TILES not at all.
  const int xn = tid / 16, xb = (tid / 4) & 3, xp = tid & 3;
  const uint16_t* const xsrc =
      Reader::SPREAD ? xh + (long)(col0 + xn) * k + (long)blk_begin * LS_QK + 32 * xp + 8 * xb
                     : xh + (long)(col0 + xn) * k + (long)(blk_begin + xb) * LS_QK + xp * 8;
  const int xdst = chunk(xn, xb, xp);
  auto load_x = [&](int grp) {
    if (grp >= groups) return;
    uint8_t* stage = ls_mmh_xs + (grp & 1) * X_STAGE;
    const bool in = blk_begin + grp * G + xb < blk_end;
#pragma unroll
    for (int i = 0; i < TILES; ++i) {
      const bool ok = in && col0 + xn + 8 * i < ncols;
      ls_cp_async<16>(stage + xdst + i * 8 * XROW, ok ? xsrc + (long)i * 8 * k + grp * G * LS_QK : xh, ok);
    }
  };

  // This lane's weight block of group `grp`: block blk_begin + 4 grp + t of its four rows.
  const Reader reader(w, wd, k, wr + g, blk_begin + t, t);
  using Regs = typename Reader::Regs;
  const int left = rows - (wr + g);
  auto load_w = [&](int grp, Regs& r) { reader.load(grp, grp < groups && blk_begin + grp * G + t < blk_end, left, r); };

  // Sixteen-value steps s = 0..7 of a group: lane t takes values 4s..4s+3 of its block, of its
  // weight rows and of each token, so weights and activations meet in the same order.
  auto compute = [&](int grp, const Regs& r) {
    const uint8_t* stage = ls_mmh_xs + (grp & 1) * X_STAGE;
    const typename Reader::View v = reader.view(r, grp);
    const typename Reader::Scales group_scales = reader.scales(v, grp, 0);
#pragma unroll
    for (int p = 0; p < 4; ++p) {
      // a spread reader's scales are its quarters'
      const typename Reader::Scales scales = Reader::SPREAD ? reader.scales(v, grp, p) : group_scales;
      unsigned a[2][2][4];  // [step 2p + e][rt]: rows g (a0, a2) and g + 8 (a1, a3)
#pragma unroll
      for (int e = 0; e < 2; ++e) {
#pragma unroll
        for (int rt = 0; rt < 2; ++rt) {
#pragma unroll
          for (int h = 0; h < 2; ++h) reader.halves(v, scales, 2 * p + e, rt, h, a[e][rt][h], a[e][rt][2 + h]);
        }
      }
#pragma unroll
      for (int j = 0; j < TILES; ++j) {
        const uint4 x = *(const uint4*)(stage + chunk(j * 8 + g, t, p));
#pragma unroll
        for (int rt = 0; rt < 2; ++rt) {
          ls_mma_f16_16x8x16(acc + (rt * 8 + j) * 4, a[0][rt], x.x, x.y);
          ls_mma_f16_16x8x16(acc + (rt * 8 + j) * 4, a[1][rt], x.z, x.w);
        }
      }
    }
  };

  // Group grp's activations landed a group ago (one stage ahead); its weights two groups ago, in
  // registers (two sets, alternating).
  auto step = [&](int grp, Regs& r) {
    ls_cp_async_wait<0>();
    ls_sync_block();  // everyone's copies of grp landed; everyone is done with grp - 1's stage
    load_x(grp + 1);
    ls_cp_async_commit();
    compute(grp, r);
    load_w(grp + 2, r);
  };

  Regs r0, r1;
  load_w(0, r0);
  load_w(1, r1);
  load_x(0);
  ls_cp_async_commit();
  for (int grp = 0; grp < groups; grp += 2) {
    step(grp, r0);
    if (grp + 1 < groups) step(grp + 1, r1);
  }
  ls_cp_async_wait<0>();
#elif LS_MMH_AMD
  // TILES tiles of 8 tokens (NVIDIA's) are TILES / 2 of 16; each lane's run: ls_mmq_amd.h
  constexpr int RT = LS_MMH_AMD_ROW_TILES, CT = TILES / 2, ITEMS = LS_MMH_AMD_ITEMS;
  constexpr int LK = LS_MMQ_AMD_LANE_K(LS_MMH_AMD), RUN = LS_MMH_AMD_LANE_VALUES(LS_MMH_AMD);
  const int lane = tid % LS_MMH_AMD_WAVE, wave = tid / LS_MMH_AMD_WAVE;
  const int wr = row_block + wave * RT * 16;  // this wave's first row
  const int first = ls_mmh_amd_first_value(LS_MMH_AMD, lane);
  // rows and tokens past the end read the last ones: their sums are never stored
  long wrow[RT];
#pragma unroll
  for (int rt = 0; rt < RT; ++rt) {
    const int r = wr + rt * 16 + (lane & 15);
    wrow[rt] = r < rows ? r : rows - 1;
  }
  const uint16_t* xrow[CT];
#pragma unroll
  for (int j = 0; j < CT; ++j) {
    const int n = col0 + j * 16 + (lane & 15);
    xrow[j] = xh + (long)(n < ncols ? n : ncols - 1) * k + first;
  }
  ls_mmh_amd_sums c[RT][CT];
#pragma unroll
  for (int rt = 0; rt < RT; ++rt) {
#pragma unroll
    for (int j = 0; j < CT; ++j) c[rt][j] = ls_mmh_amd_sums{};
  }
  const int nb = k / LS_QK;
  const int end = blk_end < nb ? blk_end : nb;
  for (int b = blk_begin; b < end; ++b) {
    ls_mmh_amd_halves a[RT][2];
#pragma unroll
    for (int rt = 0; rt < RT; ++rt) {
      float v[RUN];
#pragma unroll
      for (int e = 0; e < RUN; e += 8) ls_mmh_deq8<FMT>(w, wd, wrow[rt], k, b * LS_QK + first + e, v + e);
#pragma unroll
      for (int i = 0; i < LK; ++i) {
        a[rt][0][i] = (_Float16)v[i];
        a[rt][1][i] = (_Float16)v[LK + i];
      }
    }
#pragma unroll
    for (int j = 0; j < CT; ++j) {
      ls_mmh_amd_halves x[2];
#pragma unroll
      for (int i = 0; i < LK; ++i) {
        x[0][i] = __builtin_bit_cast(_Float16, xrow[j][(long)b * LS_QK + i]);
        x[1][i] = __builtin_bit_cast(_Float16, xrow[j][(long)b * LS_QK + LK + i]);
      }
#pragma unroll
      for (int rt = 0; rt < RT; ++rt) c[rt][j] = ls_mmh_amd_tile(a[rt][1], x[1], ls_mmh_amd_tile(a[rt][0], x[0], c[rt][j]));
    }
  }
  // (the sums of tiles past CT stay zeros: their tokens are past the last)
#pragma unroll
  for (int rt = 0; rt < RT; ++rt) {
#pragma unroll
    for (int j = 0; j < CT; ++j) {
#pragma unroll
      for (int e = 0; e < ITEMS; ++e) acc[(rt * LS_MMH_AMD_COL_TILES + j) * ITEMS + e] = c[rt][j][e];
    }
  }
#else
  const int nb = k / LS_QK;
  const int row = row_block + tid;
  const long r = row < rows ? row : rows - 1;
  const int end = blk_end < nb ? blk_end : nb;
  for (int b = blk_begin; b < end; ++b) {
    float v[LS_QK];
#pragma unroll
    for (int e = 0; e < LS_QK; e += 8) ls_mmh_deq8<FMT>(w, wd, r, k, b * LS_QK + e, v + e);
    for (int i = 0; i < LS_MMH_ACC && col0 + i < ncols; ++i) {
      const uint16_t* xp = xh + (long)(col0 + i) * k + (long)b * LS_QK;
      float s = 0.0f;
#pragma unroll
      for (int e = 0; e < LS_QK; ++e) s += ls_half_to_float(ls_float_to_half(v[e])) * ls_half_to_float(xp[e]);
      acc[i] += s;
    }
  }
#endif
}

template <int FMT>
LS_DEVICE void ls_mmh_dense(const uint8_t* w, const uint16_t* wd, const uint16_t* xh, float* y, int rows, int k,
                            int ncols, int ystride, int accumulate, float* partials, unsigned* arrivals, int splits) {
  const int nb = k / LS_QK;
  const int split = (int)ls_block_z();
  const int per = ((nb + LS_MMH_KBLOCKS - 1) / LS_MMH_KBLOCKS + splits - 1) / splits * LS_MMH_KBLOCKS;
  const int begin = split * per < nb ? split * per : nb;
  const int end = begin + per < nb ? begin + per : nb;
  const int row_block = (int)ls_block_x() * LS_MMH_ROWS, col0 = (int)ls_block_y() * LS_MMH_COLS;
  float acc[LS_MMH_ACC];
  // The token tiles a block multiplies are a constant of the loop (tokens past the last are zeros).
#if LS_NVIDIA || LS_MMH_AMD
  const int left = ncols - col0;
  if (left > 6 * 8) {
    ls_mmh_products<FMT, 8>(w, wd, xh, rows, k, ncols, row_block, col0, begin, end, acc);
  } else if (left > 4 * 8) {
    ls_mmh_products<FMT, 6>(w, wd, xh, rows, k, ncols, row_block, col0, begin, end, acc);
  } else if (left > 2 * 8) {
    ls_mmh_products<FMT, 4>(w, wd, xh, rows, k, ncols, row_block, col0, begin, end, acc);
  } else {
    ls_mmh_products<FMT, 2>(w, wd, xh, rows, k, ncols, row_block, col0, begin, end, acc);
  }
#else
  ls_mmh_products<FMT, 8>(w, wd, xh, rows, k, ncols, row_block, col0, begin, end, acc);
#endif
  auto element = [](int i, int* r, int* c) { ls_mmh_element(i, r, c); };
  ls_tile_store<LS_MMH_ACC, LS_MMH_THREADS>(acc, element, y, nullptr, rows, ncols, ystride, accumulate, row_block,
                                            col0, partials, arrivals, splits, split,
                                            (long)ls_block_y() * ((rows + LS_MMH_ROWS - 1) / LS_MMH_ROWS) + ls_block_x());
}

LS_KERNEL LS_MMH_BOUNDS void ls_mmh_q4_0(const uint8_t* w, const uint16_t* wd, const uint16_t* xh, float* y, int rows,
                                          int k, int ncols, int ystride, int accumulate, float* partials,
                                          unsigned* arrivals, int splits) {
  ls_mmh_dense<LS_MMH_Q4_0>(w, wd, xh, y, rows, k, ncols, ystride, accumulate, partials, arrivals, splits);
}

LS_KERNEL LS_MMH_BOUNDS void ls_mmh_q8_0(const uint8_t* w, const uint16_t* wd, const uint16_t* xh, float* y, int rows,
                                          int k, int ncols, int ystride, int accumulate, float* partials,
                                          unsigned* arrivals, int splits) {
  ls_mmh_dense<LS_MMH_Q8_0>(w, wd, xh, y, rows, k, ncols, ystride, accumulate, partials, arrivals, splits);
}

// The formats in GGML's layout: wd unused (the blocks hold their scales); K-quants: k a multiple of 256.
#define LS_MMH_ENTRY(name, fmt)                                                                                   \
  LS_KERNEL LS_MMH_BOUNDS void ls_mmh_##name(const uint8_t* w, const uint16_t* wd, const uint16_t* xh, float* y,   \
                                             int rows, int k, int ncols, int ystride, int accumulate,              \
                                             float* partials, unsigned* arrivals, int splits) {                    \
    ls_mmh_dense<fmt>(w, wd, xh, y, rows, k, ncols, ystride, accumulate, partials, arrivals, splits);              \
  }
LS_MMH_ENTRY(q4_k, LS_MMH_Q4_K)
LS_MMH_ENTRY(q5_k, LS_MMH_Q5_K)
LS_MMH_ENTRY(q6_k, LS_MMH_Q6_K)
LS_MMH_ENTRY(q3_k, LS_MMH_Q3_K)
LS_MMH_ENTRY(q2_k, LS_MMH_Q2_K)
LS_MMH_ENTRY(q4_1, LS_MMH_Q4_1)
LS_MMH_ENTRY(q5_0, LS_MMH_Q5_0)
LS_MMH_ENTRY(q5_1, LS_MMH_Q5_1)
