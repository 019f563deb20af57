#!/usr/bin/env bash
# The main job. Without a GPU: the compile-only support sweep (every legal and
# near-miss form on every target, model against ptxas) and the spec's own
# examples. With a GPU the driver's JIT on device 0 is swept as well; the GPU
# conformance run (execute and compare registers) is not built yet.
# Reports go to build/main-job/; the published ones live in reports/.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/build.sh"
matload="$root/build/default/matload"
out="$root/build/main-job"
export MATLOAD_SOURCE_DIR="$root"

echo "== Devices"
if "$matload" devices; then gpu=1; else gpu=0; fi

echo
echo "== The spec's examples, judged by the model on every target at PTX 9.0"
"$matload" check --target all --file "$root/corpora/spec_examples.txt" >"$out-examples.txt" 2>&1 || true
mkdir -p "$out" && mv "$out-examples.txt" "$out/spec-examples.txt"
grep -c . "$out/spec-examples.txt" | xargs printf '%s verdicts in build/main-job/spec-examples.txt\n'

echo
echo "== Support sweep: the model against ptxas on every target (compile-only)"
"$matload" support --out "$out/support-ptxas"
if [[ $gpu == 1 ]]; then
  echo
  echo "== Support sweep: the model against the driver JIT on device 0"
  "$matload" support --compiler driver --out "$out/support-driver"
fi
