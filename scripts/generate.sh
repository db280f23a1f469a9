#!/usr/bin/env bash
# Generates from a GGUF model on the CPU and prints prefill/decode speed (the engine's command line).
#   bash scripts/generate.sh --model ../shared/models/stories260K.gguf --prompt "Once upon a time" -n 40
# With --batch-bench first, runs the bench module's BatchBench instead (continuous batching on the CPU):
#   bash scripts/generate.sh --batch-bench --model FILE [--concurrency 1,4,16,64] [--prompt-length N] [-n N]
# Builds the module's jar first if it is missing. Options: bash scripts/generate.sh [--batch-bench] --help
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
module=engine
main=com.llmserve.engine.cli.Generate
if [ "${1:-}" = "--batch-bench" ]; then
  module=bench
  main=com.llmserve.bench.BatchBench
  shift
fi
jar=$(ls $module/target/$module-*.jar 2>/dev/null | grep -v -e sources -e tests | head -1 || true)
# rebuilt when a main source is newer than the jar: a stale copy measures code that is gone
if [ -z "$jar" ] || [ ! -d $module/target/lib ] \
    || [ -n "$(find kernels/src/main gpu-runtime/src/main engine/src/main $module/src/main -newer "$jar" -type f -print -quit)" ]; then
  ./mvnw -B -q -ntp -pl $module -am package -DskipTests >&2
  jar=$(ls $module/target/$module-*.jar | grep -v -e sources -e tests | head -1)
fi
# The weights live in the mapping and in off-heap packed copies, not on the heap: a small heap
# keeps resident memory near the model file's size. JAVA_OPTS overrides it.
# shellcheck disable=SC2086
exec "$JAVA_HOME/bin/java" ${JAVA_OPTS:--Xmx512m} --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED \
  -cp "$jar:$module/target/lib/*" "$main" "$@"
