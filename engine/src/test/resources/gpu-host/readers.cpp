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
  if (!known) return 4;
  FILE* o = fopen(argv[5], "wb");
  if (!o) return 5;
  fwrite(out.data(), sizeof(float), out.size(), o);
  fclose(o);
  return 0;
}
