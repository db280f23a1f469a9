#!/usr/bin/env bash
# On a GPU host without Java: the gpu-tagged engine tests (op parity, model parity against the CPU
# backend and llama.cpp's goldens), then the benchmark on synthetic 8B/1B models written here.
# Results in $OUT: devices.txt, junit.txt, junit/ (XML), gpu-report.txt, bench.txt.
#
# usage: OUT=dir bash run-device.sh [tests|bench|all]   (default all)
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
java="$jre/jre25/bin/java --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector -Xss4m"
lib=$here/lib
main_cp="$lib/kernels.jar:$lib/gpu-runtime.jar:$lib/engine.jar:$lib/bench.jar"

synth() {  # shape type file
  [ -s "$models/$3" ] || python3 "$here/tools/synth_gguf.py" --tokenizer-from "$here/tools/ggml-vocab-llama-spm.gguf" \
      --shape "$1" --type "$2" --out "$models/$3" > "$out/synth-$3.txt" 2>&1
}
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
  tiny="$here/shared/models/tiny-F16.gguf"
  [ -s "$tiny" ] || [ ! -s "$here/shared/models/stories260K.gguf" ] || python3 "$here/tools/synth_gguf.py" --tokenizer-from "$here/shared/models/stories260K.gguf" \
      --shape tiny --type f16 --seed 0 --out "$tiny" > "$out/synth-tiny.txt" 2>&1
  [ ! -s "$tiny" ] || echo "945ffb14fb9c51ebc9f9c91a11edc9860b20cc1aacee13fe7b45ac75923793c2  $tiny" | sha256sum -c - \
    >> "$out/synth-tiny.txt" 2>&1 || { echo "tiny-F16.gguf differs from shared/models' copy"; rm -f "$tiny"; }
  cp="$main_cp:$lib/slf4j-api.jar:$lib/gpu-runtime-tests.jar:$lib/engine-tests.jar:$lib/assertj-core.jar:$lib/byte-buddy.jar:$lib/jackson-core.jar:$lib/jackson-databind.jar:$lib/jackson-annotations.jar"
  echo "tests start $(date +%T)"
  # TEST_JAVA_OPTS: system properties for the tests, e.g. -Dparity.only=gpt-oss (the goldens of one model)
  timeout ${TEST_TIMEOUT:-300} $java -Dllmserve.shared.dir="$here/shared" ${TEST_JAVA_OPTS:-} -jar "$lib/junit-platform-console-standalone.jar" execute \
    --class-path "$cp" --include-tag gpu \
    $(for c in ${TEST_CLASSES:-backend.gpu.GpuBackendTests model.GpuModelParityTests model.GpuGoldenParityTests sched.GpuConstrainedDecodingTests}; do
        echo "--select-class com.llmserve.engine.$c"; done) \
    --details tree --disable-banner --reports-dir "$out/junit" > "$out/junit.txt" 2>&1 || status=1
  grep -h "\[gpu-report\]\|^parity" "$out/junit.txt" > "$out/gpu-report.txt"
  grep -E "tests (successful|failed|skipped|aborted)" "$out/junit.txt" || tail -60 "$out/junit.txt"
  grep -B2 -A12 "✘" "$out/junit.txt" | head -150
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
