#!/usr/bin/env bash
# On a lent machine of two H200s: a soak's rate on one GPU and on two,
# with rounds sized to about --round_seconds (the default, 60 s) from a
# first round of 10^7 variants a form, and, for comparison, with every
# round at the old default size, 10^6 (--round_seconds 0). A warm-up
# conform at 10^5 fills the JIT cache first. Usage: run.sh OUT_DIR.
set -u
out=$1
kit=build/kit
export LD_LIBRARY_PATH=$PWD/$kit/lib MATLOAD_SOURCE_DIR=$PWD
m=$kit/matload
work=/tmp/soak-sized && rm -rf $work && mkdir -p $work/logs
steps=$work/logs/steps.txt
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader >$steps
nproc >>$steps
$m --version | head -1 >>$steps
/usr/bin/time -f "warm-up: wall %e s" $m conform --devices 0,1 --variants 100000 --seed 20261129 --near_miss=false \
  --out $work/warm-up --db $work/store.sqlite --progress_seconds 0 >$work/warm-up.out 2>>$steps
echo "warm-up rc=$?" >>$steps
soak() {  # soak NAME DEVICES MINUTES [FLAGS...]
  local name=$1 devices=$2 minutes=$3
  shift 3
  /usr/bin/time -f "$name: wall %e s, peak RSS %M KB" timeout 400 $m soak --devices $devices --minutes $minutes \
    --seed 20261129 --out $work/$name --db $work/store.sqlite --progress_seconds 0 "$@" >$work/$name.out 2>>$steps
  echo "$name rc=$?" >>$steps
  cp $work/$name/summary.md $work/logs/$name.md
}
soak sized-1-gpu 0 2 --round_variants 10000000
soak sized-2-gpus 0,1 2 --round_variants 10000000
soak fixed-1-gpu 0 1 --round_seconds 0
soak fixed-2-gpus 0,1 1 --round_seconds 0
tar -czf $out/soak-sized.tgz -C $work/logs .
cat $steps
