#!/usr/bin/env bash
# Sourced by the device scripts: where NCCL is on an NVIDIA host without it on the linker's path.
# NCCL is off the linker's path on the NVIDIA hosts: it comes with the image's Python (the
# nvidia-nccl-cu13 wheel, <site-packages>/nvidia/nccl/lib/libnccl.so.2). Point the tests (and the
# NCCL header check, where the wheel ships nccl.h) at it unless LLMSERVE_NCCL_LIBRARY is set already.
if [ -z "${LLMSERVE_NCCL_LIBRARY:-}" ]; then
  nccl_dir=$(python3 - 2>/dev/null <<'PY'
import os
import nvidia.nccl as m
dirs = list(getattr(m, "__path__", []))
if getattr(m, "__file__", None):
    dirs.append(os.path.dirname(m.__file__))
for d in dirs:
    if os.path.isfile(os.path.join(d, "lib", "libnccl.so.2")):
        print(d)
        break
PY
  )
  if [ -n "$nccl_dir" ]; then
    export LLMSERVE_NCCL_LIBRARY="$nccl_dir/lib/libnccl.so.2"
    [ ! -f "$nccl_dir/include/nccl.h" ] || export NCCL_INCLUDE="${NCCL_INCLUDE:-$nccl_dir/include}"
  fi
fi
# NVLink SHARP (multicast) stays off unless the host says otherwise: on shared hosts a program using
# it can take the GPUs out of service (the device machines set NCCL_NVLS_ENABLE=0 themselves).
export NCCL_NVLS_ENABLE=${NCCL_NVLS_ENABLE:-0}
