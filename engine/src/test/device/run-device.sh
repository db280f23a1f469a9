#!/usr/bin/env bash
# On a GPU host without Java: the gpu-tagged engine tests (op parity, model parity against the CPU
# backend and llama.cpp's goldens), then the benchmark on synthetic 8B/1B models written here.
# Results in $OUT: devices.txt, junit.txt, junit/ (XML), gpu-report.txt, bench.txt.
#
# usage: OUT=dir bash run-device.sh [tests|bench|all|tp]   (default all)
#
# RUNTIME picks the GPU runtime of the tests (unset: auto, results in $OUT as above):
#   RUNTIME=cuda  the CUDA backend, forced; results in $OUT/cuda/
#   RUNTIME=hip   the HIP backend over hip-on-cuda, the test-only translation library built here from
#                 the bundle's sources (docs/amd.md, "HIP by translation"); results in $OUT/hip/, with
#                 hip-on-cuda-calls.tsv (calls per bound HIP/rocBLAS/MIOpen/rocm-smi symbol) and
#                 hip-on-cuda-uncalled.txt
#   RUNTIME=both  cuda, then hip
# With RUNTIME set, gpu-runtime's own GPU tests (com.llmserve.gpu, tag gpu) run too (GPU_RUNTIME_TESTS=0: not).
#
# OUT=dir bash run-device.sh tp   on a host of 2 GPUs or more: the tensor-parallel parity tests
#   (GpuTensorParallelParityTests, and gpu-runtime's, CollectivesGpuTests among them) while a synthetic
#   70B-shape Q4_0 is written, then GpuBenchmark on it whole on GPU 0 and split over GPUs 0 and 1
#   (TP_BENCH_ARGS: the benchmark's options), then SplitParity (the split's greedy tokens and
#   log-probabilities against the whole model's); results in $OUT/tp/
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$here/out}
what=${1:-all}
models=${MODELS_DIR:-/tmp/llmserve-models}
mkdir -p "$out" "$models"
status=0
{ nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv; } > "$out/devices.txt" 2>&1 || true

jre=/tmp/llmserve-jre
if [ ! -x "$jre/jre25/bin/java" ]; then
  mkdir -p "$jre"
  if command -v xz >/dev/null; then tar -C "$jre" -xJf "$here/jre25.tar.xz"
  else python3 -c "import tarfile,sys; tarfile.open(sys.argv[1]).extractall(sys.argv[2])" "$here/jre25.tar.xz" "$jre"; fi
fi
[ ! -f "$here/nccl-env.sh" ] || . "$here/nccl-env.sh" > /dev/null
java="$jre/jre25/bin/java --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector -Xss4m"
lib=$here/lib
main_cp="$lib/kernels.jar:$lib/gpu-runtime.jar:$lib/engine.jar:$lib/bench.jar"

synth() {  # shape type file
  [ -s "$models/$3" ] || python3 "$here/tools/synth_gguf.py" --tokenizer-from "$here/tools/ggml-vocab-llama-spm.gguf" \
      --shape "$1" --type "$2" --out "$models/$3" > "$out/synth-$3.txt" 2>&1
}
if [ "$what" = tp ]; then
  (synth llama-70b q4_0 llama-70b-q4_0.gguf) &
  synth_70b=$!
  TEST_CLASSES=${TEST_CLASSES:-model.GpuTensorParallelParityTests} RUNTIME=${RUNTIME:-cuda} OUT="$out/tp" \
    bash "$0" tests || status=1
  echo "70B model $(date +%T)"; wait $synth_70b; cat "$out"/synth-*.txt
  for tp in 1 2; do
    echo "benchmark tensor-parallel $tp start $(date +%T)"
    timeout ${BENCH_TIMEOUT:-400} $java -cp "$main_cp" com.llmserve.bench.GpuBenchmark --tensor-parallel $tp \
      --model "$models/llama-70b-q4_0.gguf=70B-Q4_0" ${TP_BENCH_ARGS:---decode-steps 64 --prefill 512 --sequences 16,64 --prompt 128 --generate 32} \
      2>&1 | tee "$out/tp/bench-tp$tp.txt" || status=1
  done
  echo "split against whole start $(date +%T)"
  timeout ${BENCH_TIMEOUT:-400} $java -cp "$main_cp" com.llmserve.bench.SplitParity --tensor-parallel 2 \
    --model "$models/llama-70b-q4_0.gguf" 2>&1 | tee "$out/tp/split-parity.txt" || status=1
  exit $status
