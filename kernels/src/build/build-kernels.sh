#!/usr/bin/env bash
# Builds every kernel module of ../main/gpu/kernels.manifest for every target in targets.manifest,
# checks that each code object exports exactly the entry points its source declares, and writes
#   <res>/com/llmserve/kernels/<module>.<target>.{hsaco,cubin,ptx}   the code objects
#   <res>/com/llmserve/kernels/code-objects.tsv                       module, target, kind, file, sha256, symbols
#   <java>/com/llmserve/kernels/{KernelModuleId,Kernel}.java          the build-time ids, each kernel with
#                                                                     its parameters as declared
#   <java>/com/llmserve/kernels/KernelConstants.java                  the launch constants of ls_launch.h
# The source is the one declaration of a kernel: kernel-entry-points.awk reads every LS_KERNEL entry
# point and its parameter list out of it (and fails on a parameter type a launch cannot pass);
# launch-constants.awk reads the constants kernels and launchers share out of ls_launch.h.
# Incremental: a code object is rebuilt only when its source, a header or this script is newer.
# Tools can be overridden with CLANG, NVCC, AMD_READELF and READELF. KERNEL_KINDS (default
# "hsaco,cubin,ptx") limits the kinds built, e.g. "hsaco" for a ROCm image or "none" for a CPU
# image whose build has neither compiler: the Java sources are written either way.
#
# usage: build-kernels.sh <gpu-source-dir> <resource-out-dir> <java-out-dir>
set -euo pipefail

src=$1
res=$2/com/llmserve/kernels
java=$3/com/llmserve/kernels
here=$(dirname "${BASH_SOURCE[0]}")
CLANG=${CLANG:-clang++-19}
NVCC=${NVCC:-nvcc}
AMD_READELF=${AMD_READELF:-llvm-readelf-19}
READELF=${READELF:-readelf}

fail() { echo "build-kernels: $*" >&2; exit 1; }

KERNEL_KINDS=${KERNEL_KINDS:-hsaco,cubin,ptx}

mkdir -p "$res" "$java"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Modules and targets, comments and blank lines stripped; targets of the kinds asked for.
mapfile -t modules < <(grep -Ev '^[[:space:]]*(#|$)' "$src/kernels.manifest")
mapfile -t targets < <(grep -Ev '^[[:space:]]*(#|$)' "$src/targets.manifest" \
  | awk -v kinds=",$KERNEL_KINDS," 'index(kinds, "," $1 ",") > 0')
[ ${#modules[@]} -gt 0 ] || fail "no modules in $src/kernels.manifest"

# Each module's entry points, "<symbol> [<param>:<KIND>]..." per line in $work/<module>.entries; a
# symbol or enum constant declared by two modules would make the lookup by kernel ambiguous.
declare -A declared_by constant_of
for line in "${modules[@]}"; do
  read -r module source flag extra <<<"$line"
  [ -z "${extra:-}" ] && [ -n "${source:-}" ] && { [ -z "${flag:-}" ] || [ "$flag" = waits ]; } \
    || fail "kernels.manifest: '$line': want '<module> <source> [waits]' (the entry points come from the source)"
  [ -f "$src/$source" ] || fail "module '$module': source $src/$source not found"
  awk -f "$here/kernel-entry-points.awk" "$src/$source" > "$work/$module.entries" \
    || fail "module '$module': cannot read the entry points of $source"
  [ -s "$work/$module.entries" ] || fail "module '$module': $source declares no LS_KERNEL entry point"
  while read -r symbol _; do
    constant=${symbol#ls_}
    constant=${constant^^}
    [ -z "${declared_by[$symbol]:-}" ] || fail "$symbol is declared by modules ${declared_by[$symbol]} and $module"
    [ -z "${constant_of[$constant]:-}" ] || fail "$symbol and ${constant_of[$constant]} both become Kernel.$constant"
    declared_by[$symbol]=$module
    constant_of[$constant]=$symbol
  done < "$work/$module.entries"
done

needed_tools=()
for tline in "${targets[@]}"; do
  case ${tline%% *} in
    hsaco) needed_tools+=("$CLANG" "$AMD_READELF") ;;
    cubin) needed_tools+=("$NVCC" "$READELF") ;;
    ptx) needed_tools+=("$NVCC") ;;
  esac
