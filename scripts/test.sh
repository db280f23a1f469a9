#!/usr/bin/env bash
# The whole test suite, on a fresh machine of the CI kind: installs what it needs (idempotently),
# then builds every module and runs every test that needs no GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

scripts/install-deps.sh

# The e2e module builds the CPU, ROCm and CUDA images from docker/ on local base images and runs them: make them,
# starting dockerd if needed, and require the test to run rather than skip. The images this run
# made are removed at the end (LLMSERVE_KEEP_IMAGES=1 keeps them for the next run).
had_images=$(docker image inspect local/debian:bookworm local/jdk25:bookworm local/rocm:bookworm local/cuda:bookworm >/dev/null 2>&1 && echo yes || echo no)
scripts/docker-images.sh
if [ "$had_images" = no ] && [ -z "${LLMSERVE_KEEP_IMAGES:-}" ]; then
  trap 'docker rmi local/cuda:bookworm local/rocm:bookworm local/jdk25:bookworm local/debian:bookworm >/dev/null 2>&1 || true' EXIT
fi
export LLMSERVE_E2E_REQUIRED=1

./mvnw -B -ntp verify "$@"
