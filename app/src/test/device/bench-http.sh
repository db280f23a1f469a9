#!/usr/bin/env bash
# On a GPU host without Java: the service on the GPU measured through HTTP with
# ../shared/tools/openai_load.py, the same load llama-server is measured with (docs/gpu-backend.md):
#   text        synthetic 8B-shape Q4_0 (written here by synth_gguf.py), 100-word (~130-token)
#               prompts, 128 tokens generated with ignore_eos, 1, 16 and 64 streams
#   embeddings  all-MiniLM-L6-v2 Q8_0, 32 inputs of 100 words per request, 1 and 16 clients
# The bundle (bundle.sh, plus tools/ and, for embeddings, models/all-MiniLM-L6-v2-q8_0.gguf) is
# kept in /tmp, so a second call on the still-warm machine may carry only what it adds.
# Results in $OUT: <what>-<pass>.md (the load report), <what>-<pass>.json, <what>-service.log, <what>-scrape-<pass>.txt,
# devices.txt.
#
# usage: OUT=dir bash bench-http.sh text|embeddings [service arguments...]
#        bash bench-http.sh keep     only keep the bundle in /tmp (the next call carries the model)
#        BACKEND=cpu ... to try it on a machine without a GPU
#        MODEL=llama-1b-q4_0 ...     another synthetic text model (llama-1b or llama-8b shape, q4_0 or q8_0)
#        REQUESTS=32 ...             requests per concurrency level (openai_load's default is 64)
#        VARIANTS='{"a":1}|{"b":2}' text ...  each pass runs the load once per variant (JSON merged into
#                                    every request after ignore_eos), alternating, e.g. without and with
#                                    a response_format to measure constrained decoding
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
what=$1; shift
out=${OUT:-$here/out}
keep=/tmp/llmserve-bench
models=${MODELS_DIR:-/tmp/llmserve-models}
mkdir -p "$out" "$keep" "$models"
for f in app.jar jre25-boot.tar.xz tools; do
  [ -e "$here/$f" ] && cp -r "$here/$f" "$keep/"
done
[ -s "$keep/app.jar" ] || { echo "no app.jar here or in $keep (the machine was released: send the whole bundle)"; exit 2; }
[ "$what" = keep ] && { echo "bundle kept in $keep"; exit 0; }
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv > "$out/devices.txt" 2>&1

jre=/tmp/llmserve-boot-jre
if [ ! -x "$jre/jre25/bin/java" ]; then
  mkdir -p "$jre" && tar -C "$jre" -xJf "$keep/jre25-boot.tar.xz"
fi

served=$keep/$what-models
rm -rf "$served" && mkdir -p "$served"
case $what in
  text)
    model=${MODEL:-llama-8b-q4_0}
    if [ ! -s "$models/$model.gguf" ]; then
      start=$(date +%s)
      python3 "$keep/tools/synth_gguf.py" --tokenizer-from "$keep/tools/ggml-vocab-llama-spm.gguf" \
        --shape "${model%-*}" --type "${model##*-}" --out "$models/$model.gguf" > "$out/synth.txt" 2>&1 || { cat "$out/synth.txt"; exit 1; }
      echo "synthesized $model in $(( $(date +%s) - start )) s"
    fi
    ln -s "$models/$model.gguf" "$served/"
    load=(--concurrency "${CONCURRENCY:-1,16,64}" --prompt-words 100 --max-tokens 128 ${REQUESTS:+--requests $REQUESTS})
    ;;
  embeddings)
    model=all-MiniLM-L6-v2-q8_0
    cp "$here/models/$model.gguf" "$served/"
    load=(--embeddings --batch 32 --concurrency "${CONCURRENCY:-1,16}" --prompt-words 100)
    ;;
  *) echo "usage: bench-http.sh text|embeddings|keep [service arguments...]"; exit 2 ;;
esac

port=18080
start=$(date +%s)
"$jre/jre25/bin/java" --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -Xmx8g -jar "$keep/app.jar" \
  --server.port=$port --llmserve.models-dir="$served" --llmserve.backend="${BACKEND:-gpu}" --llmserve.failover.cpu-fallback=never \
  --llmserve.engine.kv-blocks=4096 --llmserve.engine.max-running=128 --llmserve.engine.max-waiting=1024 \
  "$@" > "$out/$what-service.log" 2>&1 &
service=$!
trap 'kill $service 2>/dev/null; wait $service 2>/dev/null' EXIT
url=http://127.0.0.1:$port
for _ in $(seq 1 300); do
  curl -sf "$url/actuator/health/readiness" >/dev/null && break
  kill -0 $service 2>/dev/null || { echo "service exited"; tail -40 "$out/$what-service.log"; exit 1; }
  sleep 1
done
curl -sf "$url/actuator/health/readiness" >/dev/null || { echo "not ready in 300 s"; tail -40 "$out/$what-service.log"; exit 1; }
echo "$what: ready in $(( $(date +%s) - start )) s ($*)"
curl -s "$url/actuator/health" | python3 -c "import json,sys; h=json.load(sys.stdin); print(json.dumps(h['components'].get('model'))[:600])"

if [ "$what" = text ]; then  # how many tokens the load's prompts are
  curl -s "$url/v1/completions" -H 'Content-Type: application/json' -d "{\"model\":\"$model\",\"max_tokens\":1,\"prompt\":\"$(python3 -c "
import sys; sys.path.insert(0, '$keep/tools'); import openai_load; print(openai_load.prompt_text(100, 3))")\"}" \
    | python3 -c "import json,sys; print('prompt tokens of a load request:', json.load(sys.stdin)['usage']['prompt_tokens'])"
fi
# PASSES=2: the same load twice on one service, the first on a cold JVM (reported too), the second
# warmed up; CONCURRENCY=1,4 other levels than the anchors'
IFS='|' read -r -a variants <<< "${VARIANTS:-{\}}"
for pass in $(seq 1 "${PASSES:-1}"); do
  for v in "${!variants[@]}"; do
    extra=$(python3 -c "import json,sys; e=json.loads(sys.argv[1]); print(json.dumps({'ignore_eos': True, **e}) if sys.argv[2]=='text' else json.dumps(e))" "${variants[$v]}" "$what")
    tag=$what-$pass$([ ${#variants[@]} -gt 1 ] && echo "-v$v")
    echo "pass $pass variant $v: $extra"
    python3 "$keep/tools/openai_load.py" --url "$url" --model "$model" "${load[@]}" --extra "$extra" --json "$out/$tag.json" | tee "$out/$tag.md"
    curl -s "$url/actuator/prometheus" > "$out/$tag-scrape.txt"
  done
done
nvidia-smi --query-gpu=memory.used,utilization.gpu,power.draw --format=csv >> "$out/devices.txt" 2>&1
grep -E "ERROR|WARN" "$out/$what-service.log" | head -10
