#!/usr/bin/env bash
# Installs what is missing, then configures and builds matload (CMake preset
# "default": clang-14, warnings as errors). Sourced by run.sh and test.sh.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/install-deps.sh"
cd "$root"
cmake --preset default >/dev/null
cmake --build --preset default -j "$(nproc)"
