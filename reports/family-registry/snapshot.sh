#!/bin/bash
# snapshot.sh MATLOAD FAKE_CUDA_DIR OUT: what issue 18's family registry must
# not change, written under OUT so that two builds' snapshots can be diffed
# (diff -r before after). A conform run on the fault rig's fake sm_90 GPU
# (harness/testing/fake_libcuda.cc: every defined case is a mismatch, so
# every family's bundles are written), its results, summary and bundles with
# the run's times and paths taken out; the support report of four targets;
# the model's answer for one form of each family; the forms and their case
# IDs; the spec examples' verdicts.
set -euo pipefail
matload=$1 fake=$2 out=$3
root=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$out" && mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Conform: every sm_90 form, 2 variants of seed 7 (the near-miss sweep stops on the fake JIT, which accepts the canary).
mkdir -p "$work/state"
set +e
LD_LIBRARY_PATH=$fake MATLOAD_FAKE_CUDA=normal MATLOAD_FAKE_CUDA_STATE=$work/state \
  "$matload" conform --variants 2 --seed 7 --workers 2 --near_miss=false --out "$work/run" --db "$work/results.sqlite" \
  >"$out/conform.stdout" 2>"$work/conform.stderr"
echo "exit $?" >"$out/conform.exit"
set -e
run=$work/run
# Times, durations, run IDs and paths vary from run to run; nothing else may.
strip() { sed -E -e "s#$work#WORK#g" -e 's/conform-[0-9]{8}T[0-9]{6}Z-[0-9a-f]+/RUN_ID/g' -e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9:.]+Z?/TIME/g' \
  -e 's/"([a-z_]*seconds|elapsed|duration|wall)[a-z_]*": *[0-9.e+-]+/"\1": T/g' -e 's/[0-9]+(\.[0-9]+)? ?(ms|s|min)\b/T/g'; }
strip <"$out/conform.stdout" >"$out/conform.stdout.txt" && rm "$out/conform.stdout"
strip <"$run/results.tsv" >"$out/results.tsv"
strip <"$run/summary.md" >"$out/summary.md"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); [d.pop(k,None) for k in ("run_id","started","finished","elapsed_seconds","seconds","run_directory","host")]; print(json.dumps(d,indent=1,sort_keys=True))' \
  "$run/summary.json" | strip >"$out/summary.json"
(cd "$run/bundles" && find . -type f | sort | while read -r f; do
   printf '%s %s\n' "$(strip <"$f" | sha256sum | cut -c1-16)" "$f"; done) >"$out/bundles.sha"
cp -r "$run/bundles" "$work/bundles-copy"

# Support: four targets at PTX 9.0, judged by the model and by ptxas.
"$matload" support --target sm_75,sm_90,sm_100a,sm_120a --out "$work/support" --db "$work/support.sqlite" \
  >/dev/null 2>&1 || true
for f in "$work/support"/*.md; do strip <"$f" >"$out/support-$(basename "$f")"; done

# The model, one form of each family.
{
  "$matload" model --target sm_90 --data iota16 'wmma.load.a.sync.aligned.row.m16n16k16.f16 {r0,r1,r2,r3,r4,r5,r6,r7}, [p];'
  "$matload" model --target sm_90 --data iota8 --stride 24 'wmma.load.c.sync.aligned.col.m16n16k16.f32 {r0,r1,r2,r3,r4,r5,r6,r7}, [p], s;'
  "$matload" model --target sm_90 --data iota8 'ldmatrix.sync.aligned.m8n8.x4.trans.b16 {a,b,c,d}, [p+32];'
  "$matload" model --target sm_100a --data iota32 --json 'tcgen05.ld.sync.aligned.16x64b.x2.b32 {r0, r1}, [taddr];'
  # The operands a text writes and the flags that give the rest.
  "$matload" model --target sm_90 --data iota16 --row-addresses "$(seq -s, 0 32 992)" 'ldmatrix.sync.aligned.m8n8.x2.shared.b16 {a,b}, [p+16];'
  "$matload" model --target sm_90 --data random:3 'ldmatrix.sync.aligned.m8n8.x1.b16 {a}, [p+48];'
  "$matload" model --target sm_90 --data iota8 --base 64 'wmma.load.b.sync.aligned.col.m16n16k16.shared.f16 {r0,r1,r2,r3,r4,r5,r6,r7}, [p+32], 48;'
  "$matload" model --target sm_90 --data iota8 --stride 8 'wmma.load.a.sync.aligned.row.m16n16k16.f16 {r0,r1,r2,r3,r4,r5,r6,r7}, [p];'
  "$matload" model --target sm_100a --data iota16 --base 7 'tcgen05.ld.sync.aligned.16x32bx2.x2.pack::16b.b32 {r0, r1}, [taddr], 8;'
  "$matload" model --target sm_110a --data random:5 --base 3 'tcgen05.ld.red.sync.aligned.32x32b.x2.f32.min.abs {r0, r1}, redval, [taddr];'
} 2>&1 | strip >"$out/model.txt" || true

# Forms with case IDs, legal and near miss, and the spec examples' verdicts.
for target in sm_75 sm_90 sm_100a sm_120a; do
  "$matload" forms --target "$target" --ids | sha256sum | sed "s/-$/forms $target/"
  "$matload" forms --target "$target" --illegal | sha256sum | sed "s/-$/illegal $target/"
done >"$out/forms.sha"
# The examples in the registry's order of old (ldmatrix, wmma.load, tcgen05.ld), from
# corpora/spec_examples.txt before 2f5b360's successor, from the family folders after it.
examples=$work/spec-examples.in
if [[ -f $root/corpora/spec_examples.txt ]]; then
  cp "$root/corpora/spec_examples.txt" "$examples"
else
  cat "$root"/families/{ldmatrix,wmma,tcgen05}/*_spec_examples.txt >"$examples"
fi
"$matload" check --target all --file "$examples" 2>&1 | strip >"$out/spec-examples.txt" || true
echo "snapshot in $out"
