// The one place where HIP and CUDA differ for our kernels. Every kernel source includes this header
// and nothing vendor-specific; nothing here assumes a wave size (wave64 on CDNA, wave32 on RDNA and
// NVIDIA): kernels ask ls_wave_size() and the host reads the same number from device properties.
//
// AMD builds are header-free (clang -x hip -nogpuinc -nogpulib), so the few builtins we need are
// spelled out here instead of coming from hip_runtime.h.
#pragma once

#if defined(__HIP__) && defined(__AMDGCN__)
#define LS_AMD 1
#elif defined(__CUDACC__)
#define LS_NVIDIA 1
#include <cuda_fp16.h>
#else
#error "ls_compat.h: compile as HIP device code (clang -x hip) or CUDA (nvcc -x cu)"
#endif

#include <stdint.h>

#include "ls_launch.h"

#if LS_AMD
#define LS_KERNEL extern "C" __attribute__((global)) __attribute__((visibility("default")))
#define LS_DEVICE static __attribute__((device)) inline __attribute__((always_inline))
// LS_DEVICE for member functions (a member cannot be static per object)
#define LS_MEMBER __attribute__((device)) inline __attribute__((always_inline))
#define LS_SHARED __attribute__((shared))
#else
#define LS_KERNEL extern "C" __global__
#define LS_DEVICE static __device__ __forceinline__
#define LS_MEMBER __device__ __forceinline__
#define LS_SHARED __shared__
#endif

// Shared scratch for block reductions: one slot per wave of the largest block (LS_MAX_BLOCK), at
// the smallest wave size (32) so it is large enough everywhere.
#define LS_MAX_WAVES_PER_BLOCK (LS_MAX_BLOCK / 32)

LS_DEVICE unsigned ls_thread_x() {
#if LS_AMD
  return __builtin_amdgcn_workitem_id_x();
#else
  return threadIdx.x;
#endif
}

LS_DEVICE unsigned ls_block_x() {
#if LS_AMD
  return __builtin_amdgcn_workgroup_id_x();
#else
  return blockIdx.x;
#endif
}

LS_DEVICE unsigned ls_block_y() {
#if LS_AMD
  return __builtin_amdgcn_workgroup_id_y();
#else
  return blockIdx.y;
#endif
}

LS_DEVICE unsigned ls_block_z() {
#if LS_AMD
  return __builtin_amdgcn_workgroup_id_z();
#else
  return blockIdx.z;
#endif
}

LS_DEVICE unsigned ls_block_dim_x() {
#if LS_AMD
  return __builtin_amdgcn_workgroup_size_x();
#else
  return blockDim.x;
#endif
}

// Compile-time per target: 64 on gfx9 (CDNA), 32 on gfx11 (RDNA3) and on every NVIDIA GPU.
LS_DEVICE unsigned ls_wave_size() {
#if LS_AMD
  return __builtin_amdgcn_wavefrontsize();
#else
  return 32;
#endif
}

LS_DEVICE void ls_sync_block() {
#if LS_AMD
  // A bare s_barrier does not order LDS traffic; the fences make shared writes visible across the
  // workgroup, which is what __syncthreads() means.
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
#else
  __syncthreads();
#endif
}

// Butterfly exchange inside one wave: lane i receives the value of lane i ^ mask.
LS_DEVICE float ls_shfl_xor(float v, unsigned mask) {
#if LS_AMD
  unsigned lane = ls_thread_x() & (ls_wave_size() - 1);
  int bits = __builtin_bit_cast(int, v);
  // ds_bpermute addresses lanes in bytes.
  return __builtin_bit_cast(float, __builtin_amdgcn_ds_bpermute((int)((lane ^ mask) << 2), bits));
#else
  return __shfl_xor_sync(0xffffffffu, v, (int)mask);
#endif
}

// ls_shfl_xor for ints.
LS_DEVICE int ls_shfl_xor_int(int v, unsigned mask) {
#if LS_AMD
  unsigned lane = ls_thread_x() & (ls_wave_size() - 1);
  return __builtin_amdgcn_ds_bpermute((int)((lane ^ mask) << 2), v);
#else
  return __shfl_xor_sync(0xffffffffu, v, (int)mask);
#endif
}

