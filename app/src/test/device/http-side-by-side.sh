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
#        LONG_PROMPT_WORDS=3500 ...  then, on each server, 8 requests one after the other with prompts of
#                    that many words (~4k tokens) and 8 tokens generated: the time to the first token
#                    of a long prompt (llama-server restarted with one slot of 8192 tokens for it: its
#                    64 slots of 512 cannot hold such a prompt)
#        LLAMA=0 SERVICE_ARGS="--llmserve.gpu.half-weights=off" TAG=-half-off ...  this service only,
#                    with more arguments, its reports named with the tag
# The service's bundle is in /tmp/llmserve-bench (bench-http.sh keep, plus app.jar); the models are
# written by this checkout's bench/tools/synth_gguf.py (--arch).
# Results in $OUT: http-<server>-<shape>-<type>[-long].md, each the load's report.
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
    --prompt-words 100 --max-tokens 128 --extra '{"ignore_eos": true}' | tee "$out/http-$1-$2-$3${TAG:-}.md"
}

measure_long() {  # server shape type model-id port
  [ -n "${LONG_PROMPT_WORDS:-}" ] || return 0
  echo "-- prompts of $LONG_PROMPT_WORDS words: $(prompt_tokens "$4" "$5") tokens (as the server counts them)"
  python3 "$keep/tools/openai_load.py" --url "http://127.0.0.1:$5" --model "$4" --concurrency 1 --requests 8 \
    --prompt-words "$LONG_PROMPT_WORDS" --max-tokens 8 --extra '{"ignore_eos": true}' | tee "$out/http-$1-$2-$3${TAG:-}-long.md"
}

prompt_tokens() {  # model-id port: a long prompt's tokens from the usage of a one-token completion
  python3 - "$keep/tools" "$1" "$2" "$LONG_PROMPT_WORDS" <<'PY'
import json, sys, urllib.request
sys.path.insert(0, sys.argv[1]); import openai_load
body = json.dumps({"model": sys.argv[2], "max_tokens": 1, "prompt": openai_load.prompt_text(int(sys.argv[4]), 99)}).encode()
req = urllib.request.Request(f"http://127.0.0.1:{sys.argv[3]}/v1/completions", body, {"Content-Type": "application/json"})
print(json.load(urllib.request.urlopen(req, timeout=120))["usage"]["prompt_tokens"])
PY
}

for spec in "$@"; do
  IFS=: read -r arch shape type <<< "$spec"
  f="$models/$arch-$shape-$type.gguf"
  id=$arch-$shape-$type

  if [ "${LLAMA:-1}" != 0 ]; then
    echo "== llama-server: $shape $type $(date +%T)"
    "$llama/build/bin/llama-server" -m "$f" -ngl 99 -fa on --port 8099 -np 64 -c 32768 --no-webui \
      > "$log/llama-server-$shape.txt" 2>&1 &
    server=$!
    wait_ready http://127.0.0.1:8099/health $server "$log/llama-server-$shape.txt" && measure llama "$shape" "$type" "$id" 8099
    kill $server; wait $server 2>/dev/null
    if [ -n "${LONG_PROMPT_WORDS:-}" ]; then
      "$llama/build/bin/llama-server" -m "$f" -ngl 99 -fa on --port 8099 -np 1 -c 8192 --no-webui \
        > "$log/llama-server-$shape-long.txt" 2>&1 &
      server=$!
      wait_ready http://127.0.0.1:8099/health $server "$log/llama-server-$shape-long.txt" && measure_long llama "$shape" "$type" "$id" 8099
      kill $server; wait $server 2>/dev/null
    fi
  fi

  echo "== this service: $shape $type $(date +%T)"
  served=$keep/side-by-side-models
  rm -rf "$served" && mkdir -p "$served" && ln -s "$f" "$served/"
  "$jre/jre25/bin/java" --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -Xmx8g -jar "$keep/app.jar" \
    --server.port=18080 --llmserve.models-dir="$served" --llmserve.backend="${BACKEND:-gpu}" --llmserve.failover.cpu-fallback=never \
    --llmserve.engine.kv-blocks=4096 --llmserve.engine.max-running=128 --llmserve.engine.max-waiting=1024 \
    ${SERVICE_ARGS:-} > "$log/service-$shape${TAG:-}.txt" 2>&1 &
  server=$!
  wait_ready http://127.0.0.1:18080/actuator/health/readiness $server "$log/service-$shape${TAG:-}.txt" \
    && measure llmserve "$shape" "$type" "$id" 18080 && measure_long llmserve "$shape" "$type" "$id" 18080
  kill $server; wait $server 2>/dev/null
done
