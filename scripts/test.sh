#!/usr/bin/env bash
# The whole test suite, on a fresh machine of the CI kind: installs what it needs (idempotently),
# then builds every module and runs every test that needs no GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

scripts/install-deps.sh

./mvnw -B -ntp verify "$@"
