// A prototype, not in the product: half tensor-core products over Q4_K weights as they lie on the
// device (GGML super-blocks of 256 values, 144 bytes), the way ls_mmh_q4_0 multiplies Q4_0 (mmq.hip):
// each weight turned into half in registers as the device's half copy holds it (ls_deq8_q4_k's float
// d * sc * q - dmin * m, rounded to half once), times the half activations, on mma.sync.m16n8k16
// with float sums. Same blocks, waves, activation staging, split K and tile store as ls_mmh_*; a
// group is half a super-block (its sub-blocks 4h..4h+3, one a lane of a row's four). Each lane loads
// its row's 16-byte super-block header and the 32 quant bytes of its sub-block's chunk (the lanes of
// a chunk's two sub-blocks load the same bytes: one request).
//
// Prints, for the 8B's shapes at 12 to 64 tokens, us a product against cuBLAS over the half copy
// (what runs today without `ls_mmh` for K-quants: the BLAS over half copies, or over bands
// dequantized each step without them) and the relative L2 distance between the two.
//
// usage: bash bench/kernels/run.sh mmhk   (never yet run on a device: written 2026-11-29, its weight
// decoding checked on the host against ls_deq8_q4_k bit for bit). Folding it into ls_mmh_products as
// a weight-reader policy is the way into the product once the device confirms it.
#include "mmq.hip"
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cmath>
#include <cublas_v2.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1);} } while (0)

// Byte b (0..15) of a 16-byte header held in registers.
__device__ unsigned hdr_byte(const uint4& h, int b) {
  const unsigned word = b < 4 ? h.x : b < 8 ? h.y : b < 12 ? h.z : h.w;
  return (word >> (8 * (b & 3))) & 0xFFu;
}

// d * sc and dmin * m of sub-block j (0..7) from a super-block's header (ggml's get_scale_min_k4 over
// the scale bytes 4..15), as ls_deq8_q4_k computes them.
__device__ void sub_scales(const uint4& h, int j, float* d1, float* m1) {
  int sc, m;
  if (j < 4) {
    sc = hdr_byte(h, 4 + j) & 63;
    m = hdr_byte(h, 8 + j) & 63;
  } else {
    sc = (hdr_byte(h, 8 + j) & 0x0F) | ((hdr_byte(h, j) >> 6) << 4);
    m = (hdr_byte(h, 8 + j) >> 4) | ((hdr_byte(h, 4 + j) >> 6) << 4);
  }
  const float d = ls_half_to_float((uint16_t)(h.x & 0xFFFFu)), dmin = ls_half_to_float((uint16_t)(h.x >> 16));
  *d1 = d * (float)sc;
  *m1 = dmin * (float)m;
}

__device__ unsigned half2_of(float a, float b) {
  return (unsigned)ls_float_to_half(a) | ((unsigned)ls_float_to_half(b) << 16);
}

