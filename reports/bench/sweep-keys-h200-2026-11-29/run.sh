#!/usr/bin/env bash
# The sweep's keys mixed a lane each and its word index in 32 bits, on a
# lent H200, from build/kit (this tree) and build/kit/old (7578cc8's
# gpu_throughput and matload), in one call:
#  1. DeviceSweepDeviceTest: every sweep's draws and verdicts against the host's;
#  2. conform at 10^5 variants a form, the same seed, old and new: results.tsv identical;
#  3. gpu_throughput --judge gpu, old and new side by side, twice each, alternating.
# Usage: run.sh OUT_DIR.
set -u
out=$1
kit=build/kit
export LD_LIBRARY_PATH=$PWD/$kit/lib MATLOAD_SOURCE_DIR=$PWD
work=/tmp/keys && rm -rf $work && mkdir -p $work/logs
steps=$work/logs/steps.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >$steps
$kit/matload --version >>$steps 2>&1
timeout 300 $kit/device_sweep_device_test >$work/logs/sweep_test.log 2>&1
echo "device_sweep_device_test rc=$?" >>$steps
grep -E "^\[ +(OK|FAILED|SKIPPED) +\]" $work/logs/sweep_test.log >>$steps
for build in old new; do
  m=$kit/matload && [ $build = old ] && m=$kit/old/matload
  /usr/bin/time -f "conform 1e5 $build: wall %e s" timeout 120 $m conform --devices 0 --variants 100000 \
    --seed 20261130 --near_miss=false --out $work/conform-$build --db $work/$build.sqlite --progress_seconds 0 \
    >$work/conform-$build.out 2>>$steps
  echo "conform $build rc=$?" >>$steps
done
cmp $work/conform-old/results.tsv $work/conform-new/results.tsv && echo "results.tsv identical: $(wc -l <$work/conform-new/results.tsv) lines" >>$steps
cp $work/conform-new/summary.md $work/logs/conform-new.md
forms=ldmatrix.sync.aligned.m8n8.x4.shared.b16,wmma.load.a.sync.aligned.row.m16n16k16.global.f16
for round in 1 2; do
  for build in old new; do
    g=$kit/gpu_throughput && [ $build = old ] && g=$kit/old/gpu_throughput
    timeout 120 $g --judge gpu --seconds 8 --threads 16 --forms $forms >$work/logs/throughput-$build-$round.log 2>&1
    grep swept $work/logs/throughput-$build-$round.log | sed "s/^/$build $round: /" >>$steps
  done
done
tar -czf $out/keys.tgz -C $work/logs .
cat $steps
