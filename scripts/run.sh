#!/usr/bin/env bash
# The main job. With a GPU: the conformance run on device 0 (every legal form
# executed and every register compared with the model, through the driver JIT
# and ptxas cubins; the near-miss forms through the JIT) and the self-test.
# Without one: the compile-only support sweep (every legal and near-miss form
# on every target, model against ptxas). Both judge the spec's own examples.
# Reports go to build/main-job/ (made afresh each time); the runs are kept in
# the results store build/matload-results.sqlite (`matload runs --db ...`);
# the published reports live in reports/.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/build.sh"
matload="$root/build/default/matload"
out="$root/build/main-job"
rm -rf "$out"
export MATLOAD_SOURCE_DIR="$root" MATLOAD_DB="${MATLOAD_DB:-$root/build/matload-results.sqlite}"

echo "== Devices"
if "$matload" devices; then gpu=1; else gpu=0; fi

echo
echo "== The spec's examples, judged by the model on every target at PTX 9.0"
cat "$root"/families/*/*_spec_examples.txt >"$out-examples.in"
"$matload" check --target all --file "$out-examples.in" >"$out-examples.txt" 2>&1 || true
rm -f "$out-examples.in"
mkdir -p "$out" && mv "$out-examples.txt" "$out/spec-examples.txt"
grep -c . "$out/spec-examples.txt" | xargs printf '%s verdicts in build/main-job/spec-examples.txt\n'

if [[ $gpu == 1 ]]; then
  echo
  echo "== Conformance run on device 0: results and bundles in build/main-job/conform"
  status=0
  "$matload" conform --paths driver-jit,ptxas-cubin --out "$out/conform" || status=$?
  echo
  echo "== Self-test: five planted bugs must be caught and bundled"
  "$matload" selftest --out "$out/selftest" || status=$?
  exit $status
fi
echo
echo "== No GPU here: the compile-only support sweep, the model against ptxas on every target"
"$matload" support --out "$out/support-ptxas"
