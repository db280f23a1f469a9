// The half tensor-core products over quantized weights (ls_mmh_q4_0, ls_mmh_q8_0) against the int8
// tensor-core products (ls_mmq_*) and cuBLAS over a half copy (what the BLAS path runs) on the 8B's
// shapes, 8 to 64 tokens, weights cycled through 1 GiB: us per product and GB/s of the quantized
// weights. ls_mmh runs with the host's split count (`mmh_splits`, Matmul.mmhSplits on this GPU's
// multiprocessors) and 1, 2 and 4 shares for comparison; its relative L2 distance to cuBLAS over
// the same half weights and activations is printed beside it. NS=16,64 and Q8=0 narrow the cases.
#include "mmh_lab.cuh"
#include <cuda_fp16.h>
__global__ void fill(uint32_t* p, long n, uint32_t seed, uint32_t mask, uint32_t base) {
  for (long i = blockIdx.x * (long)blockDim.x + threadIdx.x; i < n; i += (long)gridDim.x * blockDim.x) {
    uint32_t h = (uint32_t)i * 2654435761u ^ seed; h ^= h >> 13; h *= 0x5bd1e995; h ^= h >> 15;
    p[i] = (h & mask) + base;
  }
}
static int mmq_splits(int tiles, int nb, int sms) {
  const int stages = (nb + LS_MMQ_KBLOCKS - 1) / LS_MMQ_KBLOCKS;
  int s = (2 * sms + tiles - 1) / tiles;
  if (s > stages / 4) s = stages / 4;
  return s < 1 ? 1 : s;
}
int main() {
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cublasHandle_t blas; cublasCreate(&blas);
  float* partials; unsigned* arrivals;
  CK(cudaMalloc(&partials, 256L << 20)); CK(cudaMalloc(&arrivals, 1 << 20)); CK(cudaMemset(arrivals, 0, 1 << 20));
  struct Shape { int rows, k; };
  std::vector<Shape> shapes = {{28672, 4096}, {4096, 14336}, {6144, 4096}, {4096, 4096}};
  // CASE=rows,k,n,splits: that product alone (Q4_0, ls_mmh only, a few launches), e.g. under ncu
  int case_n = 0, case_splits = 0;
  if (const char* c = getenv("CASE")) {
    Shape one; sscanf(c, "%d,%d,%d,%d", &one.rows, &one.k, &case_n, &case_splits); shapes = {one};
  }
  LabTimer timer;
  // NS=16,64: only those token counts; Q8=0: Q4_0 weights only
  std::vector<int> ns = {8, 12, 16, 24, 32, 48, 64};
  if (const char* v = getenv("NS")) {
    ns.clear();
    for (const char* p = v; *p; ) { ns.push_back(atoi(p)); while (*p && *p != ',') ++p; if (*p) ++p; }
  }
  const bool q8 = !getenv("Q8") || atoi(getenv("Q8")) != 0;
  for (bool q4 : {true, false}) for (auto s : shapes) {
    if ((case_n || !q8) && !q4) continue;
    const int nb = s.k / 32; const long nbk = (long)s.rows * nb; const int WB = q4 ? 16 : 32;
    const int copies = (int)((1024L << 20) / (nbk * (WB + 2))) + 1;
    const int hcopies = (int)((1024L << 20) / ((long)s.rows * s.k * 2)) + 1;
    std::vector<uint8_t*> ws(copies); std::vector<uint16_t*> wds(copies), whs(hcopies);
    for (int c = 0; c < copies; ++c) { CK(cudaMalloc(&ws[c], nbk * WB)); CK(cudaMalloc(&wds[c], nbk * 2));
      fill<<<1024, 256>>>((uint32_t*)ws[c], nbk * WB / 4, 7 * c + 1, q4 ? 0xffffffffu : 0x3f3f3f3fu, 0);
      fill<<<1024, 256>>>((uint32_t*)wds[c], nbk / 2, 11 * c + 3, 0x03ff03ffu, 0x20002000u); }
    for (int c = 0; c < hcopies; ++c) { CK(cudaMalloc(&whs[c], (long)s.rows * s.k * 2));
      if (q4) half_copy<ls_deq8_q4_0><<<4096, 256>>>(ws[c % copies], wds[c % copies], whs[c], s.rows, s.k);
      else half_copy<ls_deq8_q8_0><<<4096, 256>>>(ws[c % copies], wds[c % copies], whs[c], s.rows, s.k); }
    const int maxn = 64;
    uint16_t* xh; int8_t* xq; float *xd, *y, *yref;
    CK(cudaMalloc(&xh, (long)maxn * s.k * 2)); CK(cudaMalloc(&xq, (long)maxn * s.k)); CK(cudaMalloc(&xd, maxn * nb * 4));
    CK(cudaMalloc(&y, (long)maxn * s.rows * 4)); CK(cudaMalloc(&yref, (long)maxn * s.rows * 4));
    fill_half<<<256, 256>>>(xh, (long)maxn * s.k, 99);
    fill<<<256, 256>>>((uint32_t*)xq, (long)maxn * s.k / 4, 99, 0x7f7f7f7fu, 0);
    fill<<<256, 256>>>((uint32_t*)xd, (long)maxn * nb, 5, 0x007fffffu, 0x3a800000u);
    CK(cudaDeviceSynchronize());
    printf("%s %5d x %5d:\n", q4 ? "q4_0" : "q8_0", s.rows, s.k);
    for (int n : ns) {
      if (case_n && n != case_n) continue;
      if (case_n) {
        for (int c = 0; c < 3; ++c) {
          dim3 grid((s.rows + LS_MMH_ROWS - 1) / LS_MMH_ROWS, (n + LS_MMH_COLS - 1) / LS_MMH_COLS, case_splits);
          ls_mmh_q4_0<<<grid, LS_MMH_THREADS>>>(ws[c], wds[c], xh, y, s.rows, s.k, n, s.rows, 0, partials, arrivals, case_splits);
        }
        CK(cudaDeviceSynchronize());
        continue;
      }
      const float one = 1, zero = 0;
      auto gemm = [&](int c, float* out) {
        cublasGemmEx(blas, CUBLAS_OP_T, CUBLAS_OP_N, s.rows, n, s.k, &one, whs[c % hcopies], CUDA_R_16F, s.k, xh,
                     CUDA_R_16F, s.k, &zero, out, CUDA_R_32F, s.rows, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
      };
      gemm(0, yref); CK(cudaDeviceSynchronize());
      const double blas_us = timer.us([&](int c) { gemm(c, y); });
      const int tiles = ((s.rows + LS_MMH_ROWS - 1) / LS_MMH_ROWS) * ((n + LS_MMH_COLS - 1) / LS_MMH_COLS);
      const int chosen = mmh_splits(tiles, nb, sms);
      printf("  n=%2d  blas %6.1f us (%5.0f GB/s of F16)  mmh", n, blas_us, (double)s.rows * s.k * 2 / blas_us / 1e3);
      std::vector<int> counts = {chosen};
      for (int c : {1, 2, 3, 4, 8}) if (c != chosen && c <= nb / LS_MMH_KBLOCKS) counts.push_back(c);
      for (int splits : counts) {
        auto launch = [&](int c) {
          dim3 grid((s.rows + LS_MMH_ROWS - 1) / LS_MMH_ROWS, (n + LS_MMH_COLS - 1) / LS_MMH_COLS, splits);
          if (q4) ls_mmh_q4_0<<<grid, LS_MMH_THREADS>>>(ws[c % copies], wds[c % copies], xh, y, s.rows, s.k, n, s.rows, 0, partials, arrivals, splits);
          else ls_mmh_q8_0<<<grid, LS_MMH_THREADS>>>(ws[c % copies], wds[c % copies], xh, y, s.rows, s.k, n, s.rows, 0, partials, arrivals, splits);
        };
        launch(0); CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
        const double dist = rel_l2(y, yref, (long)n * s.rows);
        const double us = timer.us(launch);
        printf(" %s%d: %6.1f (%4.0f GB/s, %.1e)", splits == chosen ? "*" : "", splits, us, nbk * (WB + 2) / us / 1e3, dist);
      }
      if (n >= 16) {
        const int qt = ((s.rows + LS_MMQ_ROWS - 1) / LS_MMQ_ROWS) * ((n + LS_MMQ_COLS - 1) / LS_MMQ_COLS);
        const int qs = mmq_splits(qt, nb, sms);
        const double mmq_us = timer.us([&](int c) {
          dim3 grid((s.rows + LS_MMQ_ROWS - 1) / LS_MMQ_ROWS, (n + LS_MMQ_COLS - 1) / LS_MMQ_COLS, qs);
          if (q4) ls_mmq_q4_0<<<grid, LS_MMQ_THREADS>>>(ws[c % copies], wds[c % copies], xq, xd, y, s.rows, s.k, n, s.rows, 0, partials, arrivals, qs);
          else ls_mmq_q8_0<<<grid, LS_MMQ_THREADS>>>(ws[c % copies], wds[c % copies], xq, xd, y, s.rows, s.k, n, s.rows, 0, partials, arrivals, qs);
        });
        printf("  mmq %6.1f", mmq_us);
      }
      printf("\n");
    }
    for (int c = 0; c < copies; ++c) { cudaFree(ws[c]); cudaFree(wds[c]); }
    for (int c = 0; c < hcopies; ++c) cudaFree(whs[c]);
    cudaFree(xh); cudaFree(xq); cudaFree(xd); cudaFree(y); cudaFree(yref);
  }
  return 0;
}
