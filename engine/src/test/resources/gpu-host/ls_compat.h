// A host stand-in for kernels/src/main/gpu/ls_compat.h, just what ls_formats.h's readers use, so
// FormatReadersOnHostTests can compile the readers with the host's C++ compiler and compare them
// with the CPU backend's dequantization.
#pragma once
#include <cstdint>
#include <cstring>

#define LS_DEVICE static inline
#define LS_QK 32
#define LS_QK_K 256

struct ls_u32x4 {
  uint32_t x, y, z, w;
};

static inline ls_u32x4 ls_load16(const void* p) {
  ls_u32x4 v;
  memcpy(&v, p, 16);
  return v;
}

// IEEE half to float, exactly (subnormals as m * 2^-24).
static inline float ls_half_to_float(uint16_t h) {
  const uint32_t sign = (uint32_t)(h & 0x8000) << 16;
  const uint32_t e = (h >> 10) & 0x1F;
  const uint32_t m = h & 0x3FF;
  uint32_t bits;
  if (e == 0) {
    const float f = (float)m * (1.0f / 16777216.0f);
    memcpy(&bits, &f, 4);
    bits |= sign;
  } else if (e == 31) {
    bits = sign | 0x7F800000u | (m << 13);
  } else {
    bits = sign | ((e + 112) << 23) | (m << 13);
  }
  float f;
  memcpy(&f, &bits, 4);
  return f;
}
