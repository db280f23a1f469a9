#!/usr/bin/env bash
# On a GPU host (test code): builds hip-on-cuda into DIR/lib, runs its C check, and unpacks into
# DIR/cubins the cubins of the kernels in JAR (the kernels jar, or the service jar holding it), which
# the library loads in place of the HSACO the HIP backend picks. Then run Java with:
#   LD_LIBRARY_PATH=DIR/lib HIP_ON_CUDA_CUBIN_DIR=DIR/cubins [HIP_ON_CUDA_TRACE=calls.tsv]
# and the runtime forced to hip (-Dllmserve.test.gpu-runtime=hip, --llmserve.gpu.runtime=hip).
#
# usage: device-setup.sh DIR JAR [LOG]     (LOG: the build output, default DIR.build.txt; DRM_INCLUDE: a folder with libdrm/drm.h, see build.sh)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=${1:?usage: device-setup.sh DIR JAR [LOG]}
jar=${2:?usage: device-setup.sh DIR JAR [LOG]}
log=${3:-$dir.build.txt}
rm -rf "$dir" && mkdir -p "$dir/cubins" && : > "$log"
# a declaration that differs from this host's CUDA headers is reported in the log, not fatal here
export DECLS_CHECK=warn
if ! bash "$here/build.sh" "$dir/lib" >> "$log" 2>&1; then
  # CI builds with -Werror on its compiler; a GPU host's compiler may warn differently
  echo "hip-on-cuda: WARNING: the -Werror build failed (see $log); building without -Werror" | tee -a "$log" >&2
  if ! NO_WERROR=1 bash "$here/build.sh" "$dir/lib" >> "$log" 2>&1; then
    echo "hip-on-cuda did not build (see $log)" >&2
    tail -20 "$log" >&2
    exit 1
  fi
fi
"$dir/lib/test-hoc" "$dir/lib" >> "$log" 2>&1 || { echo "hip-on-cuda: test-hoc failed (see $log)" >&2; exit 1; }
# the translation over the fake NVIDIA stack (no GPU involved): a failure here is reported, the run goes on
"$dir/lib/test-translation" "$dir/lib" >> "$log" 2>&1 || echo "hip-on-cuda: WARNING: test-translation failed (see $log)" >&2
python3 - "$jar" "$dir/cubins" <<'PY' || exit 1
import io, os, sys, zipfile
def walk(z):
    for n in z.namelist():
        if n.endswith(".jar") and "/kernels-" in "/" + n:  # a service jar: the kernels jar inside it
            yield from walk(zipfile.ZipFile(io.BytesIO(z.read(n))))
        elif n.startswith("com/llmserve/kernels/"):
            yield n, z
cubins = hsaco = 0
for n, z in walk(zipfile.ZipFile(sys.argv[1])):
    if n.endswith(".cubin"):
        open(os.path.join(sys.argv[2], os.path.basename(n)), "wb").write(z.read(n))
        cubins += 1
    hsaco += n.endswith(".hsaco")
print("hip-on-cuda: %d cubins unpacked, %d HSACO in %s" % (cubins, hsaco, sys.argv[1]))
if not cubins or not hsaco:
    sys.exit("hip-on-cuda needs both the HSACO (the HIP backend picks them) and the cubins (which run) in the jar: "
             "build the kernels with -Dkernels.kinds=hsaco,cubin,ptx")
PY
