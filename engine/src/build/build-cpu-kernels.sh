#!/usr/bin/env bash
# Compiles the native CPU kernels (src/main/c/llmserve_cpu.c) into the engine jar's resources:
#   <res>/com/llmserve/engine/backend/cpu/native/linux-x86_64/libllmserve_cpu.so
# One library for every x86-64 processor: each instruction-set variant (AVX-512 VNNI, AVX-VNNI,
# AVX2) is compiled with a target attribute and chosen at run time (ls_cpu_isa). It links without
# libc, so it loads on any glibc or musl Linux.
#
# CPU_KERNELS_CC overrides the compiler (default clang-19, which scripts/install-deps.sh installs);
# CPU_KERNELS=skip (-Dcpu-kernels=skip) builds none, and the engine then runs its Java kernels.
# Incremental: the library is rebuilt only when the source or this script is newer.
#
# usage: build-cpu-kernels.sh <c-source-dir> <resource-out-dir>
set -euo pipefail
src=$1
out_dir=$2/com/llmserve/engine/backend/cpu/native/linux-x86_64
out=$out_dir/libllmserve_cpu.so
CC=${CPU_KERNELS_CC:-clang-19}

if [ "${CPU_KERNELS:-build}" = skip ]; then
  echo "build-cpu-kernels: CPU_KERNELS=skip: no native CPU kernels (the Java kernels will run)"
  rm -f "$out"
  exit 0
fi
command -v "$CC" >/dev/null 2>&1 \
  || { echo "build-cpu-kernels: '$CC' not found: install clang-19 (scripts/install-deps.sh), set CPU_KERNELS_CC, or build with -Dcpu-kernels=skip" >&2; exit 1; }

mkdir -p "$out_dir"
if [ -f "$out" ] && [ ! "$src/llmserve_cpu.c" -nt "$out" ] && [ ! "${BASH_SOURCE[0]}" -nt "$out" ]; then
  exit 0
fi
echo "build-cpu-kernels: $CC -> $out"
"$CC" --target=x86_64-linux-gnu -O3 -std=c11 -fPIC -shared -nostdlib -fno-stack-protector -fvisibility=hidden \
  -Wall -Wextra -Werror "$src/llmserve_cpu.c" -o "$out.tmp"
mv "$out.tmp" "$out"
