#!/usr/bin/env bash
# On a GPU host with two or more GPUs: the nightly conform run (every legal
# form of the GPU's target on the driver JIT, the near-miss sweep, the
# registry confirmations) on one GPU and spread over two (--devices 0,1),
# the same seed and variant count, alternated so that neither order is
# favoured; wall time and peak resident memory from /usr/bin/time -v.
# Then the two runs' results.tsv are compared line for line and through
# `matload diff`: spreading a run over GPUs must not change one result.
# Run from the repository root after scripts/pack-for-device.sh built
# build/device:
#   scripts/device-multi-gpu-bench.sh OUT_DIR ROUNDS [VARIANTS...]
# OUT_DIR/figures.tsv has one line per run; OUT_DIR/equality.txt the
# comparisons.
set -uo pipefail
out=${1:?usage: device-multi-gpu-bench.sh OUT_DIR ROUNDS [VARIANTS...]}
rounds=${2:?usage: device-multi-gpu-bench.sh OUT_DIR ROUNDS [VARIANTS...]}
shift 2
counts=("${@:-100000}")
mkdir -p "$out"
export MATLOAD_SOURCE_DIR=$PWD LD_LIBRARY_PATH=$PWD/build/device/lib MATLOAD_DB=$out/bench.sqlite
matload=build/device/matload
printf 'gpus\tvariants\tround\texit\twall_s\tpeak_rss_kb\texecutions\n' >"$out/figures.tsv"

# bench DEVICES VARIANTS ROUND: one timed conform run on DEVICES ("0" or "0,1").
bench() {
  local devices=$1 variants=$2 round=$3 run="$out/gpus${1//,/}-$2-r$3"
  /usr/bin/time -v "$matload" conform --devices "$devices" --variants "$variants" --seed 20261126 \
    --progress_seconds 30 --out "$run" >"$run.stdout" 2>"$run.stderr"
  local status=$? wall rss executions
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s }' "$run.stderr")
  rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$run.stderr")
  executions=$(grep -o '^[0-9]* executions judged' "$run.stdout" | grep -o '^[0-9]*')
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$devices" "$variants" "$round" "$status" "$wall" "$rss" "$executions" |
    tee -a "$out/figures.tsv"
  rm -rf "$run/bundles"
}

"$matload" devices >"$out/devices.txt" 2>&1
nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv >>"$out/devices.txt" 2>&1
nproc >"$out/cpus.txt"
for variants in "${counts[@]}"; do
  for round in $(seq 1 "$rounds"); do
    # Odd rounds start with one GPU, even rounds with two.
    if ((round % 2)); then order=(0 0,1); else order=(0,1 0); fi
    for devices in "${order[@]}"; do bench "$devices" "$variants" "$round"; done
  done
  one="$out/gpus0-$variants-r1" two="$out/gpus01-$variants-r1"
  if cmp -s "$one/results.tsv" "$two/results.tsv"; then verdict=identical; else verdict=DIFFERENT; fi
  echo "results.tsv, 1 GPU vs 2 GPUs, $variants variants: $verdict" | tee -a "$out/equality.txt"
  "$matload" diff "$(cat "$one/.matload-run")" "$(cat "$two/.matload-run")" >>"$out/equality.txt" 2>&1
  echo "matload diff exit $?" | tee -a "$out/equality.txt"
done