fi

if [ "$what" != tests ]; then
  # written while the tests run: several GB each
  (synth llama-8b q4_0 llama-8b-q4_0.gguf; synth llama-8b q8_0 llama-8b-q8_0.gguf) &
  synth_8b=$!
  (synth llama-1b q4_0 llama-1b-q4_0.gguf) &
  synth_1b=$!
fi

if [ "$what" != bench ]; then
  # the engine module's own test models, from the checkout the call runs in (the bundle has their goldens)
  # (the bundle usually lies in the checkout's .device/<name>/)
  repo=${LLMSERVE_REPO:-$(cd "$here/../.." && pwd)}
  own=$repo/engine/src/test/resources/llama-cpp/models
  [ ! -d "$own" ] || cp --update=none "$own/"*.gguf "$here/shared/models/"
  # and the ones made from a recipe (synthesized-models.tsv), checked against their sha256
  recipes=$repo/engine/src/test/resources/llama-cpp/synthesized-models.tsv
  if [ -f "$recipes" ] && [ -s "$here/shared/models/stories260K.gguf" ]; then
    grep -v '^#' "$recipes" | while IFS=$'\t' read -r file sha args; do
      [ -s "$here/shared/models/$file" ] && continue
      # shellcheck disable=SC2086  # the recipe's arguments, split as written
      python3 "$repo/bench/tools/synth_gguf.py" --tokenizer-from "$here/shared/models/stories260K.gguf" \
        --out "$here/shared/models/$file" $args > "$out/synth-$file.txt" 2>&1
      echo "$sha  $here/shared/models/$file" | sha256sum -c - >> "$out/synth-$file.txt" 2>&1 \
        || { echo "$file differs from its recipe's sha256"; rm -f "$here/shared/models/$file"; }
    done
  fi
  tiny="$here/shared/models/tiny-F16.gguf"
  [ -s "$tiny" ] || [ ! -s "$here/shared/models/stories260K.gguf" ] || python3 "$here/tools/synth_gguf.py" --tokenizer-from "$here/shared/models/stories260K.gguf" \
      --shape tiny --type f16 --seed 0 --out "$tiny" > "$out/synth-tiny.txt" 2>&1
  [ ! -s "$tiny" ] || echo "945ffb14fb9c51ebc9f9c91a11edc9860b20cc1aacee13fe7b45ac75923793c2  $tiny" | sha256sum -c - \
    >> "$out/synth-tiny.txt" 2>&1 || { echo "tiny-F16.gguf differs from shared/models' copy"; rm -f "$tiny"; }
  cp="$main_cp:$lib/slf4j-api.jar:$lib/gpu-runtime-tests.jar:$lib/engine-tests.jar:$lib/assertj-core.jar:$lib/byte-buddy.jar:$lib/jackson-core.jar:$lib/jackson-databind.jar:$lib/jackson-annotations.jar"
  run_tests() {  # results-dir [java options...]
    local dir=$1; shift
    mkdir -p "$dir"
    local select=""
    for c in ${TEST_CLASSES:-backend.gpu.GpuBackendTests model.GpuModelParityTests model.GpuGoldenParityTests model.GpuKvQ8ParityTests sched.GpuConstrainedDecodingTests}; do
      select="$select --select-class com.llmserve.engine.$c"; done
    [ -z "${RUNTIME:-}" ] || [ "${GPU_RUNTIME_TESTS:-1}" = 0 ] || select="--select-package com.llmserve.gpu $select"
    echo "tests start $(date +%T) (${RUNTIME:-auto}: $dir)"
    # TEST_JAVA_OPTS: system properties for the tests, e.g. -Dparity.only=gpt-oss (the goldens of one model)
    timeout ${TEST_TIMEOUT:-300} $java -Dllmserve.shared.dir="$here/shared" "$@" ${TEST_JAVA_OPTS:-} -jar "$lib/junit-platform-console-standalone.jar" execute \
      --class-path "$cp" --include-tag gpu $select \
      --details tree --disable-banner --reports-dir "$dir/junit" > "$dir/junit.txt" 2>&1 || status=1
    grep -h "\[gpu-report\]\|^parity\|^kv-q8" "$dir/junit.txt" > "$dir/gpu-report.txt"
    grep -E "tests (successful|failed|skipped|aborted)" "$dir/junit.txt" || tail -60 "$dir/junit.txt"
    grep -B2 -A12 "✘" "$dir/junit.txt" | head -150
  }

  # hip-on-cuda: built here with the host's C compiler (no CUDA header or library needed), its C
  # check run, the kernels jar's cubins unpacked for it (it loads them in place of the HSACO).
  run_hip_tests() {  # results-dir
    local dir=$1 hoc=/tmp/llmserve-hip-on-cuda
    mkdir -p "$dir"
    local src=$here/native/hip-on-cuda
    [ -f "$src/build.sh" ] || src=$repo/gpu-runtime/src/test/native/hip-on-cuda
    [ ! -f "$here/native/drm/libdrm/drm.h" ] || export DRM_INCLUDE="$here/native/drm"
    rm -f "$dir/hip-on-cuda-build.txt"
    bash "$src/device-setup.sh" "$hoc" "$lib/kernels.jar" "$dir/hip-on-cuda-build.txt" || { status=1; return; }
    rm -f "$dir/hip-on-cuda-calls.tsv" "$dir/hip-on-cuda-calls.tsv.first"
    LD_LIBRARY_PATH="$hoc/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" HIP_ON_CUDA_CUBIN_DIR="$hoc/cubins" \
      HIP_ON_CUDA_TRACE="$dir/hip-on-cuda-calls.tsv" run_tests "$dir" -Dllmserve.test.gpu-runtime=hip
    python3 "$src/coverage.py" "$src/symbols.def" "$dir/hip-on-cuda-calls.tsv" "$dir/hip-on-cuda-calls.tsv.first" \
      > "$dir/hip-on-cuda-uncalled.txt"
  }

  case "${RUNTIME:-}" in
    "") run_tests "$out" ;;
    cuda) run_tests "$out/cuda" -Dllmserve.test.gpu-runtime=cuda ;;
    hip) run_hip_tests "$out/hip" ;;
    both) run_tests "$out/cuda" -Dllmserve.test.gpu-runtime=cuda; run_hip_tests "$out/hip" ;;
    *) echo "RUNTIME must be cuda, hip or both, not $RUNTIME"; status=1 ;;
  esac
