#!/usr/bin/env bash
# Generates from a GGUF model on the CPU and prints prefill/decode speed (the engine's command line).
#   bash scripts/generate.sh --model ../shared/models/stories260K.gguf --prompt "Once upon a time" -n 40
# Builds the engine jar first if it is missing. Options: bash scripts/generate.sh --help
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
jar=$(ls engine/target/engine-*.jar 2>/dev/null | grep -v -e sources -e tests | head -1 || true)
if [ -z "$jar" ] || [ ! -d engine/target/lib ]; then
  ./mvnw -B -q -ntp -pl engine -am package -DskipTests >&2
  jar=$(ls engine/target/engine-*.jar | grep -v -e sources -e tests | head -1)
fi
main=com.llmserve.engine.cli.Generate
if [ "${1:-}" = "--batch-bench" ]; then
  main=com.llmserve.engine.cli.BatchBench
  shift
fi
# The weights live in the mapping and in off-heap packed copies, not on the heap: a small heap
# keeps resident memory near the model file's size. JAVA_OPTS overrides it.
# shellcheck disable=SC2086
exec "$JAVA_HOME/bin/java" ${JAVA_OPTS:--Xmx512m} --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED \
  -cp "$jar:engine/target/lib/*" "$main" "$@"
