// The half tensor-core products over the formats the device keeps in GGML's layout (super-blocks of 256
// values: Q4_K 144 bytes, Q5_K 176, Q6_K 210, Q3_K 110, Q2_K 84; blocks of 32: Q4_1 20, Q5_0 22, Q5_1
// 24), ls_mmh_q4_k ... ls_mmh_q5_1 (mmq.hip: ls_mmh_products with the format's weight reader), against
// cuBLAS over the half copy (what runs instead where the weight has one: these products take ls_mmh_*
// only where it has none, WeightFormat.halfProductsOverCopies), weights cycled through 1 GiB: us a
// product at 9 to 64 tokens on the 8B's shapes (and Llama-2's 11008-value rows: 43 super-blocks, rows
// at both 4-byte phases for the 2-byte-aligned formats), GB/s of the format, and the relative L2
// distance between the two (the same half operands, float sums in another order; over 1e-5 is marked
// MISMATCH). FORMATS=q6_k,q5_k limits the formats.
//
// usage: bash bench/kernels/run.sh mmhk
#include "mmh_lab.cuh"
#include <cstring>
#include <string>

typedef void (*MmhKernel)(const uint8_t*, const uint16_t*, const uint16_t*, float*, int, int, int, int, int, float*,
                          unsigned*, int);
typedef void (*Deq8)(const uint8_t*, const uint16_t*, long, int, int, float*);

struct Format {
  const char* name;
  int values;    // a block's
  int bytes;     // a block's
  int d_at;      // its d (half)
  int dmin_at;   // its dmin, or -1
  MmhKernel kernel;
  void (*copy)(const uint8_t*, uint16_t*, long, int);
};

template <Deq8 DEQ8>
void copy_of(const uint8_t* w, uint16_t* out, long rows, int k) {
  half_copy<DEQ8><<<4096, 256>>>(w, nullptr, out, rows, k);
}

// Random blocks: every byte random, then d ~ 2^-3 and dmin (or m) ~ 2^-8, small positive halves.
__global__ void fill_k(uint8_t* w, long blocks, int bytes, int d_at, int dmin_at, uint32_t seed) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < blocks * bytes; i += (long)gridDim.x * blockDim.x) {
    uint32_t h = (uint32_t)i * 2654435761u ^ seed; h ^= h >> 13; h *= 0x5bd1e995; h ^= h >> 15;
    const int at = (int)(i % bytes);
    uint8_t v = (uint8_t)h;
    if (at == d_at + 1) v = 0x30 | (v & 0x03);
    if (dmin_at >= 0 && at == dmin_at + 1) v = 0x1c | (v & 0x03);
    w[i] = v;
  }
}