template <int TILES>
__device__ void products_q4_k(const uint8_t* w, const uint16_t* xh, int rows, int k, int ncols, int row_block, int col0,
                              int blk_begin, int blk_end, float (&acc)[LS_MMH_ACC]) {
  const int nsb = k / LS_QK_K;  // super-blocks a row
  const int tid = (int)ls_thread_x();
#pragma unroll
  for (int i = 0; i < LS_MMH_ACC; ++i) acc[i] = 0.0f;
  constexpr int G = LS_MMH_KBLOCKS;
  constexpr int XROW = G * LS_QK * 2;
  constexpr int X_STAGE = LS_MMH_COLS * XROW;
  const int lane = tid & 31, wave = tid >> 5;
  const int g = lane >> 2, t = lane & 3;
  const int wr = row_block + wave * 32;
  const int groups = (blk_end - blk_begin + G - 1) / G;
  auto chunk = [](int n, int bt, int p) { return n * XROW + 16 * ((4 * bt + (p ^ (2 * (bt >> 1)))) ^ (n & 1)); };

  const int xn = tid / 16, xb = (tid / 4) & 3, xp = tid & 3;
  const uint16_t* const xsrc = xh + (long)(col0 + xn) * k + (long)(blk_begin + xb) * LS_QK + xp * 8;
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

  // This lane's header and its sub-block's 32 quant bytes of group grp, for its four rows.
  auto load_w = [&](int grp, uint4 (&hd)[2][2], uint4 (&q)[2][2][2]) {
    const int b0 = blk_begin + grp * G;  // the group's first 32-value block (a multiple of 4)
    const bool in = grp < groups && b0 + t < blk_end;
    const int sb = b0 / 8, c = 2 * ((b0 / 4) & 1) + (t >> 1);
#pragma unroll
    for (int rt = 0; rt < 2; ++rt) {
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int row = wr + g + rt * 16 + 8 * h;
        const bool ok = in && row < rows;
        const uint8_t* base = w + ((long)row * nsb + sb) * LS_Q4_K_BYTES;
        hd[rt][h] = ok ? *(const uint4*)base : make_uint4(0, 0, 0, 0);
        q[rt][h][0] = ok ? *(const uint4*)(base + 16 + 32 * c) : make_uint4(0, 0, 0, 0);
        q[rt][h][1] = ok ? *(const uint4*)(base + 32 + 32 * c) : make_uint4(0, 0, 0, 0);
      }
    }
  };

  auto compute = [&](int grp, const uint4 (&hd)[2][2], const uint4 (&q)[2][2][2]) {
    const uint8_t* stage = ls_mmh_xs + (grp & 1) * X_STAGE;
    const int j = 4 * (((blk_begin / 4) + grp) & 1) + t;  // this lane's sub-block of the super-block
    float d1[2][2], m1[2][2];
#pragma unroll
    for (int rt = 0; rt < 2; ++rt) {
#pragma unroll
      for (int h = 0; h < 2; ++h) sub_scales(hd[rt][h], j, &d1[rt][h], &m1[rt][h]);
    }
    const int shift = 4 * (t & 1);  // odd sub-blocks are the chunk's high nibbles
#pragma unroll
    for (int p = 0; p < 4; ++p) {
      unsigned a[2][2][4];
#pragma unroll
      for (int e = 0; e < 2; ++e) {
        const int s = 2 * p + e;  // values 4s..4s+3 of the sub-block: word s of its 32 bytes
#pragma unroll
        for (int rt = 0; rt < 2; ++rt) {
#pragma unroll
          for (int h = 0; h < 2; ++h) {
            const uint4 x = q[rt][h][s >> 2];
            const unsigned word = (s & 3) == 0 ? x.x : (s & 3) == 1 ? x.y : (s & 3) == 2 ? x.z : x.w;
            const unsigned v = (word >> shift) & 0x0F0F0F0Fu;
            float f[4];
#pragma unroll
            for (int i = 0; i < 4; ++i) f[i] = d1[rt][h] * ls_byte_minus(v, i, 0) - m1[rt][h];
            a[e][rt][h] = half2_of(f[0], f[1]);
            a[e][rt][2 + h] = half2_of(f[2], f[3]);
          }
        }
      }
#pragma unroll
      for (int jt = 0; jt < TILES; ++jt) {
        const uint4 x = *(const uint4*)(stage + chunk(jt * 8 + g, t, p));
#pragma unroll
        for (int rt = 0; rt < 2; ++rt) {
          ls_mma_f16_16x8x16(acc + (rt * 8 + jt) * 4, a[0][rt], x.x, x.y);
          ls_mma_f16_16x8x16(acc + (rt * 8 + jt) * 4, a[1][rt], x.z, x.w);
        }
      }
    }
  };

  auto step = [&](int grp, uint4 (&hd)[2][2], uint4 (&q)[2][2][2]) {
    ls_cp_async_wait<0>();
    ls_sync_block();
    load_x(grp + 1);
    ls_cp_async_commit();
    compute(grp, hd, q);
    load_w(grp + 2, hd, q);
  };
  uint4 h0[2][2], h1[2][2], q0[2][2][2], q1[2][2][2];
  load_w(0, h0, q0);
  load_w(1, h1, q1);
  load_x(0);
  ls_cp_async_commit();
  for (int grp = 0; grp < groups; grp += 2) {
    step(grp, h0, q0);
    if (grp + 1 < groups) step(grp + 1, h1, q1);
  }
  ls_cp_async_wait<0>();
}

