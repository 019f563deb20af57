#!/usr/bin/env bash
# Neighbouring lanes split the window's 64-bit data words (a window is now
# SplitMix64's outputs laid end to end), on a lent H200, from build/kit
# (this tree) and build/kit/old (e3c9683's matload and gpu_throughput), in
# one call:
#  1. the device tests of the sweep, the one-variant judge and wmma.load,
#     and selftest (every planted bug under both judges);
#  2. conform at 10^5 variants a form, the same seed: new --judge gpu and
#     --judge host (results.tsv identical), and old --judge gpu;
#  3. gpu_throughput --judge gpu, old and new side by side, twice each,
#     alternating;
#  4. the nightly, conform at 10^8 variants a form, old then new, each with
#     a store of its own warmed at 10^5, so the confirmations are remembered.
# Usage: run.sh OUT_DIR.
set -u
out=$1
kit=build/kit
export LD_LIBRARY_PATH=$PWD/$kit/lib MATLOAD_SOURCE_DIR=$PWD
work=/tmp/pairs && rm -rf $work && mkdir -p $work/logs
steps=$work/logs/steps.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >$steps
$kit/matload --version >>$steps 2>&1
$kit/old/matload --version >>$steps 2>&1
for test in device_sweep_device_test device_judge_device_test wmma_device_test; do
  timeout 200 $kit/$test >$work/logs/$test.log 2>&1
  echo "$test rc=$?" >>$steps
  grep -E "^\[ +(OK|FAILED|SKIPPED) +\]|tests? ran" $work/logs/$test.log | tail -3 >>$steps
done
timeout 200 $kit/matload selftest --device 0 --out $work/selftest --progress_seconds 0 >$work/logs/selftest.log 2>&1
echo "selftest rc=$?" >>$steps
conform() {  # name matload judge variants store
  /usr/bin/time -f "conform $1: wall %e s, peak RSS %M KB" timeout 240 $2 conform --devices 0 --judge $3 \
    --variants $4 --seed 20261201 --near_miss=false --out $work/conform-$1 --db $work/$5.sqlite \
    --progress_seconds 0 >$work/logs/conform-$1.out 2>>$steps
  echo "conform $1 rc=$?" >>$steps
  grep -h "GPU phase" $work/conform-$1/summary.md >>$steps
  cp $work/conform-$1/summary.md $work/logs/conform-$1.md
}
conform e5-new-gpu $kit/matload gpu 100000 new
conform e5-new-host $kit/matload host 100000 new-host
conform e5-old-gpu $kit/old/matload gpu 100000 old
cmp $work/conform-e5-new-gpu/results.tsv $work/conform-e5-new-host/results.tsv &&
  echo "new gpu and host results.tsv identical: $(wc -l <$work/conform-e5-new-gpu/results.tsv) lines" >>$steps
diff <(tail -n +2 $work/conform-e5-old-gpu/results.tsv) <(tail -n +2 $work/conform-e5-new-gpu/results.tsv) \
  >$work/logs/old-new-e5.diff && echo "old and new results.tsv identical but the first line" >>$steps
forms=ldmatrix.sync.aligned.m8n8.x4.shared.b16,wmma.load.a.sync.aligned.row.m16n16k16.global.f16
for round in 1 2; do
  for build in old new; do
    g=$kit/gpu_throughput && [ $build = old ] && g=$kit/old/gpu_throughput
    timeout 120 $g --judge gpu --seconds 8 --threads 16 --forms $forms >$work/logs/throughput-$build-$round.log 2>&1
    grep swept $work/logs/throughput-$build-$round.log | sed "s/^/$build $round: /" >>$steps
  done
done
conform e8-old $kit/old/matload gpu 100000000 old
conform e8-new $kit/matload gpu 100000000 new
tar -czf $out/pairs.tgz -C $work/logs .
cat $steps