LS_DEVICE float ls_half_to_float(uint16_t bits) {
#if LS_AMD
  return (float)__builtin_bit_cast(_Float16, bits);
#else
  return __half2float(__ushort_as_half(bits));
#endif
}

LS_DEVICE float ls_rsqrt(float x) {
#if LS_AMD
  return __builtin_amdgcn_rsqf(x);
#else
  return rsqrtf(x);
#endif
}

// a * b + c rounded once, never split or merged with other operations by a compiler.
LS_DEVICE float ls_fma(float a, float b, float c) {
#if LS_AMD
  return __builtin_fmaf(a, b, c);
#else
  return __fmaf_rn(a, b, c);
#endif
}

LS_DEVICE float ls_wave_sum(float v) {
  for (unsigned m = ls_wave_size() / 2; m > 0; m >>= 1) v += ls_shfl_xor(v, m);
  return v;
}

// Sum over the whole block; every thread gets the result. `scratch` holds one float per wave.
LS_DEVICE float ls_block_sum(float v, float* scratch) {
  const unsigned wave = ls_wave_size();
  const unsigned lane = ls_thread_x() & (wave - 1);
  const unsigned wave_id = ls_thread_x() / wave;
  const unsigned waves = (ls_block_dim_x() + wave - 1) / wave;
  v = ls_wave_sum(v);
  if (lane == 0) scratch[wave_id] = v;
  ls_sync_block();
  float total = 0.0f;
  for (unsigned w = 0; w < waves; ++w) total += scratch[w];
  ls_sync_block();
  return total;
}

LS_DEVICE float ls_wave_max(float v) {
  for (unsigned m = ls_wave_size() / 2; m > 0; m >>= 1) v = __builtin_fmaxf(v, ls_shfl_xor(v, m));
  return v;
}

// Reductions over aligned groups of 32 lanes (a ggml block of 32 values, one per lane). The xor
// masks stay below 32, so the same code is right on wave32 and wave64 hardware.
LS_DEVICE float ls_group32_sum(float v) {
  for (unsigned m = 16; m > 0; m >>= 1) v += ls_shfl_xor(v, m);
  return v;
}

LS_DEVICE float ls_group32_max(float v) {
  for (unsigned m = 16; m > 0; m >>= 1) v = __builtin_fmaxf(v, ls_shfl_xor(v, m));
  return v;
}

// Maximum over the whole block; every thread gets the result. `scratch` holds one float per wave.
LS_DEVICE float ls_block_max(float v, float* scratch) {
  const unsigned wave = ls_wave_size();
  const unsigned lane = ls_thread_x() & (wave - 1);
  const unsigned wave_id = ls_thread_x() / wave;
  const unsigned waves = (ls_block_dim_x() + wave - 1) / wave;
  v = ls_wave_max(v);
  if (lane == 0) scratch[wave_id] = v;
  ls_sync_block();
  float m = scratch[0];
  for (unsigned w = 1; w < waves; ++w) m = __builtin_fmaxf(m, scratch[w]);
  ls_sync_block();
  return m;
}

// Round-to-nearest-even float -> IEEE half bits, as Java's Float.floatToFloat16 and ggml do.
LS_DEVICE uint16_t ls_float_to_half(float f) {
#if LS_AMD
  return __builtin_bit_cast(uint16_t, (_Float16)f);
#else
  return __half_as_ushort(__float2half_rn(f));
#endif
}

LS_DEVICE float ls_exp(float x) {
#if LS_AMD
  return __builtin_expf(x);
#else
  return expf(x);
#endif
}

// tanh from exp (header-free HIP has no tanhf): 1 - 2 / (exp(2v) + 1), saturating cleanly.
LS_DEVICE float ls_tanh(float v) {
  return 1.0f - 2.0f / (ls_exp(2.0f * v) + 1.0f);
}

// Round half to even, as Java's Math.rint (llama.cpp's quantizers use nearbyintf).
LS_DEVICE float ls_rint(float x) {
  return __builtin_rintf(x);
}

// Sixteen bytes loaded as one vector access (callers guarantee 16-byte alignment).
#if LS_AMD
typedef unsigned int ls_u32x4 __attribute__((ext_vector_type(4)));
typedef unsigned int ls_u32x2 __attribute__((ext_vector_type(2)));
typedef float ls_f32x4 __attribute__((ext_vector_type(4)));
#else
typedef uint4 ls_u32x4;
typedef uint2 ls_u32x2;
typedef float4 ls_f32x4;
#endif