__global__ LS_MMH_BOUNDS void lab_mmh_q4_k(const uint8_t* w, const uint16_t* xh, float* y, int rows, int k, int ncols,
                                            float* partials, unsigned* arrivals, int splits) {
  const int nb = k / LS_QK;
  const int split = (int)ls_block_z();
  const int per = ((nb + LS_MMH_KBLOCKS - 1) / LS_MMH_KBLOCKS + splits - 1) / splits * LS_MMH_KBLOCKS;
  const int begin = split * per < nb ? split * per : nb;
  const int end = begin + per < nb ? begin + per : nb;
  const int row_block = (int)ls_block_x() * LS_MMH_ROWS, col0 = (int)ls_block_y() * LS_MMH_COLS;
  float acc[LS_MMH_ACC];
  const int left = ncols - col0;
  if (left > 48) products_q4_k<8>(w, xh, rows, k, ncols, row_block, col0, begin, end, acc);
  else if (left > 32) products_q4_k<6>(w, xh, rows, k, ncols, row_block, col0, begin, end, acc);
  else if (left > 16) products_q4_k<4>(w, xh, rows, k, ncols, row_block, col0, begin, end, acc);
  else products_q4_k<2>(w, xh, rows, k, ncols, row_block, col0, begin, end, acc);
  auto element = [](int i, int* r, int* c) { ls_mmh_element(i, r, c); };
  ls_tile_store<LS_MMH_ACC, LS_MMH_THREADS>(acc, element, y, nullptr, rows, ncols, rows, 0, row_block, col0, partials,
                                            arrivals, splits, split,
                                            (long)ls_block_y() * ((rows + LS_MMH_ROWS - 1) / LS_MMH_ROWS) + ls_block_x());
}

