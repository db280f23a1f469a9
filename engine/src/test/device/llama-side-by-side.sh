#!/usr/bin/env bash
# On a GPU host without Java: this engine's GpuBenchmark and a current llama.cpp's llama-bench on
# the same synthetic models, in one run on one GPU. llama.cpp is built here from a source tarball
# (the public mirror github:ngxson/llama.cpp, trimmed of other backends, docs and the web UI):
#   cmake -B build -DGGML_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DLLAMA_CURL=OFF -DLLAMA_BUILD_UI=OFF
#         -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF
#   cmake --build build -j16 --target llama-bench llama-server
# while the models are written by bench/tools/synth_gguf.py (--arch); the measurements start after both.
# llama-bench runs tg128 and pp512 with flash attention on, 3 repetitions (LLAMA_BENCH_ARGS: other
# lengths, e.g. "-p 512,4096 -n 128 -r 3"); LLAMA_TARGETS="llama-bench" skips llama-server's build.
#
# usage: OUT=dir LLAMA_SRC=llama-src.tar.xz bash llama-side-by-side.sh ARCH:SHAPE:TYPE[:GPUBENCH_ARGS] ...
#   e.g. qwen3:qwen3-8b:q4_0 "qwen3moe:qwen3-30b-a3b:q4_0:--sequences 16,64 --generate 32"
# TYPE is one synth_gguf.py writes (q4_0, q8_0, f16, mxfp4), or any llama-quantize takes (q5_k_m,
# q3_k_m, ...): those are quantized from the shape's f16 file (written once) by the llama-quantize
# built here, as a user's files are made. PREPARE_ONLY=1: stop once llama.cpp is built and the
# models are written (a later run of the same specs then measures at once).
# The bundle beside it: jre25.tar.xz, lib/ (engine.jar, gpu-runtime.jar, kernels.jar, bench.jar),
# tools/synth_gguf.py and tools/ggml-vocab-llama-spm.gguf (engine/src/test/device/bundle.sh makes them).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$here/out}
models=${MODELS_DIR:-/tmp/llmserve-models}
llama=/tmp/llama-src
mkdir -p "$out" "$models"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$out/devices.txt" 2>&1

if [ ! -x "$llama/build/bin/llama-bench" ]; then
  (rm -rf "$llama" && mkdir -p /tmp && tar -C /tmp -xJf "${LLAMA_SRC:-$here/llama-src.tar.xz}" \
     && cd "$llama" && cmake -B build -DGGML_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DLLAMA_CURL=OFF -DLLAMA_BUILD_UI=OFF \
        -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DCMAKE_BUILD_TYPE=Release > "$out/llama-cmake.txt" 2>&1 \
     && cmake --build build -j16 --target ${LLAMA_TARGETS:-llama-bench llama-server llama-quantize} > "$out/llama-build.txt" 2>&1) &
fi

jre=/tmp/llmserve-jre
if [ ! -x "$jre/jre25/bin/java" ]; then
  mkdir -p "$jre" && tar -C "$jre" -xJf "$here/jre25.tar.xz"
fi
java="$jre/jre25/bin/java --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector -Xss4m"
lib=$here/lib

synth() {  # arch shape type
  local f="$models/$1-$2-$3.gguf"
  [ -s "$f" ] || python3 "${SYNTH:-$here/tools/synth_gguf.py}" --tokenizer-from "$here/tools/ggml-vocab-llama-spm.gguf" \
      --arch "$1" --shape "$2" --type "$3" --out "$f" >> "$out/synth.txt" 2>&1
}
written() {  # the type synth_gguf.py writes for TYPE: itself, or f16 to quantize from
  case "$1" in q4_0|q8_0|f16|mxfp4) echo "$1" ;; *) echo f16 ;; esac
}
declare -A writing
for spec in "$@"; do
  IFS=: read -r arch shape type _ <<< "$spec"
  key="$arch-$shape-$(written "$type")"
  [ -n "${writing[$key]:-}" ] || { synth "$arch" "$shape" "$(written "$type")" & writing[$key]=1; }
done
# everything measured runs on a quiet host: the engine's launches are host work too
echo "== writing the models and building llama.cpp $(date +%T)"
wait
cat "$out/synth.txt"
[ -x "$llama/build/bin/llama-bench" ] || { tail -30 "$out/llama-cmake.txt" "$out/llama-build.txt"; exit 1; }
for spec in "$@"; do
  IFS=: read -r arch shape type _ <<< "$spec"
  f="$models/$arch-$shape-$type.gguf"
  if [ "$(written "$type")" != "$type" ] && [ ! -s "$f" ]; then
    echo "== llama-quantize $shape ${type^^} $(date +%T)"
    "$llama/build/bin/llama-quantize" "$models/$arch-$shape-f16.gguf" "$f" "${type^^}" 16 > "$out/quantize-$shape-$type.txt" 2>&1 \
      || { tail -20 "$out/quantize-$shape-$type.txt"; exit 1; }
    tail -4 "$out/quantize-$shape-$type.txt"
  fi
  ls -l "$f"
done
[ -z "${PREPARE_ONLY:-}" ] || exit 0

for spec in "$@"; do
  IFS=: read -r arch shape type args <<< "$spec"
  echo "== this engine: $arch $shape $type $(date +%T)"
  # shellcheck disable=SC2086
  timeout ${BENCH_TIMEOUT:-300} $java -cp "$lib/kernels.jar:$lib/gpu-runtime.jar:$lib/engine.jar:$lib/bench.jar" \
    com.llmserve.bench.GpuBenchmark --model "$models/$arch-$shape-$type.gguf=$shape-$type" $args 2>&1 \
    | tee "$out/engine-$shape-$type.txt"
done

for spec in "$@"; do
  IFS=: read -r arch shape type _ <<< "$spec"
  echo "== llama.cpp: $arch $shape $type $(date +%T)"
  timeout ${BENCH_TIMEOUT:-300} "$llama/build/bin/llama-bench" -m "$models/$arch-$shape-$type.gguf" -ngl 99 -fa 1 \
    ${LLAMA_BENCH_ARGS:--p 512 -n 128 -r 3} 2>&1 | tee "$out/llama-$shape-$type.txt"
done
