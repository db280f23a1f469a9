// y = W x for W in GGML's Q8_0 layout: each row is cols/32 blocks of {fp16 scale d, int8 q[32]}
// (34 bytes, no padding), value = d * q. One wave per row, so a block of B threads covers
// B / wave_size rows: the host reads the wave size from the device to size the grid.
#include "ls_compat.h"

#define LS_Q8_0_BLOCK 32
#define LS_Q8_0_BYTES 34

LS_KERNEL void ls_gemv_q8_0_f32(const uint8_t* w, const float* x, float* y, int rows, int cols) {
  const unsigned wave = ls_wave_size();
  const unsigned lane = ls_thread_x() & (wave - 1);
  const int row = (int)(ls_block_x() * (ls_block_dim_x() / wave) + ls_thread_x() / wave);
  if (row >= rows) return;  // whole waves leave together, so the shuffles below stay convergent
  const int blocks = cols / LS_Q8_0_BLOCK;
  const uint8_t* row_data = w + (long)row * blocks * LS_Q8_0_BYTES;
  float acc = 0.0f;
  for (int b = (int)lane; b < blocks; b += (int)wave) {
    const uint8_t* blk = row_data + (long)b * LS_Q8_0_BYTES;
    const float d = ls_half_to_float((uint16_t)(blk[0] | (blk[1] << 8)));
    const int8_t* q = (const int8_t*)(blk + 2);
    const float* xb = x + b * LS_Q8_0_BLOCK;
    float s = 0.0f;
#pragma unroll
    for (int i = 0; i < LS_Q8_0_BLOCK; ++i) s += (float)q[i] * xb[i];
    acc += d * s;
  }
  acc = ls_wave_sum(acc);
  if (lane == 0) y[row] = acc;
}
