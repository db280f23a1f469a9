#!/usr/bin/env bash
# Runs on a GPU host (no Java needed): the cuBLAS/NVML binding checks against its CUDA toolkit,
# then every gpu-tagged test. Results go to $OUT (default: ./out beside this script):
#   binding-checks.txt, junit.txt (tree + test output), junit/ (XML), gpu-report.txt (figures).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$here/out}
mkdir -p "$out"
status=0

{ nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv; } > "$out/devices.txt" 2>&1 || true

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
"$work/jre25/bin/java" --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector -Xss4m \
  -Dllmserve.gpu.report="$out/gpu-report.txt" \
  -jar "$lib/junit-platform-console-standalone.jar" execute \
  --class-path "$cp" --scan-class-path "$lib/gpu-runtime-tests.jar" --include-tag gpu \
  --details tree --disable-banner --reports-dir "$out/junit" > "$out/junit.txt" 2>&1
junit_status=$?
[ $junit_status -eq 0 ] || status=1
grep -E "tests (successful|failed|skipped|aborted)" "$out/junit.txt" || tail -40 "$out/junit.txt"
cat "$out/gpu-report.txt" 2>/dev/null
rm -rf "$work"
exit $status
