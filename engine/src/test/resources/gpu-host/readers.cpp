// usage: readers <format> <rows> <k> <raw blocks> <out floats>: every row of a weight in GGML's
// layout read eight elements at a time by ls_formats.h's reader of the format (ls_deq8_<format>).
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "ls_formats.h"

int main(int argc, char** argv) {
  if (argc != 6) return 2;
  const std::string format = argv[1];
  const long rows = atol(argv[2]);
  const int k = atoi(argv[3]);
  FILE* in = fopen(argv[4], "rb");
  if (!in) return 3;
  std::vector<uint8_t> raw;
  uint8_t buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, in)) > 0) raw.insert(raw.end(), buf, buf + n);
  fclose(in);
  raw.resize(raw.size() + 16);  // ls_load16 past a short tail
  std::vector<float> out((size_t)rows * k);
  bool known = false;
#define LS_READ_ALL(name, deq8)                                                         \
  if (format == #name) {                                                                \
    known = true;                                                                       \
    for (long r = 0; r < rows; ++r)                                                     \
      for (int e = 0; e < k; e += 8) deq8(raw.data(), nullptr, r, k, e, &out[r * k + e]); \
  }
  LS_FOR_EACH_FORMAT(LS_READ_ALL)
  // iq_<format>: the integer GEMV's unpacking (ls_iq_unpack), each element then dequantized as the
  // CPU does, from the unpacked int8 value and the unpacked d and m.
#define LS_READ_IQ(name, fmt)                                                        \
  if (format == "iq_" #name) {                                                       \
    known = true;                                                                    \
    for (long blk = 0; blk < rows * (k / 32); ++blk) {                               \
      float d, m;                                                                    \
      int lo[4], hi[4];                                                              \
      ls_iq_unpack<fmt, 4>(raw.data() + blk * LS_IQ_BLOCK_BYTES(fmt), 0, &d, &m, lo, hi); \
      for (int e = 0; e < 32; ++e) {                                                 \
        const int word = e < 16 ? lo[e / 4] : hi[(e - 16) / 4];                      \
        const int q = (int)(int8_t)(word >> (8 * (e % 4)));                          \
        out[blk * 32 + e] = fmt == LS_IQ_Q5_0 ? (float)(q - 16) * d : (float)q * d + m; \
      }                                                                              \
    }                                                                                \
  }
  LS_READ_IQ(q4_1, LS_IQ_Q4_1)
  LS_READ_IQ(q5_0, LS_IQ_Q5_0)
  LS_READ_IQ(q5_1, LS_IQ_Q5_1)
  if (!known) return 4;
  FILE* o = fopen(argv[5], "wb");
  if (!o) return 5;
  fwrite(out.data(), sizeof(float), out.size(), o);
  fclose(o);
  return 0;
}
