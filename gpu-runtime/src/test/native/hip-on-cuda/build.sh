#!/usr/bin/env bash
# Builds hip-on-cuda (TEST CODE: HIP/rocBLAS/MIOpen/rocm-smi translated to CUDA/cuBLAS/cuDNN/NVML)
# into OUTDIR from the vendored ROCm 6.4 headers, with no CUDA header or library: one shared object
# and the names the Java binding holders load (libamdhip64.so.6, librocblas.so.4, libMIOpen.so.1,
# librocm_smi64.so.1) as symlinks to it, plus test-hoc, the C-level check.
#
# usage: build.sh OUTDIR                 (CC=clang-19 to use clang)
#        build.sh --regenerate-ptx       rewrite softmax_ptx.h from softmax.cu with nvcc
# then:  LD_LIBRARY_PATH=OUTDIR java ... (see docs/amd.md, "HIP by translation")
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ "${1:-}" = --regenerate-ptx ]; then
  tmp=$(mktemp -d)
  ${NVCC:-nvcc} -ptx -arch=compute_80 "$here/softmax.cu" -o "$tmp/softmax.ptx"
  { echo "/* Generated from softmax.cu by build.sh --regenerate-ptx (nvcc -ptx -arch=compute_80); do not edit. */"
    echo "static const char hoc_softmax_ptx[] ="
    sed 's/\\/\\\\/g; s/"/\\"/g; s/^/    "/; s/$/\\n"/' "$tmp/softmax.ptx"
    echo "    ;"; } > "$here/softmax_ptx.h"
  rm -rf "$tmp"
  exit 0
fi
out=${1:?usage: build.sh OUTDIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cc=${CC:-$(command -v gcc || command -v cc || command -v clang-19 || command -v clang)}
rocm="$here/../rocm-6.4/include"
# rocm_smi.h includes <libdrm/drm.h> (libdrm-dev); without it, the kernel's uapi copy
# (/usr/include/drm, linux-libc-dev) serves through a shim folder. DRM_INCLUDE: a folder holding libdrm/drm.h.
drm=${DRM_INCLUDE:-/usr/include}
if [ ! -f "$drm/libdrm/drm.h" ]; then
  uapi=${UAPI_DRM:-/usr/include/drm}
  [ -f "$uapi/drm.h" ] || { echo "build.sh: no libdrm/drm.h under $drm nor $uapi/drm.h (apt-get install libdrm-dev, or set DRM_INCLUDE)" >&2; exit 1; }
  drm="$out/.drm-shim"
  mkdir -p "$drm" && ln -sfn "$uapi" "$drm/libdrm"
fi
# -Werror always in CI; NO_WERROR=1 for another host's compiler version (device-setup.sh retries so)
werror=-Werror
[ -z "${NO_WERROR:-}" ] || werror=
flags=(-std=gnu11 -O2 -g -fPIC -fvisibility=default -Wall -Wextra $werror -D__HIP_PLATFORM_AMD__
       -isystem "$rocm" -idirafter "$drm" -I "$here")
"$cc" "${flags[@]}" -shared -Wl,-soname,libamdhip64.so.6 -Wl,--no-undefined \
  -o "$out/libhip-on-cuda.so" \
  "$here/hip_on_cuda.c" "$here/rocblas_on_cublas.c" "$here/miopen_on_cuda.c" "$here/rocm_smi_on_nvml.c" \
  -ldl -lpthread
for name in libamdhip64.so.6 librocblas.so.4 libMIOpen.so.1 librocm_smi64.so.1; do
  ln -sfn libhip-on-cuda.so "$out/$name"
done
"$cc" "${flags[@]}" -o "$out/test-hoc" "$here/test_hoc.c" -ldl
# the fake NVIDIA stack and the translation check over it (no GPU needed: run test-translation OUTDIR)
"$cc" "${flags[@]}" -shared -o "$out/libfake-cuda.so" "$here/fake_cuda.c" -lpthread
"$cc" "${flags[@]}" -o "$out/test-translation" "$here/test_translation.c" -ldl -lpthread
# Where cuda.h is (CI, the GPU hosts), the hand-written CUDA declarations are checked against it;
# cuBLAS, cuDNN and NVML declarations too where their headers are (the GPU hosts).
cuda_inc=${CUDA_INCLUDE:-/usr/local/cuda/include}
if [ -f "$cuda_inc/cuda.h" ]; then
  # fatal in CI; DECLS_CHECK=warn (device-setup.sh) reports a mismatch and builds on
  if "$cc" "${flags[@]}" -isystem "$cuda_inc" -fsyntax-only "$here/check_cuda_decls.c"; then
    echo "hip-on-cuda: CUDA driver declarations match $cuda_inc/cuda.h"
  elif [ "${DECLS_CHECK:-}" = warn ]; then
    echo "hip-on-cuda: WARNING: CUDA driver declarations differ from $cuda_inc/cuda.h (see above)" >&2
  else
    echo "hip-on-cuda: CUDA driver declarations differ from $cuda_inc/cuda.h" >&2
    exit 1
  fi
  # the library headers are only on the GPU hosts: a mismatch there is reported, not fatal
  for h in cublas_api.h:HOC_HAVE_CUBLAS nvml.h:HOC_HAVE_NVML cudnn.h:HOC_HAVE_CUDNN; do
    dir=$cuda_inc; [ -f "$dir/${h%%:*}" ] || dir=/usr/include
    [ -f "$dir/${h%%:*}" ] || continue
    if "$cc" "${flags[@]}" "-D${h##*:}" -isystem "$cuda_inc" -isystem "$dir" -fsyntax-only "$here/check_cuda_decls.c"; then
      echo "hip-on-cuda: declarations match $dir/${h%%:*}"
    else
      echo "hip-on-cuda: WARNING: declarations differ from $dir/${h%%:*} (see above)" >&2
    fi
  done
fi
echo "hip-on-cuda: built $out/libhip-on-cuda.so"
