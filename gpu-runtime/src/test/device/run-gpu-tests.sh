#!/usr/bin/env bash
# Runs on a GPU host (no Java needed): the cuBLAS/NVML/NCCL binding checks against its CUDA toolkit,
# then every gpu-tagged test. Results go to $OUT (default: ./out beside this script):
#   binding-checks.txt, junit.txt (tree + test output), junit/ (XML), gpu-report.txt (figures).
# RUNTIME=hip: the tests on the HIP backend over hip-on-cuda, the test library translating HIP to
# CUDA, built here from native/ (docs/amd.md); its results, with hip-on-cuda-calls.tsv and
# hip-on-cuda-uncalled.txt, go to $OUT/hip. RUNTIME=cuda: CUDA forced. RUNTIME=both: each.
# TESTS=<regex>: only the test classes whose full name matches (e.g. '.*CollectivesGpuTests').
# NCCL: LLMSERVE_NCCL_LIBRARY, else found through python3's nvidia.nccl (see below); nccl.txt says which.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$here/out}
mkdir -p "$out"
status=0

{ nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv; } > "$out/devices.txt" 2>&1 || true

. "$here/nccl-env.sh"
echo "NCCL: ${LLMSERVE_NCCL_LIBRARY:-not found (no python3 nvidia.nccl): the collectives tests skip}; nccl.h checked: ${NCCL_INCLUDE:-the vendored 2.29.7}; NCCL_NVLS_ENABLE=$NCCL_NVLS_ENABLE" | tee "$out/nccl.txt"

if bash "$here/binding-checks/check.sh" > "$out/binding-checks.txt" 2>&1; then
  echo "binding checks: passed" | tee -a "$out/binding-checks.txt"
else
  echo "binding checks: FAILED" | tee -a "$out/binding-checks.txt"
  status=1
fi

work=$(mktemp -d)
tar -C "$work" -xzf "$here/jre25.tar.gz"
lib=$here/lib
cp="$lib/kernels.jar:$lib/gpu-runtime.jar:$lib/gpu-runtime-tests.jar:$lib/assertj-core.jar:$lib/byte-buddy.jar"
run_junit() {  # results-dir [java options...]
  local dir=$1; shift
  mkdir -p "$dir"
  "$work/jre25/bin/java" --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector -Xss4m \
    -Dllmserve.gpu.report="$dir/gpu-report.txt" "$@" \
    -jar "$lib/junit-platform-console-standalone.jar" execute \
    --class-path "$cp" --scan-class-path "$lib/gpu-runtime-tests.jar" --include-tag gpu \
    ${TESTS:+--include-classname "$TESTS"} \
    --details tree --disable-banner --reports-dir "$dir/junit" > "$dir/junit.txt" 2>&1
  local junit_status=$?
  [ $junit_status -eq 0 ] || status=1
  grep -E "tests (successful|failed|skipped|aborted)" "$dir/junit.txt" || tail -40 "$dir/junit.txt"
  cat "$dir/gpu-report.txt" 2>/dev/null
}
run_hip() {  # results-dir
  local dir=$1 hoc=/tmp/llmserve-hip-on-cuda src=$here/native/hip-on-cuda
  mkdir -p "$dir"
  [ ! -f "$here/native/drm/libdrm/drm.h" ] || export DRM_INCLUDE="$here/native/drm"
  rm -f "$dir/hip-on-cuda-build.txt" "$dir/hip-on-cuda-calls.tsv" "$dir/hip-on-cuda-calls.tsv.first"
  bash "$src/device-setup.sh" "$hoc" "$lib/kernels.jar" "$dir/hip-on-cuda-build.txt" || { status=1; return; }
  LD_LIBRARY_PATH="$hoc/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" HIP_ON_CUDA_CUBIN_DIR="$hoc/cubins" \
    HIP_ON_CUDA_TRACE="$dir/hip-on-cuda-calls.tsv" run_junit "$dir" -Dllmserve.test.gpu-runtime=hip
  python3 "$src/coverage.py" "$src/symbols.def" "$dir/hip-on-cuda-calls.tsv" "$dir/hip-on-cuda-calls.tsv.first" \
    > "$dir/hip-on-cuda-uncalled.txt"
}
case "${RUNTIME:-}" in
  "") run_junit "$out" ;;
  cuda) run_junit "$out/cuda" -Dllmserve.test.gpu-runtime=cuda ;;
  hip) run_hip "$out/hip" ;;
  both) run_junit "$out/cuda" -Dllmserve.test.gpu-runtime=cuda; run_hip "$out/hip" ;;
  *) echo "RUNTIME must be cuda, hip or both, not $RUNTIME"; status=1 ;;
esac
rm -rf "$work"
exit $status
