#!/usr/bin/env bash
# The main job: build, then judge the spec's own examples on every target and
# list the size of the conformance space (legal and near-miss forms) per
# target. Without a GPU this is compile-only by nature; later issues add the
# ptxas support sweep and the GPU conformance run to this job.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/build.sh"
matload="$root/build/default/matload"
ptx=9.0

echo "== The spec's examples, judged by the model on every target at PTX $ptx"
"$matload" check --target all --ptx "$ptx" --file "$root/corpora/spec_examples.txt"

echo
echo "== Conformance space at PTX $ptx (matload forms)"
printf '%-9s %8s %10s\n' target legal near-miss
for target in sm_75 sm_80 sm_86 sm_87 sm_88 sm_89 sm_90 sm_90a sm_100 sm_100a sm_100f sm_103 sm_103a sm_103f \
              sm_110 sm_110a sm_110f sm_120 sm_120a sm_120f sm_121 sm_121a sm_121f; do
  legal=$("$matload" forms --target "$target" --ptx "$ptx" | wc -l)
  illegal=$("$matload" forms --target "$target" --ptx "$ptx" --illegal | wc -l)
  printf '%-9s %8d %10d\n' "$target" "$legal" "$illegal"
done
