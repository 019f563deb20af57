#!/usr/bin/env bash
# On a GPU host: the nightly-scale figures of `matload conform` (the
# nightly run: every legal form of the GPU's target on the driver JIT,
# the near-miss sweep and the registry confirmations), wall time and peak
# resident memory from /usr/bin/time -v, at several variant counts, and
# the binary before the launch pipeline came into conform side by side
# with the one after on the same workload. Run from the repository root
# after scripts/pack-for-device.sh built build/device:
#   scripts/device-scale-bench.sh OUT_DIR [OLD_MATLOAD] [VARIANTS...]
# Each run's summary, time -v report and results land in OUT_DIR;
# OUT_DIR/figures.tsv has one line per run.
set -uo pipefail
out=${1:?usage: device-scale-bench.sh OUT_DIR [OLD_MATLOAD] [VARIANTS...]}
old=${2:-}
shift $(($# < 2 ? $# : 2))
counts=("${@:-10000 100000 1000000}")
mkdir -p "$out"
export MATLOAD_SOURCE_DIR=$PWD LD_LIBRARY_PATH=$PWD/build/device/lib MATLOAD_DB=$out/bench.sqlite
printf 'binary\tvariants\texit\twall_s\tpeak_rss_kb\texecutions\n' >"$out/figures.tsv"
# bench NAME BINARY VARIANTS: one conform run, timed.
bench() {
  local name=$1 binary=$2 variants=$3 run="$out/$1-$3"
  /usr/bin/time -v "$binary" conform --variants "$variants" --seed 20261124 --out "$run" \
    >"$run.stdout" 2>"$run.stderr"
  local status=$? wall rss executions
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s }' "$run.stderr")
  rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$run.stderr")
  executions=$(grep -o '^[0-9]* executions judged' "$run.stdout" | grep -o '^[0-9]*')
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$variants" "$status" "$wall" "$rss" "$executions" | tee -a "$out/figures.tsv"
  rm -rf "$run/bundles"
}
build/device/matload devices >"$out/devices.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv >>"$out/devices.txt" 2>&1
nproc >"$out/cpus.txt"
for variants in ${counts[@]}; do
  bench new build/device/matload "$variants"
  if [[ -n $old && $variants -le 10000 ]]; then bench old "$old" "$variants"; fi
done