fi

if [ "$what" != tests ]; then
  echo "benchmark models $(date +%T)"
  wait $synth_1b $synth_8b
  cat "$out"/synth-*.txt
  echo "benchmark start $(date +%T)"
  timeout ${BENCH_TIMEOUT:-400} $java -cp "$main_cp" com.llmserve.bench.GpuBenchmark \
    --model "$models/llama-8b-q4_0.gguf=8B-Q4_0:257,10541,2673" \
    --model "$models/llama-8b-q8_0.gguf=8B-Q8_0:215,10825" \
    --model "$models/llama-1b-q4_0.gguf=1B-Q4_0:695,44651" ${BENCH_ARGS:-} 2>&1 | tee "$out/bench.txt" || status=1
  if [ -n "${BENCH2_ARGS:-}" ]; then  # a second configuration on the 8B Q4_0, e.g. --half-weights or --host-argmax
    echo "benchmark 2 start $(date +%T): $BENCH2_ARGS"
    timeout ${BENCH_TIMEOUT:-400} $java -cp "$main_cp" com.llmserve.bench.GpuBenchmark \
      --model "$models/llama-8b-q4_0.gguf=8B-Q4_0:257,10541,2673" $BENCH2_ARGS 2>&1 | tee "$out/bench2.txt" || status=1
  fi
fi
exit $status
