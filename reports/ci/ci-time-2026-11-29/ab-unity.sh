#!/usr/bin/env bash
# Unity builds of the libraries, off and on, side by side: each build
# starts from an empty build tree of the same checkout and builds what
# each PRESET's CI build needs of the libraries (the default preset's
# matload binary, which links every library; the fuzz preset's four CI
# fuzzers), one after the other on a quiet machine. Prints each build's CPU
# seconds (user + system) and wall time. Usage: ab-unity.sh OUT_DIR PRESET...
set -euo pipefail
out=$1
shift
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cd "$root"
for unity in OFF ON; do
  for preset in "$@"; do
    dir=$out/build-$preset-unity-$unity
    rm -rf "$dir"
    cmake --preset "$preset" -B "$dir" -DMATLOAD_UNITY_LIBRARIES=$unity >/dev/null
    targets=matload
    [[ $preset == fuzz ]] && targets="text_fuzzer legality_fuzzer reference_fuzzer cli_fuzzer"
    # shellcheck disable=SC2086
    /usr/bin/time -f "$preset unity $unity: %U user + %S system CPU s, %e s wall" \
      cmake --build "$dir" -j 2 --target $targets >"$dir.log" 2>"$dir.time" || { cat "$dir.log"; exit 1; }
    cat "$dir.time"
    rm -rf "$dir"
  done
done
