#!/usr/bin/env bash
# On a GPU host with two or more GPUs: the nightly conform run (every legal
# form of the GPU's target on the driver JIT, the near-miss sweep, the
# registry confirmations) three ways, with the same seed and variant count:
# on one GPU; spread over two by one process (--devices 0,1); and as two
# shards (--shard 0/2, 1/2) run at once, one per GPU, then joined by
# `matload merge`, as Slurm would run them. The configurations alternate
# their order from round to round; wall time and peak resident memory come
# from /usr/bin/time -v (for the shards: the pair and the merge, end to end).
# Then each configuration's results.tsv is compared with the one-GPU run's,
# line for line below the header (which names the GPUs), and through
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
export MATLOAD_SOURCE_DIR=$PWD LD_LIBRARY_PATH=$PWD/build/device/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} MATLOAD_DB=$out/bench.sqlite
matload=${MATLOAD:-build/device/matload}
printf 'config\tvariants\tround\texit\twall_s\tpeak_rss_kb\texecutions\n' >"$out/figures.tsv"

# timed RUN ARGS...: matload ARGS under /usr/bin/time -v, output in RUN.stdout and RUN.stderr.
timed() {
  local run=$1
  shift
  /usr/bin/time -v "$matload" "$@" >"$run.stdout" 2>"$run.stderr"
}

# seconds FILE...: the largest wall time /usr/bin/time -v reported in FILEs.
seconds() {
  awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i];
    if (s > m) m = s } END { print m }' "$@"
}

# record CONFIG VARIANTS ROUND STATUS WALL RUN...: one line of figures.tsv
# (peak RSS: the largest of the RUNs'; executions: their sum).
record() {
  local config=$1 variants=$2 round=$3 status=$4 wall=$5
  shift 5
  local stderrs=() stdouts=() run
  for run in "$@"; do stderrs+=("$run.stderr") stdouts+=("$run.stdout"); done
  local rss executions
  rss=$(awk -F': ' '/Maximum resident set size/ { if ($2 > m) m = $2 } END { print m }' "${stderrs[@]}")
  executions=$(cat "${stdouts[@]}" | grep -o '^[0-9]* executions judged' | awk '{ s += $1 } END { print s }')
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$config" "$variants" "$round" "$status" "$wall" "$rss" "$executions" |
    tee -a "$out/figures.tsv"
}

# bench CONFIG VARIANTS ROUND: one timed run of CONFIG (1gpu, 2gpu or 2shards).
bench() {
  local config=$1 variants=$2 round=$3 run="$out/$1-$2-r$3"
  local args=(conform --variants "$variants" --seed 20261126 --progress_seconds 30)
  case $config in
    1gpu) timed "$run" "${args[@]}" --devices 0 --out "$run"; record "$@" $? "$(seconds "$run.stderr")" "$run" ;;
    2gpu) timed "$run" "${args[@]}" --devices 0,1 --out "$run"; record "$@" $? "$(seconds "$run.stderr")" "$run" ;;
    2shards)
      local start=$SECONDS parent="gpus-$variants-r$round" status=0 shard pids=()
      for shard in 0 1; do
        timed "$run-s$shard" "${args[@]}" --device "$shard" --shard "$shard/2" --parent "$parent" \
          --db "$out/$parent-s$shard.sqlite" --out "$run-s$shard" &
        pids+=($!)
      done
      for shard in 0 1; do wait "${pids[$shard]}" || status=$?; done
      timed "$run" merge "conform-$parent" --from "$out/$parent-s0.sqlite,$out/$parent-s1.sqlite" --out "$run" ||
        status=$?
      record "$@" "$status" "$((SECONDS - start))" "$run-s0" "$run-s1"
      ;;
  esac
  rm -rf "$run/bundles" "$run-s0/bundles" "$run-s1/bundles"
}

# compare VARIANTS CONFIG: CONFIG's round-1 results against the one-GPU run's.
compare() {
  local one="$out/1gpu-$1-r1" other="$out/$2-$1-r1" verdict=DIFFERENT
  if cmp -s <(tail -n +2 "$one/results.tsv") <(tail -n +2 "$other/results.tsv"); then verdict=identical; fi
  echo "results.tsv below the header, 1gpu vs $2, $1 variants: $verdict" | tee -a "$out/equality.txt"
  "$matload" diff "$(cat "$one/.matload-run")" "$(cat "$other/.matload-run")" >>"$out/equality.txt" 2>&1
  echo "matload diff exit $?" | tee -a "$out/equality.txt"
}

"$matload" devices >"$out/devices.txt" 2>&1
nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv >>"$out/devices.txt" 2>&1
nproc >"$out/cpus.txt"
configs=(1gpu 2gpu 2shards)
for variants in "${counts[@]}"; do
  for round in $(seq 1 "$rounds"); do
    # Each round starts with the next configuration.
    for k in 0 1 2; do bench "${configs[(round - 1 + k) % 3]}" "$variants" "$round"; done
  done
  compare "$variants" 2gpu
  compare "$variants" 2shards
done
