#!/usr/bin/env bash
# Builds what a GPU host without Java needs to run the gpu-tagged tests and the cuBLAS/NVML/NCCL
# binding checks: a jlink'd Java 25 runtime, the module jars, the test classes, the JUnit console
# launcher, the generated header checks, and run-gpu-tests.sh. (jdk.zipfs: the launcher scans the
# test jar through the jar file system; java.xml: its XML reports.)
#
# usage: gpu-runtime/src/test/device/bundle.sh <out-dir>     (from anywhere; never installs to ~/.m2)
# then on the GPU host: bash <out-dir>/run-gpu-tests.sh      (OUT=... picks where results go;
#                       RUNTIME=hip|cuda|both: see run-gpu-tests.sh)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
module=$(cd "$here/../../.." && pwd)
root=$(dirname "$module")
out=$(mkdir -p "$1" && cd "$1" && pwd)
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}

# Package both modules, generate the header checks (BindingHeaderCheckTests writes them), record
# the test class path.
(cd "$root" && ./mvnw -B -ntp -q -pl kernels,gpu-runtime package \
   -Dtest=BindingHeaderCheckTests -Dsurefire.failIfNoSpecifiedTests=false \
   dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile="$module/target/device-classpath.txt")
cp_file="$module/target/device-classpath.txt"
junit=$(tr ':' '\n' < "$cp_file" | sed -n 's|.*/junit-platform-launcher-\(.*\)\.jar$|\1|p')
[ -n "$junit" ] || { echo "bundle: JUnit Platform version not found in $cp_file" >&2; exit 1; }
(cd "$root" && ./mvnw -B -ntp -q -N dependency:copy \
   -Dartifact="org.junit.platform:junit-platform-console-standalone:$junit" -DoutputDirectory="$module/target/device-tools")

rm -rf "$out/lib" "$out/binding-checks"
mkdir -p "$out/lib" "$out/binding-checks"
cp "$root/kernels/target/kernels-"*.jar "$out/lib/kernels.jar"
cp "$module/target/gpu-runtime-"*[0-9T].jar "$out/lib/gpu-runtime.jar"
"$JAVA_HOME/bin/jar" cf "$out/lib/gpu-runtime-tests.jar" -C "$module/target/test-classes" .
for dep in assertj-core byte-buddy; do
  cp "$(tr ':' '\n' < "$cp_file" | grep "/$dep-[0-9][^/]*\.jar$")" "$out/lib/$dep.jar"
done
cp "$module/target/device-tools/junit-platform-console-standalone-$junit.jar" "$out/lib/junit-platform-console-standalone.jar"
cp "$module/target/binding-checks/"*_h.check.cpp "$module/target/binding-checks/check.sh" "$out/binding-checks/"
# nccl.h for the NCCL check (run-gpu-tests.sh points NCCL_INCLUDE at the installed NCCL's own when it has one)
mkdir -p "$out/binding-checks/nccl-2.29" && cp -r "$module/src/test/native/nccl-2.29/include" "$out/binding-checks/nccl-2.29/"
cp "$here/run-gpu-tests.sh" "$here/nccl-env.sh" "$out/"
# hip-on-cuda (test code), which RUNTIME=hip run-gpu-tests.sh builds on the GPU host
rm -rf "$out/native" && mkdir -p "$out/native/rocm-6.4" "$out/native/drm/libdrm"
cp -r "$module/src/test/native/hip-on-cuda" "$out/native/"
cp -r "$module/src/test/native/rocm-6.4/include" "$out/native/rocm-6.4/"
[ ! -f /usr/include/libdrm/drm.h ] || cp /usr/include/libdrm/drm.h /usr/include/libdrm/drm_mode.h "$out/native/drm/libdrm/"

if [ ! -f "$out/jre25.tar.gz" ]; then
  tmp=$(mktemp -d)
  "$JAVA_HOME/bin/jlink" --add-modules java.base,java.logging,java.management,java.xml,jdk.unsupported,jdk.incubator.vector,jdk.management,jdk.zipfs \
    --strip-debug --no-man-pages --no-header-files --compress=zip-6 --output "$tmp/jre25"
  # gzip, not zstd or xz: the one decompressor every GPU host image has.
  tar -C "$tmp" -czf "$out/jre25.tar.gz" jre25
  rm -rf "$tmp"
fi
du -sh "$out"
