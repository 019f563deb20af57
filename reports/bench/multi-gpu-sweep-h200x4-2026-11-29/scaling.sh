#!/usr/bin/env bash
# How the sweep scales over the GPUs of one host (issue 35), on a lent
# machine of four H200s, from build/kit, in one call:
#  1. gpu_throughput's swept ldmatrix.x4 on 1, 2 and 4 GPUs at once, one
#     process a GPU: what the GPUs themselves give;
#  2. conform over every legal sm_90 form at 10^8 variants a form (the
#     nightly) on 1, 2 and 4 GPUs, 16 workers a GPU, a fresh store and seed
#     each, after a warm-up at 10^5 that fills the driver's JIT cache.
# Each run's summaries and /usr/bin/time's figures land in OUT_DIR/scaling.tgz.
# Usage: scaling.sh OUT_DIR.
set -u
out=$1
kit=build/kit
export LD_LIBRARY_PATH=$PWD/$kit/lib MATLOAD_SOURCE_DIR=$PWD
m=$kit/matload
work=/tmp/scaling && rm -rf $work && mkdir -p $work/logs
steps=$work/logs/steps.txt
nvidia-smi --query-gpu=index,name,driver_version,pci.bus_id --format=csv >$work/logs/gpus.csv
nvidia-smi topo -m >>$work/logs/gpus.csv 2>&1
nproc >$work/logs/cores.txt
$m --version >$work/logs/version.txt 2>&1
devices_of() { seq -s, 0 $(($1 - 1)); }
for gpus in 1 2 4; do
  for device in $(seq 0 $((gpus - 1))); do
    timeout 60 $kit/gpu_throughput --judge gpu --seconds 8 --threads 8 --device $device \
      --forms ldmatrix.sync.aligned.m8n8.x4.shared.b16 >$work/logs/throughput-$gpus-gpus-device-$device.log 2>&1 &
  done
  wait
done
conform() {  # conform NAME GPUS VARIANTS SEED
  local name=$1 gpus=$2 variants=$3 seed=$4
  /usr/bin/time -f "$name: wall %e s, user %U s, system %S s, peak RSS %M KB" timeout 250 $m conform \
    --devices $(devices_of $gpus) --workers $((16 * gpus)) --variants $variants --seed $seed --near_miss=false \
    --out $work/$name --db $work/$name.sqlite --progress_seconds 0 >$work/$name.out 2>>$steps
  echo "$name rc=$?" >>$steps
  cp $work/$name/summary.md $work/logs/$name.md; cp $work/$name/summary.json $work/logs/$name.json
}
conform warm-up 4 100000 20261128
for gpus in 1 2 4; do conform e8-$gpus-gpus $gpus 100000000 2026112900$gpus; done
grep -h "checked\|G/s\|M/s" $work/logs/throughput-*.log >>$steps
tar -czf $out/scaling.tgz -C $work/logs .
cat $steps
