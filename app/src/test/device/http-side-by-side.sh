#!/usr/bin/env bash
# On a GPU host without Java: this service and a current llama.cpp's llama-server on the same
# synthetic models, one server at a time on one GPU, measured through HTTP by openai_load.py with the
# same load: 100-word (~114-token) prompts, 128 tokens generated with ignore_eos, streaming, 1 and 64
# concurrent streams (64 requests per level). llama-server runs with flash attention, every layer on
# the GPU, 64 slots of 512 tokens; the service with the settings of bench-http.sh.
# llama.cpp is built here from a source tarball, as llama-side-by-side.sh builds it.
#
# usage: OUT=dir bash http-side-by-side.sh ARCH:SHAPE:TYPE ...
#          e.g. qwen3:qwen3-8b:q4_0 qwen3moe:qwen3-30b-a3b:q4_0
#        BACKEND=cpu LLAMA_DIR=<a CPU build> ... to try it on a machine without a GPU
#        BUILD_ONLY=1 LLAMA_SRC=llama-src.tar.xz ...  a first call that only builds llama.cpp and writes
#                    the models (the machine keeps them while warm); the next call measures
# The service's bundle is in /tmp/llmserve-bench (bench-http.sh keep, plus app.jar); the models are
# written by this checkout's bench/tools/synth_gguf.py (--arch).
# Results in $OUT: http-<server>-<shape>-<type>.md, each the load's report.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../../.." && pwd)
out=${OUT:-$here/out}
keep=/tmp/llmserve-bench
llama=${LLAMA_DIR:-/tmp/llama-src}
models=${MODELS_DIR:-/tmp/llmserve-models}
mkdir -p "$out" "$models"
log=/tmp/http-side-by-side-logs
mkdir -p "$log"

if [ ! -x "$llama/build/bin/llama-server" ]; then
  (rm -rf "$llama" && tar -C "$(dirname "$llama")" -xJf "${LLAMA_SRC:?no llama.cpp build and no LLAMA_SRC}" \
     && cd "$llama" && cmake -B build -DGGML_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DLLAMA_CURL=OFF -DLLAMA_BUILD_UI=OFF \
        -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DCMAKE_BUILD_TYPE=Release > "$log/llama-cmake.txt" 2>&1 \
     && cmake --build build -j16 --target llama-server > "$log/llama-build.txt" 2>&1) &
fi
for spec in "$@"; do
  IFS=: read -r arch shape type <<< "$spec"
  f="$models/$arch-$shape-$type.gguf"
  [ -s "$f" ] || python3 "$repo/bench/tools/synth_gguf.py" --tokenizer-from "$keep/tools/ggml-vocab-llama-spm.gguf" \
      --arch "$arch" --shape "$shape" --type "$type" --out "$f" > "$log/synth-$shape.txt" 2>&1 &
done
wait
[ -x "$llama/build/bin/llama-server" ] || { tail -30 "$log/llama-cmake.txt" "$log/llama-build.txt"; exit 1; }
ls -la "$models"
[ -n "${BUILD_ONLY:-}" ] && exit 0

jre=/tmp/llmserve-boot-jre
if [ ! -x "$jre/jre25/bin/java" ]; then
  mkdir -p "$jre" && tar -C "$jre" -xJf "$keep/jre25-boot.tar.xz"
fi

wait_ready() {  # url pid log
  for _ in $(seq 1 300); do
    curl -sf "$1" >/dev/null && return 0
    kill -0 "$2" 2>/dev/null || { echo "server exited"; tail -20 "$3"; return 1; }
    sleep 1
  done
  echo "not ready in 300 s"; tail -20 "$3"; return 1
}

measure() {  # server shape type model-id port
  python3 "$keep/tools/openai_load.py" --url "http://127.0.0.1:$5" --model "$4" --concurrency "${CONCURRENCY:-1,64}" \
    --prompt-words 100 --max-tokens 128 --extra '{"ignore_eos": true}' | tee "$out/http-$1-$2-$3.md"
}

for spec in "$@"; do
  IFS=: read -r arch shape type <<< "$spec"
  f="$models/$arch-$shape-$type.gguf"
  id=$arch-$shape-$type

  echo "== llama-server: $shape $type $(date +%T)"
  "$llama/build/bin/llama-server" -m "$f" -ngl 99 -fa on --port 8099 -np 64 -c 32768 --no-webui \
    > "$log/llama-server-$shape.txt" 2>&1 &
  server=$!
  wait_ready http://127.0.0.1:8099/health $server "$log/llama-server-$shape.txt" && measure llama "$shape" "$type" "$id" 8099
  kill $server; wait $server 2>/dev/null

  echo "== this service: $shape $type $(date +%T)"
  served=$keep/side-by-side-models
  rm -rf "$served" && mkdir -p "$served" && ln -s "$f" "$served/"
  "$jre/jre25/bin/java" --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -Xmx8g -jar "$keep/app.jar" \
    --server.port=18080 --llmserve.models-dir="$served" --llmserve.backend="${BACKEND:-gpu}" --llmserve.failover.cpu-fallback=never \
    --llmserve.engine.kv-blocks=4096 --llmserve.engine.max-running=128 --llmserve.engine.max-waiting=1024 \
    > "$log/service-$shape.txt" 2>&1 &
  server=$!
  wait_ready http://127.0.0.1:18080/actuator/health/readiness $server "$log/service-$shape.txt" \
    && measure llmserve "$shape" "$type" "$id" 18080
  kill $server; wait $server 2>/dev/null
done
