#!/usr/bin/env bash
# Kernel labs: each .cu here includes the kernels' sources (kernels/src/main/gpu, or KERNELS) and times
# them on the GPU of the host it runs on (nvcc and a CUDA device needed; no Java). Reports on stdout.
#
# usage: bash bench/kernels/run.sh gemv|gemvchain|attention|route|mmq|mmh|mmhk|kquant|launch|pdl|allreduce
#   KERNELS=dir   the kernel sources to build against (default: this tree's)
#   TAG=name      attention: the label of this build's outputs ("old" for the one others compare to); route: of its lines
#   OUT_DIR=dir   attention: where outputs are kept for that comparison (default /tmp/llmserve-labs)
#   SWEEP=1       attention: every split count from 1 to 32 at contexts 16 to 8192 instead of the fixed cases
#   MANY_ROWS=1   attention: split counts 2 to 32 at 4 and 8 rows, 1 to 4 at 16, 32 and 64 (batched decode) instead of the fixed cases
#   NS=16,64 Q8=0 mmh: only those token counts, only Q4_0
#   CASE=r,c,s    attention: that one case (rows, context, splits), e.g. under ncu
#   ARCH=sm_90    nvcc's -arch
#   FLAGS=...     more nvcc flags, e.g. attention: -DLS_DEC_WIDE_DPL=8 -DLS_DEC_SETS=4 (attention.hip's tuning knobs)
#   allreduce needs 2 GPUs and NCCL: LLMSERVE_NCCL_LIBRARY, else found as the device scripts find it
# e.g. the attention of two trees: TAG=old KERNELS=/tmp/old-tree/kernels/src/main/gpu bash run.sh attention;
#      bash run.sh attention   (both trees' kernels must take this lab's arguments: for a tree before
#      2026-11-29, run that tree's own bench/kernels/run.sh with TAG=old and the same OUT_DIR instead)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
lab=${1:?usage: run.sh gemv|gemvchain|attention|route|mmq|mmh|mmhk|kquant|launch|pdl|allreduce}
kernels=${KERNELS:-$here/../../kernels/src/main/gpu}
out=${OUT_DIR:-/tmp/llmserve-labs}
tag=${TAG:-new}
mkdir -p "$out"
bin="$out/${lab}_lab_$tag"
link=()
if [ "$lab" = mmh ] || [ "$lab" = mmhk ]; then link=(-lcublas); fi
if [ "$lab" = allreduce ]; then
  . "$here/../../gpu-runtime/src/test/device/nccl-env.sh"
  nccl=${LLMSERVE_NCCL_LIBRARY:?no libnccl.so.2 found: set LLMSERVE_NCCL_LIBRARY}
  link=(-L "$(dirname "$nccl")" -l:libnccl.so.2 -Xlinker -rpath -Xlinker "$(dirname "$nccl")")
fi
${NVCC:-nvcc} -x cu -arch="${ARCH:-sm_90}" ${FLAGS:-} -O3 -std=c++17 -DTAG="\"$tag\"" -I "$kernels" "$here/${lab}_lab.cu" -o "$bin" "${link[@]}"
"$bin" "$out"
