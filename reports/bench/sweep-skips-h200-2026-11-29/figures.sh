#!/usr/bin/env bash
# Figures of sweeps that skip predicted fault classes, on a lent H200, from
# build/kit, in one call: conform over every legal sm_90 form at 10^6
# variants a form under each judge, and at 10^8 under the GPU judge (the
# nightly goal), after a warm-up at 10^5 that fills the driver's JIT cache
# and the store's fault memory; then gpu_throughput's host, GPU and swept
# judges side by side. Each run's summaries and /usr/bin/time's wall, CPU
# and peak RSS land in OUT_DIR/figures.tgz. Usage: figures.sh OUT_DIR.
set -u
out=$1
kit=build/kit
export LD_LIBRARY_PATH=$PWD/$kit/lib MATLOAD_SOURCE_DIR=$PWD
m=$kit/matload
work=/tmp/figures && rm -rf $work && mkdir -p $work/logs
steps=$work/logs/figures-steps.txt
{ date -u; nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version --format=csv; nproc; } >$work/logs/host.txt 2>&1
conform() {  # conform NAME JUDGE VARIANTS [FLAGS...]
  local name=$1 judge=$2 variants=$3; shift 3
  /usr/bin/time -f "$name: wall %e s, user %U s, system %S s, peak RSS %M KB" timeout 250 $m conform --devices 0 \
    --judge $judge --variants $variants --workers 16 --seed 20261129 --near_miss=false --out $work/$name \
    --db $work/store.sqlite --progress_seconds 0 "$@" >$work/$name.out 2>>$steps
  echo "$name rc=$?" >>$steps
  cp $work/$name/summary.md $work/logs/$name.md; cp $work/$name/summary.json $work/logs/$name.json
}
conform warm-up gpu 100000
conform e6-host host 1000000
conform e6-gpu gpu 1000000
conform e8-gpu gpu 100000000
timeout 120 $kit/gpu_throughput --judge both --seconds 8 --threads 16 >$work/logs/throughput.log 2>&1
echo "gpu_throughput rc=$?" >>$steps
tar -czf $out/figures.tgz -C $work/logs .
cat $steps
