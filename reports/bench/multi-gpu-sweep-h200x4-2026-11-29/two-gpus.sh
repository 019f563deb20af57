#!/usr/bin/env bash
# On a lent machine of two H200s, with 2 workers a GPU (workers-one-gpu.sh
# found them enough): conform at 10^8 variants a form on 1 and on 2 GPUs.
# First with the warm-up's seed and store, so that the store remembers the
# registry's confirmations and each wall is the forms phase (results.tsv
# must be identical); then each with a fresh seed and store, as a night
# is. Usage: two-gpus.sh OUT_DIR.
set -u
out=$1
kit=build/kit
export LD_LIBRARY_PATH=$PWD/$kit/lib MATLOAD_SOURCE_DIR=$PWD
m=$kit/matload
work=/tmp/two && rm -rf $work && mkdir -p $work/logs
steps=$work/logs/steps.txt
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader >$steps
$m --version | head -1 >>$steps
timed() {  # timed NAME DEVICES WORKERS VARIANTS SEED STORE
  /usr/bin/time -f "$1: wall %e s, peak RSS %M KB" timeout 150 $m conform --devices $2 --workers $3 --variants $4 \
    --seed $5 --near_miss=false --out $work/$1 --db $work/$6.sqlite --progress_seconds 0 >$work/$1.out 2>>$steps
  echo "$1 rc=$?" >>$steps
  grep "GPU phase" $work/$1/summary.md >>$steps
  cp $work/$1/summary.md $work/logs/$1.md
}
timed warm-up 0,1 4 100000 20261129 remembered
timed e8-1-gpu 0 2 100000000 20261129 remembered
timed e8-2-gpus 0,1 4 100000000 20261129 remembered
cmp -s $work/e8-1-gpu/results.tsv $work/e8-2-gpus/results.tsv && echo "results.tsv of 1 and 2 GPUs identical" >>$steps
timed night-1-gpu 0 2 100000000 2026112931 night-1
timed night-2-gpus 0,1 4 100000000 2026112932 night-2
tar -czf $out/two.tgz -C $work/logs .
cat $steps