LS_DEVICE ls_f32x4 ls_load4f(const float* p) {
  return *(const ls_f32x4*)p;
}

LS_DEVICE void ls_store4f(float* p, ls_f32x4 v) {
  *(ls_f32x4*)p = v;
}

// Component-wise arithmetic spelled out: CUDA's float4 has no operators.
LS_DEVICE ls_f32x4 ls_add4f(ls_f32x4 a, ls_f32x4 b) {
  ls_f32x4 r;
  r.x = a.x + b.x;
  r.y = a.y + b.y;
  r.z = a.z + b.z;
  r.w = a.w + b.w;
  return r;
}

// a * s * w, element by element, in that order (as the CPU's x * inv * weight).
LS_DEVICE ls_f32x4 ls_scale4f(ls_f32x4 a, float s, ls_f32x4 w) {
  ls_f32x4 r;
  r.x = a.x * s * w.x;
  r.y = a.y * s * w.y;
  r.z = a.z * s * w.z;
  r.w = a.w * s * w.w;
  return r;
}

LS_DEVICE ls_u32x4 ls_load16(const void* p) {
  return *(const ls_u32x4*)p;
}

// Sum of the four signed byte products of a and b, plus c (CUDA __dp4a, AMD v_dot4_i32_i8).
LS_DEVICE int ls_dp4a(int a, int b, int c) {
#if LS_NVIDIA
  return __dp4a(a, b, c);
#elif defined(__gfx90a__) || defined(__gfx942__)
  return __builtin_amdgcn_sdot4(a, b, c, false);
#elif defined(__gfx1100__)
  return __builtin_amdgcn_sudot4(true, a, true, b, c, false);
#else
  // Portable fallback for targets without a 4-way int8 dot instruction.
  const int8_t* x = (const int8_t*)&a;
  const int8_t* y = (const int8_t*)&b;
  return c + x[0] * y[0] + x[1] * y[1] + x[2] * y[2] + x[3] * y[3];
#endif
}

// Q8_0 quantization of value v, element i of a row-major activation matrix whose rows are a
// multiple of 32 long, as ls_quantize_q8_0 does: the caller guarantees that 32 consecutive lanes
// hold elements 32b .. 32b+31 (all active or all inactive), so a producer kernel can emit the int8
// input of the next GEMV without another launch.
LS_DEVICE void ls_store_q8_0(float v, long i, int8_t* q, float* d, int* sums) {
  const float amax = ls_group32_max(__builtin_fabsf(v));
  const float inv = amax != 0.0f ? 127.0f / amax : 0.0f;
  const int qi = (int)ls_rint(v * inv);
  q[i] = (int8_t)qi;
  const float sum = ls_group32_sum((float)qi);
  if ((i & 31) == 0) {
    d[i / 32] = ls_half_to_float(ls_float_to_half(amax / 127.0f));
    sums[i / 32] = (int)sum;
  }
}

// ls_store_q8_0 for four consecutive elements i..i+3 held by one thread (i a multiple of 4): eight
// consecutive lanes hold one block of 32.
LS_DEVICE void ls_store_q8_0_x4(ls_f32x4 v, long i, int8_t* q, float* d, int* sums) {
  float a = __builtin_fmaxf(__builtin_fmaxf(__builtin_fabsf(v.x), __builtin_fabsf(v.y)),
                            __builtin_fmaxf(__builtin_fabsf(v.z), __builtin_fabsf(v.w)));
  for (unsigned m = 4; m > 0; m >>= 1) a = __builtin_fmaxf(a, ls_shfl_xor(a, m));
  const float inv = a != 0.0f ? 127.0f / a : 0.0f;
  const int q0 = (int)ls_rint(v.x * inv);
  const int q1 = (int)ls_rint(v.y * inv);
  const int q2 = (int)ls_rint(v.z * inv);
  const int q3 = (int)ls_rint(v.w * inv);
  *(uint32_t*)(q + i) = (uint32_t)(q0 & 0xFF) | ((uint32_t)(q1 & 0xFF) << 8) | ((uint32_t)(q2 & 0xFF) << 16)
      | ((uint32_t)(q3 & 0xFF) << 24);
  float s = (float)(q0 + q1 + q2 + q3);
  for (unsigned m = 4; m > 0; m >>= 1) s += ls_shfl_xor(s, m);
  if ((i & 31) == 0) {
    d[i / 32] = ls_half_to_float(ls_float_to_half(a / 127.0f));
    sums[i / 32] = (int)s;
  }
}