int main() {
  const Format formats[] = {
      {"q4_k", LS_QK_K, LS_Q4_K_BYTES, 0, 2, ls_mmh_q4_k, copy_of<ls_deq8_q4_k>},
      {"q5_k", LS_QK_K, LS_Q5_K_BYTES, 0, 2, ls_mmh_q5_k, copy_of<ls_deq8_q5_k>},
      {"q6_k", LS_QK_K, LS_Q6_K_BYTES, 208, -1, ls_mmh_q6_k, copy_of<ls_deq8_q6_k>},
      {"q3_k", LS_QK_K, LS_Q3_K_BYTES, 108, -1, ls_mmh_q3_k, copy_of<ls_deq8_q3_k>},
      {"q2_k", LS_QK_K, LS_Q2_K_BYTES, 80, 82, ls_mmh_q2_k, copy_of<ls_deq8_q2_k>},
      {"q4_1", LS_QK, LS_Q4_1_BYTES, 0, 2, ls_mmh_q4_1, copy_of<ls_deq8_q4_1>},
      {"q5_0", LS_QK, LS_Q5_0_BYTES, 0, -1, ls_mmh_q5_0, copy_of<ls_deq8_q5_0>},
      {"q5_1", LS_QK, LS_Q5_1_BYTES, 0, 2, ls_mmh_q5_1, copy_of<ls_deq8_q5_1>},
  };
  const char* only = getenv("FORMATS");
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cublasHandle_t blas; cublasCreate(&blas);
  float* partials; unsigned* arrivals;
  CK(cudaMalloc(&partials, 256L << 20)); CK(cudaMalloc(&arrivals, 1 << 20)); CK(cudaMemset(arrivals, 0, 1 << 20));
  struct Shape { int rows, k; };
  const Shape shapes[] = {{200, 1280}, {28672, 4096}, {4096, 14336}, {6144, 4096}, {4096, 4096}, {4096, 11008}};
  LabTimer timer;
  for (const Format& f : formats) {
    if (only && !strstr(only, f.name)) continue;
    for (auto s : shapes) {
      const long blocks = (long)s.rows * (s.k / f.values);
      const long bytes = blocks * f.bytes;
      const int copies = (int)((1024L << 20) / bytes) + 1;
      std::vector<uint8_t*> ws(copies);
      for (int c = 0; c < copies; ++c) {
        CK(cudaMalloc(&ws[c], bytes));
        fill_k<<<1024, 256>>>(ws[c], blocks, f.bytes, f.d_at, f.dmin_at, 7 * c + 1);
      }
      // half copies cycled through 1 GiB as well, so that neither side reads from L2
      const int hcopies = (int)((1024L << 20) / ((long)s.rows * s.k * 2)) + 1;
      std::vector<uint16_t*> whs(hcopies);
      for (int c = 0; c < hcopies; ++c) {
        CK(cudaMalloc(&whs[c], (long)s.rows * s.k * 2));
        f.copy(ws[c % copies], whs[c], s.rows, s.k);
      }
      uint16_t* wh = whs[0];
      uint16_t* xh; float *y, *yref;
      CK(cudaMalloc(&xh, 64L * s.k * 2)); CK(cudaMalloc(&y, 64L * s.rows * 4)); CK(cudaMalloc(&yref, 64L * s.rows * 4));
      fill_half<<<256, 256>>>(xh, 64L * s.k, 99);
      CK(cudaDeviceSynchronize());
      printf("%s %5d x %5d (%.1f MB):\n", f.name, s.rows, s.k, bytes / 1e6);
      for (int n : {9, 12, 16, 24, 32, 40, 48, 64}) {
        const float one = 1, zero = 0;
        cublasGemmEx(blas, CUBLAS_OP_T, CUBLAS_OP_N, s.rows, n, s.k, &one, wh, CUDA_R_16F, s.k, xh, CUDA_R_16F, s.k,
                     &zero, yref, CUDA_R_32F, s.rows, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
        const double blas_us = timer.us([&](int c) {
          cublasGemmEx(blas, CUBLAS_OP_T, CUBLAS_OP_N, s.rows, n, s.k, &one, whs[c % hcopies], CUDA_R_16F, s.k, xh,
                       CUDA_R_16F, s.k, &zero, y, CUDA_R_32F, s.rows, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
        });
        const int tiles = ((s.rows + LS_MMH_ROWS - 1) / LS_MMH_ROWS) * ((n + LS_MMH_COLS - 1) / LS_MMH_COLS);
        const int splits = mmh_splits(tiles, s.k / LS_QK, sms);
        dim3 grid((s.rows + LS_MMH_ROWS - 1) / LS_MMH_ROWS, (n + LS_MMH_COLS - 1) / LS_MMH_COLS, splits);
        f.kernel<<<grid, LS_MMH_THREADS>>>(ws[0], nullptr, xh, y, s.rows, s.k, n, s.rows, 0, partials, arrivals, splits);
        CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
        const double dist = rel_l2(y, yref, (long)n * s.rows);
        const double us = timer.us([&](int c) {
          f.kernel<<<grid, LS_MMH_THREADS>>>(ws[c % copies], nullptr, xh, y, s.rows, s.k, n, s.rows, 0, partials,
                                             arrivals, splits);
        });
        printf("  n=%2d  blas over a half copy %6.1f us  mmh %s (%d shares) %6.1f us (%4.0f GB/s)  rel. L2 %.1e%s\n", n,
               blas_us, f.name, splits, us, bytes / us / 1e3, dist, dist > 1e-5 ? "  MISMATCH" : "");
      }
      for (int c = 0; c < copies; ++c) cudaFree(ws[c]);
      for (int c = 0; c < hcopies; ++c) cudaFree(whs[c]);
      cudaFree(xh); cudaFree(y); cudaFree(yref);
    }
  }
  return 0;
}
