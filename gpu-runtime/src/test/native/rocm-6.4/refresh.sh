#!/usr/bin/env bash
# Re-extracts the vendored ROCm headers from Debian sid without touching the system's apt sources:
# a private sources list and state folder, `apt-get download`, `dpkg -x` into a scratch folder,
# then only the headers the checked holders include are copied here. Needs g++ (for -M).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/lists/partial" "$scratch/cache/archives/partial" "$scratch/root"
echo "deb http://deb.debian.org/debian sid main" > "$scratch/sources.list"
apt_opts=(-o Dir::Etc::SourceList="$scratch/sources.list" -o Dir::Etc::SourceParts=/dev/null
          -o Dir::State::Lists="$scratch/lists" -o Dir::Cache="$scratch/cache")
apt-get "${apt_opts[@]}" update -qq
(cd "$scratch" && apt-get "${apt_opts[@]}" download libamdhip64-dev librocblas-dev libmiopen-dev librocm-smi-dev)
sha256sum "$scratch"/*.deb
for deb in "$scratch"/*.deb; do dpkg -x "$deb" "$scratch/root"; done
# hip_runtime.h and hip_fp16.h: what ../rccl-5.4's rccl.h includes.
printf '#include <hip/hip_runtime_api.h>\n#include <rocblas/rocblas.h>\n#include <miopen/miopen.h>\n#include <rocm_smi/rocm_smi.h>\n#include <hip/hip_runtime.h>\n#include <hip/hip_fp16.h>\n' > "$scratch/all.cpp"
rm -rf "$here/include" "$here/licenses"
mkdir -p "$here/include" "$here/licenses"
g++ -std=c++17 -M -D__HIP_PLATFORM_AMD__ -isystem "$scratch/root/usr/include" "$scratch/all.cpp" \
  | tr ' \\' '\n\n' | grep "^$scratch/root/usr/include/" | sort -u | while read -r f; do
  rel=${f#"$scratch/root/usr/include/"}
  mkdir -p "$here/include/$(dirname "$rel")"
  cp "$f" "$here/include/$rel"
done
for p in libamdhip64-dev librocblas-dev libmiopen-dev librocm-smi-dev; do
  cp "$scratch/root/usr/share/doc/$p/copyright" "$here/licenses/$p.copyright"
done
echo "refreshed $(find "$here/include" -type f | wc -l) headers; update the versions in README.md"
