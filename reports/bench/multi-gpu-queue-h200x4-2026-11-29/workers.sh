#!/usr/bin/env bash
# The second call of this report, on a lent machine of four H200s, the same
# build as run.sh: whether more workers a GPU bring the forms phase closer
# to the GPUs' count now that workers take items from a queue. Nightly
# conform at 10^8 variants a form on 1, 2 and 4 GPUs with 8 and then 16
# workers a GPU, each night remembered as in run.sh. Usage: workers.sh OUT_DIR.
set -u
out=$1
kit=build/kit
export LD_LIBRARY_PATH=$PWD/$kit/lib MATLOAD_SOURCE_DIR=$PWD
m=$kit/matload
work=/tmp/workers && rm -rf $work && mkdir -p $work/logs
steps=$work/logs/steps.txt
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader >$steps
$m --version | head -1 >>$steps
devices_of() { seq -s, 0 $(($1 - 1)); }
timed() {  # timed NAME GPUS WORKERS VARIANTS SEED STORE
  /usr/bin/time -f "$1: wall %e s, user %U s, system %S s, peak RSS %M KB" timeout 200 $m conform \
    --devices $(devices_of $2) --workers $3 --variants $4 --seed $5 --near_miss=false --out $work/$1 \
    --db $work/$6.sqlite --progress_seconds 0 >$work/$1.out 2>>$steps
  echo "$1 rc=$?" >>$steps
  grep "GPU phase" $work/$1/summary.md >>$steps
  cp $work/$1/summary.md $work/logs/$1.md
  tail -n +2 $work/$1/results.tsv >$work/logs/$1.results-body.tsv
}
timed warm-up 4 16 100000 20261129 remembered
for per_gpu in 8 16; do
  for gpus in 1 2 4; do
    timed e8-$gpus-gpus-w$per_gpu $gpus $((gpus * per_gpu)) 100000000 20261129 remembered
  done
done
for f in $work/logs/e8-*.results-body.tsv; do
  cmp -s $f $work/logs/e8-1-gpus-w8.results-body.tsv && echo "same results as e8-1-gpus-w8: $(basename $f)" >>$steps
done
gzip $work/logs/*.tsv
tar -czf $out/workers.tgz -C $work/logs .
cat $steps
