// Per-head arithmetic that kernels of two modules must do alike, so that a fused kernel gives the
// bits of the kernels it stands for: the RMS scale of one head (ls_head_rms_norm_f32 and
// ls_rope_norm_f32, both launched with LS_HEAD_THREADS threads a head, so that both add a head's
// squares in the same order) and the rotation of one pair (ls_rope_f32 and ls_rope_norm_f32).
#pragma once

#include "ls_compat.h"

// 1 / sqrt(mean(head^2) + eps) for the head_dim values at head, every thread of the block getting
// it: each thread adds the squares of every block-size-th value from its own, then the block sum.
LS_DEVICE float ls_head_rms_scale(const float* head, int head_dim, float eps, float* scratch) {
  float sum_sq = 0.0f;
  for (int c = (int)ls_thread_x(); c < head_dim; c += (int)ls_block_dim_x()) sum_sq += head[c] * head[c];
  return ls_rsqrt(ls_block_sum(sum_sq, scratch) / (float)head_dim + eps);
}

// The pair (v0, v1) rotated by the angle of cosine c and sine s: v0 c - v1 s and v0 s + v1 c, each
// with its multiply-add spelled out. Left to themselves, compilers contract one product or the other
// into the add depending on what computed the operands, which would part a kernel that rotates
// loaded values from one that rotates values it has just normalized.
LS_DEVICE void ls_rotate_pair(float v0, float v1, float c, float s, float* r0, float* r1) {
  *r0 = ls_fma(v0, c, -(v1 * s));
  *r1 = ls_fma(v1, c, v0 * s);
}
