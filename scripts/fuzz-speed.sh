#!/usr/bin/env bash
# Exec/s of each CPU fuzz target alone: one process, one core, SECONDS each
# (default 60), from a copy of its seed corpus, with libFuzzer's final
# stats. A benchmark run, not a test: campaigns share cores, so their
# exec/s mix the targets; this one does not. Needs the fuzz preset built
# (cmake --preset fuzz && cmake --build --preset fuzz).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
seconds=${1:-60}
fuzzers="$root/build/fuzz/fuzz"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export MATLOAD_SOURCE_DIR="$root" MATLOAD_FINDINGS_DIR="$work/findings"
echo "| target | seconds | executions | exec/s | coverage (cov) |"
echo "| --- | ---: | ---: | ---: | ---: |"
for target in text legality reference; do
  case $target in
    text) seeds="$root/corpora/fuzz/text_fuzzer" ;;
    *) seeds="$root/corpora/fuzz/cases" ;;
  esac
  mkdir -p "$work/$target"
  cp -r "$seeds/." "$work/$target/"
  log="$work/$target.log"
  "$fuzzers/${target}_fuzzer" -max_total_time="$seconds" -seed=1 -print_final_stats=1 -dict="$root/fuzz/ptx.dict" \
    -max_len=8192 "$work/$target" >"$log" 2>&1 || { tail -20 "$log"; exit 1; }
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  echo "| $target | $seconds | $runs | $rate | $cov |"
done
