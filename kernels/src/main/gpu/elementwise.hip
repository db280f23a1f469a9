// Element-wise float kernels. Launch with a 1-D grid covering n; any block size.
#include "ls_compat.h"

LS_KERNEL void ls_vector_add_f32(const float* a, const float* b, float* out, int n) {
  const int i = (int)(ls_block_x() * ls_block_dim_x() + ls_thread_x());
  if (i < n) out[i] = a[i] + b[i];
}

LS_KERNEL void ls_scale_f32(float* x, float factor, int n) {
  const int i = (int)(ls_block_x() * ls_block_dim_x() + ls_thread_x());
  if (i < n) x[i] *= factor;
}
