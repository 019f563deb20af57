#!/usr/bin/env bash
# The first sweeps on a lent H200 (device tool), from build/kit
# (scripts/pack-for-device.sh's binaries, stripped, with their libraries).
# Usage: run.sh OUT_DIR. Each step's log goes to OUT_DIR; every step has a
# time limit, so that one that hangs cannot take the rest.
set -u
out=$1
kit=build/kit
export LD_LIBRARY_PATH=$PWD/$kit/lib MATLOAD_SOURCE_DIR=$PWD
steps=$out/steps.txt
{ date -u; nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version --format=csv; nproc; } >$out/host.txt 2>&1

# 1. Every planned ldmatrix form swept, its kept variants held to the model,
#    and the planted bugs the sweep must show or be stopped by.
timeout 400 $kit/device_sweep_device_test >$out/sweep_test.log 2>&1; echo "device_sweep_device_test rc=$?" >>$steps

# 2. The one-variant-a-block device judge, on the new row draws.
timeout 200 $kit/device_judge_device_test >$out/device_judge_test.log 2>&1; echo "device_judge_device_test rc=$?" >>$steps

# 3. Side by side, in one call: host judge, GPU judge one variant a block, GPU judge swept.
timeout 120 $kit/gpu_throughput --judge both --seconds 8 --threads 16 >$out/throughput.log 2>&1
echo "gpu_throughput rc=$?" >>$steps

# 4. The sweep's grid: blocks per launch.
for blocks in 264 528 1056 2112; do
  timeout 60 $kit/gpu_throughput --judge gpu --forms ldmatrix.sync.aligned.m8n8.x4.shared.b16 --seconds 5 \
    --threads 16 --sweep_blocks $blocks --benchmark_filter=swept >>$out/grid.log 2>&1
  echo "gpu_throughput --sweep_blocks $blocks rc=$?" >>$steps
done
# 5. The same seed judged on the host and on the GPU (ldmatrix swept): identical results.tsv.
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
cat $steps
