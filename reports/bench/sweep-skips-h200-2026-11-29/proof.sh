#!/usr/bin/env bash
# Sweeps that skip the registry's predicted fault classes, proven on a lent
# H200 (device tool), from build/kit (scripts/pack-for-device.sh's
# binaries, stripped, with their libraries). Usage: proof.sh OUT_DIR. Each
# step's log goes to OUT_DIR; every step has a time limit, so that one that
# hangs cannot take the rest.
set -u
out=$1
kit=build/kit
export LD_LIBRARY_PATH=$PWD/$kit/lib MATLOAD_SOURCE_DIR=$PWD
steps=$out/steps.txt
{ date -u; nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version --format=csv; nproc; } >$out/host.txt 2>&1

# 1. Every ldmatrix and wmma.load form with a plan swept, predicted fault
#    classes skipped; each form's census of its classes; the planted bugs.
timeout 300 $kit/device_sweep_device_test >$out/sweep_test.log 2>&1; echo "device_sweep_device_test rc=$?" >>$steps

# 2. The same seed judged on the host and on the GPU (every form swept now,
#    wmma.load's with predicted faults too): identical results.tsv.
m=$kit/matload
work=/tmp/sweep && rm -rf $work && mkdir -p $work
for judge in host gpu; do
  /usr/bin/time -f "$judge 1e5 wall %e s, peak RSS %M KB" timeout 150 $m conform --devices 0 --variants 100000 \
    --judge $judge --seed 20261129 --out $work/e5-$judge --db $work/e5-$judge.sqlite --progress_seconds 0 \
    >$work/e5-$judge.out 2>>$steps
  echo "conform 1e5 --judge $judge rc=$?" >>$steps
  cp $work/e5-$judge/summary.md $out/e5-$judge.md
done
grep -v '^#' $work/e5-host/results.tsv >$work/host.tsv; grep -v '^#' $work/e5-gpu/results.tsv >$work/gpu.tsv
if cmp -s $work/host.tsv $work/gpu.tsv; then echo "results.tsv at 1e5: identical ($(wc -l <$work/host.tsv) cases)" >>$steps
else echo "results.tsv at 1e5: DIFFER" >>$steps; diff $work/host.tsv $work/gpu.tsv | head -40 >>$steps; fi

# 3. Every planted bug under both judges, the GPU judge's through sweeps.
timeout 240 $m selftest --device 0 --out $work/selftest --progress_seconds 0 >$out/selftest.log 2>&1
echo "selftest rc=$?" >>$steps
cp $work/selftest/selftest.md $out/ 2>/dev/null
cat $steps
