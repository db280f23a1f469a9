// Checks ls_mmq_amd.h, the operand and sum layouts mmq.hip gives AMD's integer matrix instructions,
// on the host: for each instruction kind, the registers every lane of a wave would hold for one
// 16 x 16 tile of Q4_0 or Q8_0 weight rows and Q8_0 tokens are built with the header's helpers, the
// instruction is carried out as the ISA documents its register layouts (written here independently
// of the helpers: MFMA: A[i][k] in lane i + 16 * (k / w), byte k % w, w = 4 or 8 values a lane and
// step; WMMA: A[i][k] in lanes i and i + 16, byte k of the lane's 16; B likewise with tokens for
// rows; sums: MFMA D[i][j] in lane j + 16 * (i / 4), item i % 4; WMMA in lane j + 16 * (i % 2), item
// i / 2), and every lane's sums must be the plain integer dot products of the rows and tokens the
// header says they belong to; the same for the half instructions of ls_mmh_* and where each sum of
// their block lies. No AMD GPU runs here: this checks the index arithmetic, not the silicon.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

#define LS_DEVICE static inline
#include "ls_mmq_amd.h"

namespace {

struct Kind {
  int id;
  const char* name;
  int wave;
  int k_per_step;  // values of k one instruction takes
};

const Kind KINDS[] = {{LS_MMQ_AMD_MFMA16, "mfma_i32_16x16x16i8 (gfx90a)", 64, 16},
                      {LS_MMQ_AMD_MFMA32, "mfma_i32_16x16x32_i8 (gfx942)", 64, 32},
                      {LS_MMQ_AMD_WMMA, "wmma_i32_16x16x16_iu8 (gfx11)", 32, 16}};

constexpr int MAX_WORDS = 8;

int byte_of(const int* words, int index) {  // int8 value `index` of packed registers
  return (int8_t)(((unsigned)words[index / 4]) >> (8 * (index % 4)));
}

// Value v (0..31) of a block as the products see it: Q4_0 repacked (byte v % 16, low nibble for
// v < 16, high for the rest, minus 8), Q8_0 the byte itself.
int value(const uint8_t* block, bool q4, int v) {
  if (!q4) return (int8_t)block[v];
  const int byte = block[v % 16];
  return (v < 16 ? byte & 15 : byte >> 4) - 8;
}

// Every lane's sums d (as the ISA leaves them: MFMA D[i][j] in lane j + 16 * (i / 4), item i % 4; WMMA
// in lane j + 16 * (i % 2), item i / 2) against the dot products of the row and token the header says
// each item belongs to; the count that differ.
template <typename T>
int compare_sums(int kind, int wave, const char* name, const char* what, const T (&d)[16][16],
                 const T (&ref)[16][16]) {
  int bad = 0;
  for (int l = 0; l < wave; ++l)
    for (int e = 0; e < LS_MMQ_AMD_ITEMS(kind); ++e) {
      const int i = kind == LS_MMQ_AMD_WMMA ? 2 * e + l / 16 : 4 * (l / 16) + e;  // where the ISA puts item e
      const int j = l % 16;
      const int row = ls_mmq_amd_sum_row(kind, l, e);  // where the kernel stores it
      if (d[i][j] != ref[row][j] && bad++ < 4) {
        std::printf("%s %s: lane %d item %d holds %g, row %d token %d needs %g\n", name, what, l, e, (double)d[i][j],
                    row, j, (double)ref[row][j]);
      }
    }
  return bad;
}

int check(const Kind& kind, bool q4, std::mt19937& rng) {
  const int bytes = q4 ? 16 : 32;
  alignas(16) uint8_t w[16][32];
  alignas(16) uint8_t x[16][32];
  for (auto& row : w) for (auto& b : row) b = (uint8_t)rng();
  for (auto& row : x) for (auto& b : row) b = (uint8_t)rng();
  // the sums the products need
  long ref[16][16];
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) {
      long s = 0;
      for (int v = 0; v < 32; ++v) s += value(w[i], q4, v) * (long)(int8_t)x[j][v];
      ref[i][j] = s;
    }