done
for tool in ${needed_tools[@]+"${needed_tools[@]}"}; do
  command -v "$tool" >/dev/null 2>&1 \
    || fail "'$tool' not found. AMD code objects need Debian's clang-19, lld-19 and llvm-19 (scripts/install-deps.sh installs them); NVIDIA ones need nvcc (CUDA 13). KERNEL_KINDS=$KERNEL_KINDS"
done
if [ ${#targets[@]} -eq 0 ]; then
  echo "build-kernels: KERNEL_KINDS=$KERNEL_KINDS: writing ids only, no code objects"
fi

common_deps=("$src"/*.h "${BASH_SOURCE[0]}")

needs_build() {  # out, source
  local out=$1 dep
  [ -f "$out" ] || return 0
  for dep in "$2" "${common_deps[@]}"; do
    [ "$dep" -nt "$out" ] && return 0
  done
  return 1
}

compile() {  # kind target source out
  local kind=$1 target=$2 source=$3 out=$4
  case $kind in
    hsaco) "$CLANG" -x hip --offload-arch="$target" --cuda-device-only --no-gpu-bundle-output \
             -nogpuinc -nogpulib -O3 -std=c++17 -Wall -Wextra -Werror "$source" -o "$out" ;;
    cubin) "$NVCC" -x cu -cubin -arch="$target" -O3 -std=c++17 -Werror all-warnings "$source" -o "$out" ;;
    ptx)   "$NVCC" -x cu -ptx -arch="$target" -O3 -std=c++17 -Werror all-warnings "$source" -o "$out" ;;
    *) fail "unknown code-object kind '$kind' in targets.manifest" ;;
  esac
}

# The kernel entry points a code object really exports, one per line, sorted.
entry_points() {  # kind file
  case $1 in
    # Every AMD kernel has a kernel descriptor object named <kernel>.kd next to its code.
    hsaco) "$AMD_READELF" --dyn-syms -W "$2" | awk '$4 == "OBJECT" && $5 == "GLOBAL" && $NF ~ /\.kd$/ { sub(/\.kd$/, "", $NF); print $NF }' ;;
    cubin) "$READELF" -sW "$2" | awk '$4 == "FUNC" && $5 == "GLOBAL" { print $NF }' ;;
    ptx)   sed -nE 's/^\.visible \.entry ([A-Za-z_][A-Za-z0-9_]*)\(.*/\1/p' "$2" ;;
  esac | sort -u
}

# Compile what is out of date, up to one job per processor (JOBS overrides): the compilers are
# single-threaded and CI's machines have a few cores.
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
pids=()
for line in "${modules[@]}"; do
  read -r module source _ <<<"$line"
  for tline in "${targets[@]}"; do
    read -r kind target <<<"$tline"
    out="$res/$module.$target.$kind"
    if needs_build "$out" "$src/$source"; then
      echo "build-kernels: $module -> $target ($kind)"
      (compile "$kind" "$target" "$src/$source" "$out.tmp" && mv "$out.tmp" "$out") &
      pids+=($!)
      while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
    fi
  done
done
failed=0
for pid in "${pids[@]}"; do wait "$pid" || failed=$((failed + 1)); done
[ $failed -eq 0 ] || fail "$failed code object(s) failed to compile"

# A code object of a module or target that is no longer listed would still ship in the jar.
declare -A listed
for line in "${modules[@]}"; do
  read -r module _ <<<"$line"
  while read -r kind target; do
    listed[$module.$target.$kind]=1
  done < <(grep -Ev '^[[:space:]]*(#|$)' "$src/targets.manifest")
done
for out in "$res"/*.hsaco "$res"/*.cubin "$res"/*.ptx; do
  if [ -e "$out" ] && [ -z "${listed[$(basename "$out")]:-}" ]; then
    echo "build-kernels: removing $(basename "$out"), no longer listed"
    rm "$out"
  fi
done

tsv="$res/code-objects.tsv.tmp"
printf '# module\ttarget\tkind\tfile\tsha256\tsymbols\n' > "$tsv"
errors=0
for line in "${modules[@]}"; do
  read -r module source _ <<<"$line"
  expected=$(cut -d' ' -f1 "$work/$module.entries" | sort)
  for tline in "${targets[@]}"; do
    read -r kind target <<<"$tline"
    out="$res/$module.$target.$kind"
    actual=$(entry_points "$kind" "$out")
    if [ "$actual" != "$expected" ]; then
      echo "build-kernels: $out exports [$(echo $actual)], $source declares [$(echo $expected)]" >&2
      errors=$((errors + 1))
    fi
    sum=$(sha256sum "$out" | cut -d' ' -f1)
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$module" "$target" "$kind" "$(basename "$out")" "$sum" \
      "$(echo $expected | tr ' ' ',')" >> "$tsv"
  done
done
[ $errors -eq 0 ] || fail "$errors code object(s) do not export what their source declares"
mv "$tsv" "$res/code-objects.tsv"
echo "build-kernels: ${#modules[@]} modules x ${#targets[@]} targets, every entry point present"

# Java ids: modules in manifest order, kernels in declaration order within them; the ordinals index
# per-device caches.
{
  echo "// Generated by kernels/src/build/build-kernels.sh from kernels.manifest. Do not edit."
  echo "package com.llmserve.kernels;"
  echo
  echo "/** A kernel module: one code object per target, named {@code <name>.<target>.<kind>}. */"
  echo "public enum KernelModuleId {"
  for line in "${modules[@]}"; do
    read -r module source flag <<<"$line"
    echo "  ${module^^}(\"$module\", \"$source\", $([ "${flag:-}" = waits ] && echo true || echo false)),"
  done
  echo "  ;"
  cat <<'JAVA'

  private final String moduleName;
  private final String source;
  private final boolean waits;

  KernelModuleId(String moduleName, String source, boolean waits) {
    this.moduleName = moduleName;
    this.source = source;
    this.waits = waits;
  }

  /** The name code objects of this module carry, e.g. {@code norm} in {@code norm.gfx942.hsaco}. */
  public String moduleName() {
    return moduleName;
  }

  /** The kernel source file this module is built from. */
  public String source() {
    return source;
  }

  /**
   * Whether every entry point of this module waits for the kernel before it (ls_grid_wait) before
   * it reads what that kernel wrote or writes what it may still read ("waits" in kernels.manifest),
   * so the host may launch it while its predecessor still runs (programmatic dependent launch).
   */
  public boolean waitsForPredecessor() {
    return waits;
  }
}
JAVA
} > "$work/KernelModuleId.java"

