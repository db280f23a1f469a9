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

#if LS_AMD
#define LS_KERNEL extern "C" __attribute__((global)) __attribute__((visibility("default")))
#define LS_DEVICE static __attribute__((device)) inline __attribute__((always_inline))
#define LS_SHARED __attribute__((shared))
#else
#define LS_KERNEL extern "C" __global__
#define LS_DEVICE static __device__ __forceinline__
#define LS_SHARED __shared__
#endif

// Upper bound of threads per block our launchers use; shared scratch for block reductions is sized
// from it, one slot per wave, at the smallest wave size (32) so it is large enough everywhere.
#define LS_MAX_BLOCK 1024
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
