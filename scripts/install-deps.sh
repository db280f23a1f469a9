#!/usr/bin/env bash
# System packages the build and tests need. Safe to run again: installs only what is missing.
set -euo pipefail
packages=(
  # kernels: HSACO code objects for gfx90a/gfx942/gfx1100 (clang-19 + lld-19, llvm-readelf-19
  # checks their symbols); nvcc comes with the machine.
  clang-19 lld-19 llvm-19
  # gpu-runtime: the real HIP runtime, loaded in CI to prove the no-device path, and libdrm's
  # headers, which rocm_smi.h includes when the bindings are checked against it.
  libamdhip64-5 libdrm-dev
  # e2e: a Docker engine to build and run the CPU image, and debootstrap for its base images
  # (no registry can be reached)
  docker.io debootstrap
  # helm: promtool checks and unit-tests the chart's alerting rules
  prometheus
  # engine tests: bench/tools/synth_gguf.py writes the test models made from a recipe
  # (engine/src/test/resources/llama-cpp/synthesized-models.tsv)
  python3-numpy
)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
