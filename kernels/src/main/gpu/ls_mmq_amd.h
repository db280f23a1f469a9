// Where AMD's matrix instructions want their operands and leave their sums, one 16 x 16 tile (16
// weight rows x 16 tokens) and one 32-value block at a time. The integer ones, for mmq.hip's products
// of Q4_0 / Q8_0 weight blocks with Q8_0 activation blocks:
//
//   LS_MMQ_AMD_MFMA16  gfx90a  v_mfma_i32_16x16x16i8, wave64, two per block (k halves of 16)
//   LS_MMQ_AMD_MFMA32  gfx942  v_mfma_i32_16x16x32_i8, wave64, one per block
//   LS_MMQ_AMD_WMMA    gfx11   v_wmma_i32_16x16x16_iu8, wave32, two per block
//
// Operands (the ISA's register layouts): lane l holds weight row l % 16 of the tile (A) and token
// l % 16 (B), 4 int8 values a register, in k order from byte 0. MFMA splits k over lane groups: lane
// l holds values [w * (l / 16), w * (l / 16) + w) of the instruction's k, w = 4 (16x16x16) or 8
// (16x16x32); WMMA gives every lane all 16 values of its k, lanes l and l + 16 the same ones.
// Sums: MFMA item e of lane l is row 4 * (l / 16) + e, token l % 16; WMMA item e of lane l is row
// 2 * e + l / 16, token l % 16.
//
// Pure integer helpers, no builtins: the same text compiles into the kernels and into the host test
// that checks these layouts against plain dot products (kernels/src/test/native/mmq_amd_layout.cpp).
// Define LS_DEVICE before including.
#pragma once

#include <stdint.h>

#define LS_MMQ_AMD_MFMA16 1
#define LS_MMQ_AMD_MFMA32 2
#define LS_MMQ_AMD_WMMA 3

// Values of the instruction's k (16 or 32) each lane holds, and how many k steps a 32-value block takes.
#define LS_MMQ_AMD_LANE_K(kind) ((kind) == LS_MMQ_AMD_MFMA16 ? 4 : (kind) == LS_MMQ_AMD_MFMA32 ? 8 : 16)
#define LS_MMQ_AMD_STEPS(kind) ((kind) == LS_MMQ_AMD_MFMA32 ? 1 : 2)
// Sums per lane per tile: 256 over the wave's lanes.
#define LS_MMQ_AMD_ITEMS(kind) ((kind) == LS_MMQ_AMD_WMMA ? 8 : 4)

// Four int8 weight values [v, v + 4) of a block (v a multiple of 4) as one register: Q8_0's quant
// bytes as they are; Q4_0 repacked (byte i: value i in its low nibble, value i + 16 in its high one,
// both offset by 8) as signed q - 8. A nibble plus 0x78 stays below 0x100, so no byte carries into
// the next; flipping bit 7 then leaves q - 8 in two's complement.
template <bool Q4>
LS_DEVICE int ls_mmq_amd_word(const uint8_t* block, int v) {
  if (!Q4) return *(const int*)(block + v);
  const unsigned u = *(const unsigned*)(block + (v & 15));
  const unsigned nibbles = v < 16 ? (u & 0x0F0F0F0Fu) : ((u >> 4) & 0x0F0F0F0Fu);
  return (int)((nibbles + 0x78787878u) ^ 0x80808080u);
}

// The first value of k step `step` (0 or 1; one step of 32 for MFMA32) that lane `lane` holds.
LS_DEVICE int ls_mmq_amd_first_value(int kind, int lane, int step) {
  const int per_step = kind == LS_MMQ_AMD_MFMA32 ? 32 : 16;
  const int group = kind == LS_MMQ_AMD_WMMA ? 0 : (lane & 63) / 16;
  return step * per_step + group * LS_MMQ_AMD_LANE_K(kind);
}

// The tile row (0..15) of sum item `e` of lane `lane`; its token is lane % 16.
LS_DEVICE int ls_mmq_amd_sum_row(int kind, int lane, int e) {
  return kind == LS_MMQ_AMD_WMMA ? 2 * e + (lane & 31) / 16 : 4 * ((lane & 63) / 16) + e;
}

// The half ones, for ls_mmh_* (quantized weights turned into half, half activations, float sums):
// v_mfma_f32_16x16x16_f16 on gfx90a and gfx942 and v_wmma_f32_16x16x16_f16 on gfx11 lay out their
// operands and sums as the 16x16x16 integer ones above (kinds LS_MMQ_AMD_MFMA16 and LS_MMQ_AMD_WMMA),
// a half for each byte. Weights and activations may take a block's values in any order as long as
// both take the same: ls_mmh_* has each lane hold one run of consecutive values of its row (token),
// LS_MMH_AMD_LANE_VALUES of them from ls_mmh_amd_first_value, the first half of the run in step 0's
// register and the second in step 1's. So an MFMA lane turns 8 weight values into half (one
// ls_deq8_* call), the 64 lanes a tile's 16 rows x 32 values once; a WMMA lane all 32 of its row.
#define LS_MMH_AMD_LANE_VALUES(kind) (2 * LS_MMQ_AMD_LANE_K(kind))

LS_DEVICE int ls_mmh_amd_first_value(int kind, int lane) {
  return kind == LS_MMQ_AMD_WMMA ? 0 : 8 * ((lane & 63) / 16);
}

// Where sum i of thread `tid` lies in a block's tile of ls_mmh_* (its row and token): waves of the
// kind's size, each `row_tiles` 16-row tiles of consecutive rows down and `col_tiles` 16-token tiles
// across; sums (rt * col_tiles + j) * items + e are item e of tile (rt, j).
LS_DEVICE void ls_mmh_amd_element(int kind, int row_tiles, int col_tiles, int tid, int i, int* row, int* col) {
  const int wave_size = kind == LS_MMQ_AMD_WMMA ? 32 : 64;
  const int lane = tid % wave_size, wave = tid / wave_size;
  const int tile = i / LS_MMQ_AMD_ITEMS(kind), e = i % LS_MMQ_AMD_ITEMS(kind);
  *row = (wave * row_tiles + tile / col_tiles) * 16 + ls_mmq_amd_sum_row(kind, lane, e);
  *col = (tile % col_tiles) * 16 + (lane & 15);
}