// Random super-blocks: every byte random, then d and dmin small positive halves.
__global__ void fill_q4_k(uint8_t* w, long blocks, uint32_t seed) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < blocks * LS_Q4_K_BYTES / 4; i += (long)gridDim.x * blockDim.x) {
    uint32_t h = (uint32_t)i * 2654435761u ^ seed; h ^= h >> 13; h *= 0x5bd1e995; h ^= h >> 15;
    if (i % (LS_Q4_K_BYTES / 4) == 0) h = (h & 0x03ff03ffu) | 0x1c002000u;  // d ~ 2^-3, dmin ~ 2^-8
    ((uint32_t*)w)[i] = h;
  }
}
__global__ void fill_half(uint16_t* p, long n, uint32_t seed) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
    uint32_t h = (uint32_t)i * 2654435761u ^ seed; h ^= h >> 13; h *= 0x5bd1e995; h ^= h >> 15;
    p[i] = ls_float_to_half(((int)(h % 2001) - 1000) / 1000.0f);
  }
}
// The device's half copy: ls_deq8_q4_k rounded to half, as ls_dequant_q4_k_f16 writes it.
__global__ void half_copy(const uint8_t* w, uint16_t* out, long rows, int k) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < rows * k / 8; i += (long)gridDim.x * blockDim.x) {
    const long row = i / (k / 8); const int e0 = (int)(i % (k / 8)) * 8; float v[8];
    ls_deq8_q4_k(w, nullptr, row, k, e0, v);
    for (int j = 0; j < 8; ++j) out[row * k + e0 + j] = ls_float_to_half(v[j]);
  }
}
static int splits_for(int tiles, int nb, int sms) {
  const int groups = (nb + LS_MMH_KBLOCKS - 1) / LS_MMH_KBLOCKS;
  int s = 2 * sms / tiles;
  if (s > groups / 4) s = groups / 4;
  return s < 1 ? 1 : s;
}
int main() {
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cublasHandle_t blas; cublasCreate(&blas);
  float* partials; unsigned* arrivals;
  CK(cudaMalloc(&partials, 256L << 20)); CK(cudaMalloc(&arrivals, 1 << 20)); CK(cudaMemset(arrivals, 0, 1 << 20));
  struct Shape { int rows, k; };
  const Shape shapes[] = {{28672, 4096}, {4096, 14336}, {6144, 4096}, {4096, 4096}};
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  const int reps = 50;
  auto timed = [&](auto&& launch) {
    launch(0); CK(cudaDeviceSynchronize());
    cudaEventRecord(a); for (int i = 0; i < reps; ++i) launch(i + 1); cudaEventRecord(b); CK(cudaEventSynchronize(b));
    float ms; cudaEventElapsedTime(&ms, a, b); return ms * 1000 / reps;
  };
  for (auto s : shapes) {
    const long blocks = (long)s.rows * (s.k / LS_QK_K);
    const int copies = (int)((1024L << 20) / (blocks * LS_Q4_K_BYTES)) + 1;
    std::vector<uint8_t*> ws(copies);
    for (int c = 0; c < copies; ++c) { CK(cudaMalloc(&ws[c], blocks * LS_Q4_K_BYTES)); fill_q4_k<<<1024, 256>>>(ws[c], blocks, 7 * c + 1); }
    // half copies cycled through 1 GiB as well, so that neither side reads from L2
    const int hcopies = (int)((1024L << 20) / ((long)s.rows * s.k * 2)) + 1;
    std::vector<uint16_t*> whs(hcopies);
    for (int c = 0; c < hcopies; ++c) { CK(cudaMalloc(&whs[c], (long)s.rows * s.k * 2)); half_copy<<<4096, 256>>>(ws[c % copies], whs[c], s.rows, s.k); }
    uint16_t* wh = whs[0];
    uint16_t* xh; float *y, *yref;
    CK(cudaMalloc(&xh, 64L * s.k * 2)); CK(cudaMalloc(&y, 64L * s.rows * 4)); CK(cudaMalloc(&yref, 64L * s.rows * 4));
    fill_half<<<256, 256>>>(xh, 64L * s.k, 99);
    CK(cudaDeviceSynchronize());
    printf("q4_k %5d x %5d (%.1f MB):\n", s.rows, s.k, blocks * LS_Q4_K_BYTES / 1e6);
    for (int n : {12, 16, 24, 32, 48, 64}) {
      const float one = 1, zero = 0;
      cublasGemmEx(blas, CUBLAS_OP_T, CUBLAS_OP_N, s.rows, n, s.k, &one, wh, CUDA_R_16F, s.k, xh, CUDA_R_16F, s.k,
                   &zero, yref, CUDA_R_32F, s.rows, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
      const double blas_us = timed([&](int c) {
        cublasGemmEx(blas, CUBLAS_OP_T, CUBLAS_OP_N, s.rows, n, s.k, &one, whs[c % hcopies], CUDA_R_16F, s.k, xh, CUDA_R_16F, s.k,
                     &zero, y, CUDA_R_32F, s.rows, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
      });
      const int tiles = ((s.rows + LS_MMH_ROWS - 1) / LS_MMH_ROWS) * ((n + LS_MMH_COLS - 1) / LS_MMH_COLS);
      const int splits = splits_for(tiles, s.k / LS_QK, sms);
      dim3 grid((s.rows + LS_MMH_ROWS - 1) / LS_MMH_ROWS, (n + LS_MMH_COLS - 1) / LS_MMH_COLS, splits);
      lab_mmh_q4_k<<<grid, LS_MMH_THREADS>>>(ws[0], xh, y, s.rows, s.k, n, partials, arrivals, splits);
      CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
      std::vector<float> gv((long)n * s.rows), rv((long)n * s.rows);
      CK(cudaMemcpy(gv.data(), y, gv.size() * 4, cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(rv.data(), yref, rv.size() * 4, cudaMemcpyDeviceToHost));
      double e = 0, nn = 0;
      for (size_t i = 0; i < gv.size(); ++i) { e += (gv[i] - rv[i]) * (gv[i] - rv[i]); nn += (double)rv[i] * rv[i]; }
      const double us = timed([&](int c) {
        lab_mmh_q4_k<<<grid, LS_MMH_THREADS>>>(ws[c % copies], xh, y, s.rows, s.k, n, partials, arrivals, splits);
      });
      printf("  n=%2d  blas over a half copy %6.1f us  mmh q4_k (%d shares) %6.1f us (%4.0f GB/s of Q4_K)  rel. L2 %.1e\n", n,
             blas_us, splits, us, blocks * LS_Q4_K_BYTES / us / 1e3, sqrt(e / nn));
    }
    for (int c = 0; c < copies; ++c) cudaFree(ws[c]);
    for (int c = 0; c < hcopies; ++c) cudaFree(whs[c]);
    cudaFree(xh); cudaFree(y); cudaFree(yref);
  }
  return 0;
}