// Programmatic dependent launch (NVIDIA sm_90; kernels.manifest's "waits"): a kernel the host
// launched before the one ahead of it ended waits here until that one has ended and its writes are
// visible, then lets the kernel after it launch in turn. Without such a launch it returns at once;
// where launches never overlap (AMD, NVIDIA before sm_90) it is empty. Every entry point of a
// "waits" module calls it before reading anything an earlier kernel wrote or writing anything one
// may still read.
LS_DEVICE void ls_grid_wait() {
#if LS_NVIDIA && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

// Starts bringing the 128-byte line holding p into the L2 cache, nothing into registers or L1: safe
// before ls_grid_wait even where the kernel before may still write the line (the L2 is where
// every block of the device sees global memory). A no-op on AMD.
LS_DEVICE void ls_prefetch_l2(const void* p) {
#if LS_NVIDIA && defined(__CUDA_ARCH__)
  asm volatile("prefetch.global.L2 [%0];" ::"l"(p));
#else
  (void)p;
#endif
}

// Orders this thread's global writes before its later ones as every block of the device sees them
// (the writer's half of "the last block to arrive reads what the others wrote"; the reader calls it
// after seeing the counter).
LS_DEVICE void ls_fence_device() {
#if LS_AMD
  __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "agent");
#else
  __threadfence();
#endif
}

// Adds v to *p atomically for the whole device; returns the value before.
LS_DEVICE unsigned ls_atomic_add(unsigned* p, unsigned v) {
#if LS_AMD
  return __scoped_atomic_fetch_add(p, v, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE);
#else
  return atomicAdd(p, v);
#endif
}

// A float another block of the same launch wrote (past a fence and a counter): read from the
// device-wide cache level, never from a stale line of this compute unit's own.
LS_DEVICE float ls_load_coherent(const float* p) {
#if LS_AMD
  return __builtin_bit_cast(float, __scoped_atomic_load_n((const unsigned*)p, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE));
#else
  return __ldcg(p);
#endif
}

// A 16-byte line of two values, each beside its own copy of a flag ({v0, flag, v1, flag}), that a
// kernel on another GPU of the host writes through peer access and this GPU's kernel waits for:
// every aligned 8-byte half lands whole, so a half whose flag is current carries its value, without
// a fence (the low-latency protocol of NCCL's LL). Loads bypass this compute unit's cache.
LS_DEVICE void ls_line_store(unsigned* p, ls_u32x4 v) {
#if LS_AMD
  __scoped_atomic_store_n((unsigned long long*)p, (unsigned long long)v.x | ((unsigned long long)v.y << 32),
                          __ATOMIC_RELAXED, __MEMORY_SCOPE_SYSTEM);
  __scoped_atomic_store_n((unsigned long long*)p + 1, (unsigned long long)v.z | ((unsigned long long)v.w << 32),
                          __ATOMIC_RELAXED, __MEMORY_SCOPE_SYSTEM);
#else
  asm volatile("st.volatile.global.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(p), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w)
               : "memory");
#endif
}

LS_DEVICE ls_u32x4 ls_line_load(const unsigned* p) {
  ls_u32x4 v;
#if LS_AMD
  const unsigned long long lo = __scoped_atomic_load_n((const unsigned long long*)p, __ATOMIC_RELAXED, __MEMORY_SCOPE_SYSTEM);
  const unsigned long long hi =
      __scoped_atomic_load_n((const unsigned long long*)p + 1, __ATOMIC_RELAXED, __MEMORY_SCOPE_SYSTEM);
  v.x = (unsigned)lo;
  v.y = (unsigned)(lo >> 32);
  v.z = (unsigned)hi;
  v.w = (unsigned)(hi >> 32);
#else
  asm volatile("ld.volatile.global.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "l"(p)
               : "memory");
#endif
  return v;
}
