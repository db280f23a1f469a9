#!/usr/bin/env bash
# Starts the service on port 8080 (SERVER_PORT), serving every *.gguf of ../shared/models
# (MODELS_DIR). Builds the service first when its jar is missing or older than the sources.
# Extra arguments go to Spring Boot, e.g. --llmserve.cpu-threads=4; JAVA_OPTS to the JVM.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

jar=app/target/app-0.1.0-SNAPSHOT.jar
if [ ! -f "$jar" ] || [ -n "$(find pom.xml kernels engine gpu-runtime app -path '*/target' -prune -o -newer "$jar" \
    \( -name '*.java' -o -name 'pom.xml' -o -name '*.yaml' -o -name '*.hip' -o -name '*.h' -o -name '*.manifest' \) -print \
    -quit)" ]; then
  scripts/install-deps.sh
  ./mvnw -B -q -ntp -pl app -am package -DskipTests >&2
fi

export MODELS_DIR="${MODELS_DIR:-../shared/models}"
export SERVER_PORT="${SERVER_PORT:-8080}"
# Every JVM of this project needs the Vector API module and native access (FFM).
# shellcheck disable=SC2086
exec "$JAVA_HOME/bin/java" --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED ${JAVA_OPTS:-} \
  -jar "$jar" "$@"