{
  echo "// Generated by kernels/src/build/build-kernels.sh from the LS_KERNEL declarations of the kernel"
  echo "// sources. Do not edit."
  echo "package com.llmserve.kernels;"
  echo
  for kind in F32 I32 I64 POINTER; do echo "import static com.llmserve.kernels.KernelParam.Kind.$kind;"; done
  echo
  echo "import java.util.List;"
  echo
  echo "/**"
  echo " * A kernel entry point (an {@code extern \"C\"} symbol), the module that holds it, and its"
  echo " * parameters as its source declares them."
  echo " */"
  echo "public enum Kernel {"
  for line in "${modules[@]}"; do
    read -r module _ <<<"$line"
    while read -r symbol params; do
      constant=${symbol#ls_}
      printf '  %s(KernelModuleId.%s, "%s"' "${constant^^}" "${module^^}" "$symbol"
      for param in $params; do
        printf ',\n      new KernelParam("%s", %s)' "${param%:*}" "${param#*:}"
      done
      printf '),\n'
    done < "$work/$module.entries"
  done
  echo "  ;"
  cat <<'JAVA'

  private final KernelModuleId module;
  private final String symbol;
  private final List<KernelParam> params;

  Kernel(KernelModuleId module, String symbol, KernelParam... params) {
    this.module = module;
    this.symbol = symbol;
    this.params = List.of(params);
  }

  /** The module whose code object exports this kernel. */
  public KernelModuleId module() {
    return module;
  }

  /** The exported symbol name, looked up in the loaded code object. */
  public String symbol() {
    return symbol;
  }

  /** The parameters in declaration order: what a launch of this kernel must pass. */
  public List<KernelParam> params() {
    return params;
  }
}
JAVA
} > "$work/Kernel.java"

awk -f "$here/launch-constants.awk" "$src/ls_launch.h" > "$work/KernelConstants.java" \
  || fail "cannot turn ls_launch.h into KernelConstants"

# Rewrite the sources only on change, so the compiler's incremental build stays quiet.
for f in KernelModuleId Kernel KernelConstants; do
  cmp -s "$work/$f.java" "$java/$f.java" || mv "$work/$f.java" "$java/$f.java"
done
