// On-device selection over logits, so only k (id, value) pairs per row cross to the host.
#include "ls_compat.h"

// Whether (v, i) ranks before (bv, bi): larger value first, lower id on a tie (as a stable sort).
LS_DEVICE bool ls_before(float v, int i, float bv, int bi) {
  return v > bv || (v == bv && i < bi);
}

// The k largest values of each of n rows of `cols` floats, in order: ids[t][j], vals[t][j].
// One block of LS_TOPK_THREADS per row; k block-wide arg-max passes, each excluding what the ones
// before chose, so k should be small (greedy decoding uses 1). With a mask (mask_words 32-bit words
// per row, bit c of word c / 32; null for none) only allowed columns are candidates, so a grammar's
// greedy choice needs no whole row on the host; a row with fewer than k allowed columns ends in
// ids of 0x7fffffff with -infinity.
LS_KERNEL void ls_topk_f32(const float* x, int cols, int k, int* ids, float* vals, const unsigned* mask,
                           int mask_words) {
  ls_grid_wait();
  LS_SHARED float wave_val[LS_MAX_WAVES_PER_BLOCK];
  LS_SHARED int wave_idx[LS_MAX_WAVES_PER_BLOCK];
  const int t = (int)ls_block_x();
  const float* row = x + (long)t * cols;
  const unsigned* allowed = mask ? mask + (long)t * mask_words : nullptr;
  const unsigned wave = ls_wave_size();
  const int tid = (int)ls_thread_x();
  const int lane = tid & (int)(wave - 1);
  const int waves = (int)(ls_block_dim_x() / wave);
  float prev_v = __builtin_inff();
  int prev_i = -1;
  for (int j = 0; j < k; ++j) {
    float bv = -__builtin_inff();
    int bi = 0x7fffffff;
    for (int c = tid; c < cols; c += (int)ls_block_dim_x()) {
      if (allowed && !((allowed[c >> 5] >> (c & 31)) & 1u)) {
        continue;
      }
      const float v = row[c];
      // candidates rank strictly after the previous pick
      if (ls_before(prev_v, prev_i, v, c) && ls_before(v, c, bv, bi)) {
        bv = v;
        bi = c;
      }
    }
    for (unsigned m = wave / 2; m > 0; m >>= 1) {
      const float ov = ls_shfl_xor(bv, m);
      const int oi = __builtin_bit_cast(int, ls_shfl_xor(__builtin_bit_cast(float, bi), m));
      if (ls_before(ov, oi, bv, bi)) {
        bv = ov;
        bi = oi;
      }
    }
    if (lane == 0) {
      wave_val[tid / wave] = bv;
      wave_idx[tid / wave] = bi;
    }
    ls_sync_block();
    bv = wave_val[0];
    bi = wave_idx[0];
    for (int w = 1; w < waves; ++w) {
      if (ls_before(wave_val[w], wave_idx[w], bv, bi)) {
        bv = wave_val[w];
        bi = wave_idx[w];
      }
    }
    ls_sync_block();
    if (tid == 0) {
      ids[(long)t * k + j] = bi;
      vals[(long)t * k + j] = bv;
    }
    prev_v = bv;
    prev_i = bi;
  }
}

// A decode step issued before the step whose choices it reads has finished: rows[t] - 1 is the
// row of the previous top-k (ids, k per row) whose best id becomes this step's token t (0: keep
// the token the host wrote). Ids outside the vocabulary (a masked row with nothing allowed) become
// 0, so the embedding never reads past its table.
LS_KERNEL void ls_take_choices(int* tokens, const int* rows, const int* ids, int k, int vocab, int n) {
  ls_grid_wait();
  const int t = (int)(ls_block_x() * ls_block_dim_x() + ls_thread_x());
  if (t >= n || rows[t] <= 0) return;
  const int id = ids[(long)(rows[t] - 1) * k];
  tokens[t] = id >= 0 && id < vocab ? id : 0;
}
