#!/usr/bin/env bash
# Makes the local base images the Dockerfiles build on where no registry can be reached:
#   local/debian:bookworm   Debian bookworm (debootstrap, minbase): the runtime base
#   local/jdk25:bookworm    the same plus this machine's Temurin 25 JDK at /opt/java/openjdk
#                           (JAVA_HOME, as eclipse-temurin images have it): the build stage
#   local/rocm:bookworm     local/debian:bookworm plus Debian's ROCm runtime packages (HIP 5.2 and
#                           rocm-smi; bookworm has no rocBLAS or MIOpen): the ROCm image's base in CI
#   local/cuda:bookworm     local/jdk25:bookworm plus this machine's CUDA 13 toolkit (nvcc) and g++: the
#                           CUDA image's build stage in CI (its runtime stage is local/debian:bookworm)
# Starts dockerd when none answers. Idempotent: existing images are kept.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

if ! docker info >/dev/null 2>&1; then
  # --bip: a bridge subnet of our own (the default may clash with this machine's network)
  nohup dockerd --bip 172.17.0.1/16 >/tmp/llmserve-dockerd.log 2>&1 &
  for _ in $(seq 1 60); do docker info >/dev/null 2>&1 && break; sleep 0.5; done
  docker info >/dev/null 2>&1 || { echo "dockerd did not start, see /tmp/llmserve-dockerd.log" >&2; exit 1; }
fi

work=${LLMSERVE_ROOTFS_DIR:-/tmp/llmserve-rootfs}
if ! docker image inspect local/debian:bookworm >/dev/null 2>&1; then
  # a run stopped inside debootstrap leaves its chroot's /proc mounted: rm cannot remove it
  awk -v w="$work/" 'index($2, w) == 1 { print $2 }' /proc/mounts | sort -r | while read -r m; do umount -l "$m"; done
  rm -rf "$work" && mkdir -p "$work"
  debootstrap --variant=minbase bookworm "$work/debian" http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1 \
    || { tail -20 "$work/debootstrap.log" >&2; exit 1; }
  rm -rf "$work/debian/var/lib/apt/lists"/* "$work/debian/var/cache/apt"/*
  tar -C "$work/debian" -c . | docker import --change 'CMD ["/bin/bash"]' - local/debian:bookworm >/dev/null
fi
if ! docker image inspect local/jdk25:bookworm >/dev/null 2>&1; then
  cid=$(docker create local/debian:bookworm)
  tmp=$(mktemp -d)
  docker export "$cid" | tar -C "$tmp" -x
  docker rm "$cid" >/dev/null
  mkdir -p "$tmp/opt/java"
  cp -a "$JAVA_HOME" "$tmp/opt/java/openjdk"
  # Debian's JDK packaging links cacerts to /etc/ssl/certs/java: take the file itself
  cp --remove-destination "$(readlink -f "$JAVA_HOME/lib/security/cacerts")" "$tmp/opt/java/openjdk/lib/security/cacerts"
  tar -C "$tmp" -c . | docker import \
    --change 'ENV JAVA_HOME=/opt/java/openjdk' \
    --change 'ENV PATH=/opt/java/openjdk/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'CMD ["/bin/bash"]' - local/jdk25:bookworm >/dev/null
  rm -rf "$tmp"
fi
if ! docker image inspect local/rocm:bookworm >/dev/null 2>&1; then
  mkdir -p "$work"
  docker build --network host -t local/rocm:bookworm - >"$work/rocm-base.log" 2>&1 <<'DOCKERFILE' \
    || { tail -20 "$work/rocm-base.log" >&2; exit 1; }
FROM local/debian:bookworm
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libamdhip64-5 librocm-smi64-1 \
 && rm -rf /var/lib/apt/lists/*
DOCKERFILE
fi
if ! docker image inspect local/cuda:bookworm >/dev/null 2>&1; then
  mkdir -p "$work"
  # this machine's CUDA 13 toolkit (nvcc, ptxas: no cuBLAS, which no Debian package has at 12 or 13)
  cuda=$(readlink -f "${CUDA_HOME:-/usr/local/cuda}")
  [ -x "$cuda/bin/nvcc" ] || { echo "no CUDA toolkit at ${CUDA_HOME:-/usr/local/cuda} for local/cuda:bookworm (set CUDA_HOME)" >&2; exit 1; }
  ctx=$(mktemp -d)
  cp -a "$cuda" "$ctx/cuda"
  cat > "$ctx/Dockerfile" <<'DOCKERFILE'
FROM local/jdk25:bookworm
COPY cuda /usr/local/cuda
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends g++ binutils \
 && rm -rf /var/lib/apt/lists/*
ENV PATH=/usr/local/cuda/bin:/opt/java/openjdk/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
DOCKERFILE
  docker build --network host -t local/cuda:bookworm "$ctx" >"$work/cuda-base.log" 2>&1 \
    || { rm -rf "$ctx"; tail -20 "$work/cuda-base.log" >&2; exit 1; }
  rm -rf "$ctx"
fi
echo "base images: local/debian:bookworm, local/jdk25:bookworm, local/rocm:bookworm, local/cuda:bookworm"
