#!/usr/bin/env bash
# On a GPU host without Java: starts the service with its model on the GPU, drives it over HTTP
# (exercise.py) and keeps what operations see: the Prometheus scrape under load and after, health,
# the service log. Results in $OUT: devices.txt, service.log, scrape-load.txt, scrape.txt,
# health.json, summary.txt.
#
# usage: OUT=dir bash run-service.sh      (BACKEND=auto on a machine without a GPU, to try the script)
#        SCRIPT=soak MODELS=dir OUT=dir bash run-service.sh   the GPU soak (soak.py) instead: MODELS must
#        hold stories260K.gguf and all-MiniLM-L6-v2-q8_0.gguf (the embedding model does not fit the bundle)
#        RUNTIME=hip OUT=dir bash run-service.sh   the service on llmserve.gpu.runtime=hip over hip-on-cuda,
#        the test-only library that translates HIP to CUDA (docs/amd.md), built here first; needs a bundle
#        made with HIP_ON_CUDA=1 (HSACO and cubins in the jar, the library's sources). Adds
#        hip-on-cuda-calls.tsv and hip-on-cuda-uncalled.txt to $OUT.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$here/out}
mkdir -p "$out"
{ nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,memory.used,memory.total,utilization.gpu,temperature.gpu,power.draw --format=csv; } \
  > "$out/devices.txt" 2>&1 || true

jre=/tmp/llmserve-boot-jre
if [ ! -x "$jre/jre25/bin/java" ]; then
  mkdir -p "$jre"
  if command -v xz >/dev/null; then tar -C "$jre" -xJf "$here/jre25-boot.tar.xz"
  else python3 -c "import tarfile,sys; tarfile.open(sys.argv[1]).extractall(sys.argv[2])" "$here/jre25-boot.tar.xz" "$jre"; fi
fi
runtime_args=()
if [ -n "${RUNTIME:-}" ]; then
  runtime_args=(--llmserve.gpu.runtime="$RUNTIME")
fi
if [ "${RUNTIME:-}" = hip ]; then
  hoc=/tmp/llmserve-hip-on-cuda-service
  src=$here/native/hip-on-cuda
  [ -f "$src/build.sh" ] || src=${LLMSERVE_REPO:-$(cd "$here/../.." && pwd)}/gpu-runtime/src/test/native/hip-on-cuda
  [ ! -f "$here/native/drm/libdrm/drm.h" ] || export DRM_INCLUDE="$here/native/drm"
  bash "$src/device-setup.sh" "$hoc" "$here/app.jar" "$out/hip-on-cuda-build.txt" || exit 1
  rm -f "$out/hip-on-cuda-calls.tsv" "$out/hip-on-cuda-calls.tsv.first"
  export LD_LIBRARY_PATH="$hoc/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" HIP_ON_CUDA_CUBIN_DIR="$hoc/cubins" \
    HIP_ON_CUDA_TRACE="$out/hip-on-cuda-calls.tsv"
fi
port=${PORT:-18080}
"$jre/jre25/bin/java" --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -Xmx4g -jar "$here/app.jar" \
  --server.port="$port" --llmserve.models-dir="${MODELS:-$here/models}" --llmserve.backend="${BACKEND:-gpu}" --llmserve.gpu.telemetry-interval=1s \
  --llmserve.failover.cpu-fallback=always ${runtime_args[@]+"${runtime_args[@]}"} > "$out/service.log" 2>&1 &
service=$!
if [ "${SCRIPT:-exercise}" = soak ]; then
  PYTHONUNBUFFERED=1 timeout ${EXERCISE_TIMEOUT:-480} python3 "$here/soak.py" --port "$port" --out "$out" \
    --model stories260K --embedding-model all-MiniLM-L6-v2-q8_0 --requests ${SOAK_REQUESTS:-10000}
else
  PYTHONUNBUFFERED=1 timeout ${EXERCISE_TIMEOUT:-180} python3 "$here/exercise.py" --port "$port" --out "$out" --model stories260K
fi
status=$?
kill "$service" 2>/dev/null
wait "$service" 2>/dev/null
grep -E "ERROR|WARN" "$out/service.log" | head -20
grep -m3 "GPU backend" "$out/service.log"
if [ "${RUNTIME:-}" = hip ]; then
  python3 "$src/coverage.py" "$src/symbols.def" "$out/hip-on-cuda-calls.tsv" "$out/hip-on-cuda-calls.tsv.first" \
    > "$out/hip-on-cuda-uncalled.txt"
fi
exit $status
