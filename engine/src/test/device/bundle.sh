#!/usr/bin/env bash
# Packs what a GPU host without Java needs to check and measure the GPU backend: a jlink'd Java 25
# runtime (tar.xz), the module jars (bench.jar holds the benchmarks) and engine test classes, the
# JUnit console launcher, the small models and goldens the parity tests read, synth_gguf.py with a
# tokenizer for the benchmark models (written on the host: they are gigabytes), run-device.sh, and the
# sources of hip-on-cuda (native/), the test library that runs the HIP backend on an NVIDIA GPU.
#
# usage: engine/src/test/device/bundle.sh <out-dir>      (never installs to ~/.m2)
#        MODELS="all-MiniLM-L6-v2-q8_0" bundle.sh <out-dir>   a different set of ../shared models (and
#        their generation or embedding goldens): the device call carries 64 MiB at most
# then on the GPU host: OUT=results bash <out-dir>/run-device.sh [tests|bench|all]
#   RUNTIME=hip|cuda|both OUT=results bash <out-dir>/run-device.sh tests   the GPU tests of gpu-runtime and
#   the engine on one runtime or each (hip: over hip-on-cuda, built there from native/; docs/amd.md)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
module=$(cd "$here/../../.." && pwd)
root=$(dirname "$module")
shared=${LLMSERVE_SHARED:-$root/../shared}
out=$(mkdir -p "$1" && cd "$1" && pwd)
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}

# a relative outputFile is each module's own: the engine's test class path is the one read below
(cd "$root" && ./mvnw -B -ntp -q -pl kernels,gpu-runtime,engine,bench package -DskipTests \
   dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/device-classpath.txt)
cp_file="$module/target/device-classpath.txt"
junit=$(tr ':' '\n' < "$cp_file" | sed -n 's|.*/junit-platform-launcher-\(.*\)\.jar$|\1|p')
[ -n "$junit" ] || { echo "bundle: JUnit Platform version not found in $cp_file" >&2; exit 1; }
(cd "$root" && ./mvnw -B -ntp -q -N dependency:copy \
   -Dartifact="org.junit.platform:junit-platform-console-standalone:$junit" -DoutputDirectory="$module/target/device-tools")

rm -rf "$out/lib" "$out/shared"
mkdir -p "$out/lib" "$out/shared/models" "$out/shared/golden/generation" "$out/tools"
cp "$root/kernels/target/kernels-"*.jar "$out/lib/kernels.jar"
cp "$root/gpu-runtime/target/gpu-runtime-"*[0-9T].jar "$out/lib/gpu-runtime.jar"
# @RequiresGpu and the simulated device, which the engine's GPU tests use
cp "$root/gpu-runtime/target/gpu-runtime-"*-tests.jar "$out/lib/gpu-runtime-tests.jar"
cp "$module/target/engine-"*[0-9T].jar "$out/lib/engine.jar"
cp "$root/bench/target/bench-"*[0-9T].jar "$out/lib/bench.jar"
# (without the module's own test models: they travel as shared/models below, read as files)
tests=$(mktemp -d)
cp -r "$module/target/test-classes/." "$tests/" && rm -rf "$tests/llama-cpp/models"
"$JAVA_HOME/bin/jar" cf "$out/lib/engine-tests.jar" -C "$tests" .
rm -rf "$tests"
# test-side libraries only (the engine's own runtime needs nothing else on these paths)
# (the goldens are read with Jackson 3, tools.jackson, whose annotations are still com.fasterxml's)
for dep in org/assertj/assertj-core net/bytebuddy/byte-buddy org/slf4j/slf4j-api tools/jackson/core/jackson-core tools/jackson/core/jackson-databind \
           com/fasterxml/jackson/core/jackson-annotations; do
  jar=$(tr ':' '\n' < "$cp_file" | grep "/$dep/[^/]*/${dep##*/}-[0-9][^/]*\.jar$" | head -1)
  [ -n "$jar" ] || { echo "bundle: $dep not on the test class path" >&2; exit 1; }
  cp "$jar" "$out/lib/${dep##*/}.jar"
done
cp "$module/target/device-tools/junit-platform-console-standalone-$junit.jar" "$out/lib/junit-platform-console-standalone.jar"

# Models the parity tests read: every llama-family test model, and their llama.cpp goldens.
# tiny-F16 is rewritten on the host by synth_gguf.py (deterministic; run-device.sh checks its sha256).
models=${MODELS:-stories260K stories260K-q8_0 stories260K-q4_0 llama-2-tiny-random tiny-Q8_0 tiny-Q6_K tiny-Q5_K_M
        tiny-Q5_1 tiny-Q5_0 tiny-Q4_K_M tiny-Q4_1 tiny-Q4_0 tiny-Q3_K_M tiny-Q2_K tiny-F16
        tiny-qwen3-Q8_0 tiny-qwen3-F16 tiny-gemma3-Q8_0 tiny-gemma3-F16 tiny-qwen3moe-Q8_0 tiny-qwen3moe-F16}
for m in $models; do
  [ "$m" = tiny-F16 ] || cp "$shared/models/$m.gguf" "$out/shared/models/"
  for kind in generation embeddings architectures; do
    if [ -f "$shared/golden/$kind/$m.json" ]; then
      mkdir -p "$out/shared/golden/$kind"
      cp "$shared/golden/$kind/$m.json" "$out/shared/golden/$kind/"
    fi
  done
done
# the goldens this module recorded itself, as if they were ../shared's (their models are in the
# checkout the device call carries anyway: run-device.sh copies them from there)
cp "$module/src/test/resources/llama-cpp/golden/"*.json "$out/shared/golden/generation/"
# the project's synth_gguf.py: shared's shapes and architectures and the benchmarks' (llama-70b, --arch)
cp "$root/bench/tools/synth_gguf.py" "$out/tools/"
cp "$shared/tokenizers/llama.cpp-vocab/ggml-vocab-llama-spm.gguf" "$out/tools/"
cp "$here/run-device.sh" "$root/gpu-runtime/src/test/device/nccl-env.sh" "$out/"
# hip-on-cuda's sources (test code: HIP translated to CUDA), which RUNTIME=hip builds on the GPU host,
# with the ROCm headers they compile against and this machine's libdrm headers (rocm_smi.h wants them)
rm -rf "$out/native" && mkdir -p "$out/native/rocm-6.4" "$out/native/drm/libdrm"
cp -r "$root/gpu-runtime/src/test/native/hip-on-cuda" "$out/native/"
cp -r "$root/gpu-runtime/src/test/native/rocm-6.4/include" "$out/native/rocm-6.4/"
[ ! -f /usr/include/libdrm/drm.h ] || cp /usr/include/libdrm/drm.h /usr/include/libdrm/drm_mode.h "$out/native/drm/libdrm/"

if [ ! -f "$out/jre25.tar.xz" ]; then
  tmp=$(mktemp -d)
  "$JAVA_HOME/bin/jlink" --add-modules java.base,java.logging,java.management,java.xml,jdk.unsupported,jdk.incubator.vector,jdk.management,jdk.zipfs \
    --strip-debug --no-man-pages --no-header-files --compress=zip-0 --output "$tmp/jre25"
  # xz for size (the device's python3 unpacks it when no xz binary is there)
  tar -C "$tmp" -cf - jre25 | xz -9 -T2 > "$out/jre25.tar.xz"
  rm -rf "$tmp"
fi
du -sh "$out"
