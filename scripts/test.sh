#!/usr/bin/env bash
# Builds matload and runs every test (ctest, 2 jobs). The tests need ptxas
# from the CUDA toolkit and no GPU.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/build.sh"
cd "$root"
ctest --preset default
# ctest shows a skipped test as "Skipped"; say why, from the tests' own output.
grep -h -o "needs a GPU: .*" build/default/Testing/Temporary/LastTest.log | sort -u | sed 's/^/skipped: /' || true
