#!/usr/bin/env bash
# Packs what a GPU host without Java needs to run the service itself and read its operations
# surface: a jlink'd Java 25 runtime with the modules Spring Boot needs (tar.xz), the service jar
# (NVIDIA code objects only, to stay inside the device call's 64 MiB), stories260K, run-service.sh
# with its HTTP client, and bench-http.sh with the load generator, synth_gguf.py and the vocab it
# copies. On the host: OUT=results bash <out-dir>/run-service.sh (or bench-http.sh text)
#
# usage: app/src/test/device/bundle.sh <out-dir>     (never installs to ~/.m2)
#        KERNEL_KINDS=hsaco bundle.sh <out-dir>       for an AMD host
#        HIP_ON_CUDA=1 bundle.sh <out-dir>            for RUNTIME=hip run-service.sh on an NVIDIA host: HSACO
#                                                     and cubins, and hip-on-cuda's sources (test code)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
module=$(cd "$here/../../.." && pwd)
root=$(dirname "$module")
shared=${LLMSERVE_SHARED:-$root/../shared}
out=$(mkdir -p "$1" && cd "$1" && pwd)
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}

(cd "$root" && ./mvnw -B -ntp -q -pl app -am package -DskipTests -Dkernels.kinds="${KERNEL_KINDS:-$([ -n "${HIP_ON_CUDA:-}" ] && echo hsaco,cubin,ptx || echo cubin,ptx)}")
rm -rf "$out/models" && mkdir -p "$out/models"
cp "$module/target/app-"*[0-9T].jar "$out/app.jar"
cp "$shared/models/stories260K.gguf" "$out/models/"
cp "$here/run-service.sh" "$here/bench-http.sh" "$here/exercise.py" "$here/soak.py" "$here/scrape.py" "$out/"
mkdir -p "$out/tools"
rm -rf "$out/native"
if [ -n "${HIP_ON_CUDA:-}" ]; then
  # hip-on-cuda (gpu-runtime's test tree): built on the GPU host by run-service.sh with RUNTIME=hip
  mkdir -p "$out/native/rocm-6.4" "$out/native/drm/libdrm"
  cp -r "$root/gpu-runtime/src/test/native/hip-on-cuda" "$out/native/"
  cp -r "$root/gpu-runtime/src/test/native/rocm-6.4/include" "$out/native/rocm-6.4/"
  [ ! -f /usr/include/libdrm/drm.h ] || cp /usr/include/libdrm/drm.h /usr/include/libdrm/drm_mode.h "$out/native/drm/libdrm/"
fi
cp "$shared/tools/openai_load.py" "$shared/tools/synth_gguf.py" "$shared/tokenizers/llama.cpp-vocab/ggml-vocab-llama-spm.gguf" "$out/tools/"

if [ ! -f "$out/jre25-boot.tar.xz" ]; then
  tmp=$(mktemp -d)
  # the modules of the service image (docker/Dockerfile.*): Spring needs java.desktop for java.beans
  "$JAVA_HOME/bin/jlink" --add-modules java.base,java.logging,java.management,java.naming,java.net.http,java.sql,java.desktop,java.instrument,java.security.jgss,java.xml,jdk.unsupported,jdk.management,jdk.incubator.vector,jdk.crypto.ec,jdk.zipfs \
    --strip-debug --no-man-pages --no-header-files --compress=zip-0 --output "$tmp/jre25"
  tar -C "$tmp" -cf - jre25 | xz -9 -T4 > "$out/jre25-boot.tar.xz"
  rm -rf "$tmp"
fi
du -sh "$out"
