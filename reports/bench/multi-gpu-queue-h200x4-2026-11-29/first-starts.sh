#!/usr/bin/env bash
# The third call of this report, on a lent machine of two or four H200s,
# at 28f6cb3: the start gate admits each GPU's first worker of a wave before
# any other (StartPriority, harness/gpu/start_gate.h). Nightly conform at
# 10^8 variants a form on 1, 2 and (where there are) 4 GPUs with 4 and then 8 workers a GPU,
# each night remembered as in run.sh. Usage: first-starts.sh OUT_DIR.
set -u
out=$1
kit=build/kit
export LD_LIBRARY_PATH=$PWD/$kit/lib MATLOAD_SOURCE_DIR=$PWD
m=$kit/matload
work=/tmp/first-starts && rm -rf $work && mkdir -p $work/logs
steps=$work/logs/steps.txt
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader >$steps
$m --version | head -1 >>$steps
devices_of() { seq -s, 0 $(($1 - 1)); }
count=$(nvidia-smi --query-gpu=index --format=csv,noheader | wc -l)
timed() {  # timed NAME GPUS WORKERS VARIANTS SEED STORE
  /usr/bin/time -f "$1: wall %e s, user %U s, system %S s, peak RSS %M KB" timeout 200 $m conform \
    --devices $(devices_of $2) --workers $3 --variants $4 --seed $5 --near_miss=false --out $work/$1 \
    --db $work/$6.sqlite --progress_seconds 0 >$work/$1.out 2>>$steps
  echo "$1 rc=$?" >>$steps
  grep "GPU phase" $work/$1/summary.md >>$steps
  cp $work/$1/summary.md $work/logs/$1.md
  tail -n +2 $work/$1/results.tsv >$work/logs/$1.results-body.tsv
}
timed warm-up $count $((4 * count)) 100000 20261129 remembered
for per_gpu in 4 8; do
  for gpus in 1 2 4; do
    [ $gpus -le $count ] || continue
    timed e8-$gpus-gpus-w$per_gpu $gpus $((gpus * per_gpu)) 100000000 20261129 remembered
  done
done
for f in $work/logs/e8-*.results-body.tsv; do
  cmp -s $f $work/logs/e8-1-gpus-w4.results-body.tsv && echo "same results as e8-1-gpus-w4: $(basename $f)" >>$steps
done
gzip $work/logs/*.tsv
tar -czf $out/first-starts.tgz -C $work/logs .
cat $steps