  // every lane's registers, from the header
  const int steps = LS_MMQ_AMD_STEPS(kind.id), per = LS_MMQ_AMD_LANE_K(kind.id) / 4;
  int a[64][MAX_WORDS], b[64][MAX_WORDS];
  for (int l = 0; l < kind.wave; ++l)
    for (int s = 0; s < steps; ++s)
      for (int q = 0; q < per; ++q) {
        const int v = ls_mmq_amd_first_value(kind.id, l, s) + 4 * q;
        a[l][s * per + q] = q4 ? ls_mmq_amd_word<true>(w[l % 16], v) : ls_mmq_amd_word<false>(w[l % 16], v);
        b[l][s * per + q] = ls_mmq_amd_word<false>(x[l % 16], v);
      }
  (void)bytes;

  // the instruction(s), as the ISA lays out their registers
  long d[16][16] = {};
  for (int s = 0; s < steps; ++s)
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 16; ++j)
        for (int kk = 0; kk < kind.k_per_step; ++kk) {
          int av, bv;
          if (kind.id == LS_MMQ_AMD_WMMA) {
            av = byte_of(a[i] + s * per, kk);
            bv = byte_of(b[j] + s * per, kk);
            if (av != byte_of(a[i + 16] + s * per, kk) || bv != byte_of(b[j + 16] + s * per, kk)) {
              std::printf("%s: lanes %d and %d hold different operands\n", kind.name, i, i + 16);
              return 1;
            }
          } else {
            const int wl = kind.k_per_step / 4;  // values a lane holds per step
            av = byte_of(a[i + 16 * (kk / wl)] + s * per, kk % wl);
            bv = byte_of(b[j + 16 * (kk / wl)] + s * per, kk % wl);
          }
          d[i][j] += (long)av * bv;
        }

  return compare_sums(kind.id, kind.wave, kind.name, q4 ? "Q4_0" : "Q8_0", d, ref);
}

// The half instructions of ls_mmh_* (same register layouts, a half for each byte): every lane's
// run of a tile's 16 weight rows and 16 tokens (small integers, so the float sums are exact) in its
// two steps' registers as the kernel fills them, the instruction carried out as the ISA lays out
// its registers, and every lane's sums against the plain dot products over all 32 values.
struct HalfKind {
  int id;
  const char* name;
  int wave;
};

const HalfKind HALF_KINDS[] = {{LS_MMQ_AMD_MFMA16, "mfma_f32_16x16x16_f16 (gfx90a, gfx942)", 64},
                               {LS_MMQ_AMD_WMMA, "wmma_f32_16x16x16_f16 (gfx11)", 32}};

int check_half(const HalfKind& kind, std::mt19937& rng) {
  float w[16][32], x[16][32];
  for (auto& row : w) for (float& v : row) v = (float)((int)(rng() % 33) - 16);
  for (auto& row : x) for (float& v : row) v = (float)((int)(rng() % 33) - 16);
  double ref[16][16];
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) {
      double s = 0;
      for (int v = 0; v < 32; ++v) s += (double)w[i][v] * x[j][v];
      ref[i][j] = s;
    }

  // registers [lane][step][item], filled as ls_mmh_products does: the lane's run, first half in step 0
  const int lk = LS_MMQ_AMD_LANE_K(kind.id), run = LS_MMH_AMD_LANE_VALUES(kind.id);
  if (run != 2 * lk) {
    std::printf("%s: a run of %d values is not two steps of %d\n", kind.name, run, lk);
    return 1;
  }
  float a[64][2][16], b[64][2][16];
  for (int l = 0; l < kind.wave; ++l) {
    const int first = ls_mmh_amd_first_value(kind.id, l);
    if (first < 0 || first + run > 32) {
      std::printf("%s: lane %d's run [%d, %d) leaves the block\n", kind.name, l, first, first + run);
      return 1;
    }
    for (int s = 0; s < 2; ++s)
      for (int q = 0; q < lk; ++q) {
        a[l][s][q] = w[l % 16][first + s * lk + q];
        b[l][s][q] = x[l % 16][first + s * lk + q];
      }
  }

  // two instructions, as the ISA lays out their registers: MFMA: A[i][kk] in lane i + 16 * (kk / 4),
  // item kk % 4; WMMA: in lanes i and i + 16, item kk. B likewise with tokens for rows.
  double d[16][16] = {};
  for (int s = 0; s < 2; ++s)
    for (int i = 0; i < 16; ++i)
      for (int j = 0; j < 16; ++j)
        for (int kk = 0; kk < 16; ++kk) {
          float av, bv;
          if (kind.id == LS_MMQ_AMD_WMMA) {
            av = a[i][s][kk];
            bv = b[j][s][kk];
            if (av != a[i + 16][s][kk] || bv != b[j + 16][s][kk]) {
              std::printf("%s: lanes %d and %d hold different operands\n", kind.name, i, i + 16);
              return 1;
            }
          } else {
            av = a[i + 16 * (kk / 4)][s][kk % 4];
            bv = b[j + 16 * (kk / 4)][s][kk % 4];
          }
          d[i][j] += (double)av * bv;
        }

  return compare_sums(kind.id, kind.wave, kind.name, "f16", d, ref);
}

