#!/usr/bin/env bash
# The GPU judge side by side with the host judge, on a lent two-H200 machine
# (device tool), from build/kit (scripts/pack-for-device.sh's binaries,
# stripped, with their libraries). Usage: bench.sh OUT_DIR. A warm-up run
# first fills the driver's JIT cache and the store's fault memory, so that
# the runs compared do the same work; then each judge runs twice,
# alternating, on one GPU and on both. Everything lands in OUT_DIR/logs.tgz.
set -u
out=$1
kit=build/kit
export LD_LIBRARY_PATH=$PWD/$kit/lib MATLOAD_SOURCE_DIR=$PWD
m=$kit/matload
logs=/tmp/logs && rm -rf $logs /tmp/judge && mkdir -p $logs /tmp/judge
steps=$logs/steps.txt
{ date -u; git log -1 --oneline; nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version --format=csv; nproc; } >$logs/host.txt 2>&1

timeout 200 $kit/device_judge_device_test >$logs/device_judge_test.log 2>&1; echo "device_judge_device_test rc=$?" >>$steps

conform() {  # conform NAME DEVICES JUDGE VARIANTS WORKERS
  /usr/bin/time -f "$1: wall %e s, peak RSS %M KB" timeout 200 $m conform --devices $2 --judge $3 --variants $4 \
    --workers $5 --seed 20261128 --near_miss=false --out /tmp/judge/$1 --db /tmp/judge/store.sqlite \
    --progress_seconds 0 >/tmp/judge/$1.out 2>>$steps
  echo "$1 rc=$?" >>$steps
  cp /tmp/judge/$1/summary.md $logs/$1.md; cp /tmp/judge/$1/summary.json $logs/$1.json
}
conform warm-up all gpu 100000 32
for round in 1 2; do
  conform e6-one-gpu-host-$round 0 host 1000000 16
  conform e6-one-gpu-gpu-$round 0 gpu 1000000 16
done
for round in 1 2; do
  conform e6-two-gpus-host-$round all host 1000000 32
  conform e6-two-gpus-gpu-$round all gpu 1000000 32
done
timeout 60 $kit/gpu_throughput --judge both --seconds 10 --threads 16 >$logs/throughput.log 2>&1
echo "gpu_throughput rc=$?" >>$steps
tar -czf $out/logs.tgz -C $logs .
cat $steps