// ls_mmh_amd_element over a whole block of ls_mmh_* (128 threads, 128 rows x 64 tokens): every row
// and token of the block's tile is the sum of exactly one thread and index, and within a wave's tile
// the one whose item the instruction leaves there.
int check_elements(const HalfKind& kind) {
  const int threads = 128, rows = 128, cols = 64, items = LS_MMQ_AMD_ITEMS(kind.id);
  const int waves = threads / kind.wave, row_tiles = rows / waves / 16, col_tiles = cols / 16;
  const int acc = rows * cols / threads;
  if (row_tiles * col_tiles * items != acc) {
    std::printf("%s: %d x %d tiles of %d items are not %d sums a thread\n", kind.name, row_tiles, col_tiles, items,
                acc);
    return 1;
  }
  static int owner[128][64];
  for (auto& r : owner) for (int& o : r) o = -1;
  int bad = 0;
  for (int tid = 0; tid < threads; ++tid)
    for (int i = 0; i < acc; ++i) {
      int row, col;
      ls_mmh_amd_element(kind.id, row_tiles, col_tiles, tid, i, &row, &col);
      const int lane = tid % kind.wave, wave = tid / kind.wave, tile = i / items, e = i % items;
      const int want_row = (wave * row_tiles + tile / col_tiles) * 16 + ls_mmq_amd_sum_row(kind.id, lane, e);
      const int want_col = (tile % col_tiles) * 16 + lane % 16;
      if (row < 0 || row >= rows || col < 0 || col >= cols || owner[row][col] >= 0 || row != want_row ||
          col != want_col) {
        if (bad++ < 4) std::printf("%s: thread %d sum %d at row %d token %d\n", kind.name, tid, i, row, col);
        continue;
      }
      owner[row][col] = tid * acc + i;
    }
  return bad;
}

}  // namespace

int main() {
  std::mt19937 rng(42);
  int bad = 0;
  for (const Kind& kind : KINDS) {
    for (int q4 = 0; q4 < 2; ++q4) {
      for (int trial = 0; trial < 50; ++trial) bad += check(kind, q4 != 0, rng);
      std::printf("%s %s: %s\n", kind.name, q4 ? "Q4_0" : "Q8_0", bad ? "MISMATCH" : "50 tiles agree");
    }
  }
  for (const HalfKind& kind : HALF_KINDS) {
    int kind_bad = 0;
    for (int trial = 0; trial < 50; ++trial) kind_bad += check_half(kind, rng);
    kind_bad += check_elements(kind);
    std::printf("%s: %s\n", kind.name, kind_bad ? "MISMATCH" : "50 tiles agree, every sum of the block stored once");
    bad += kind_bad;
  }
  if (bad) {
    std::printf("%d sums differ\n", bad);
    return 1;
  }
  std::printf("all layouts agree\n");
  return 0;
}
