#!/usr/bin/env bash
# On one lent H200, after scaling.sh's call on four: how many workers a GPU
# a swept nightly needs. conform at 10^8 variants a form with the same seed
# into one store, with 16, 8, 4, 2 and 1 workers; the first run confirms the
# registry's predictions and the store remembers them, so each later run's
# wall is its forms phase and its fixed costs. Their results.tsv must be
# identical. Usage: workers-one-gpu.sh OUT_DIR.
set -u
out=$1
kit=build/kit
export LD_LIBRARY_PATH=$PWD/$kit/lib MATLOAD_SOURCE_DIR=$PWD
m=$kit/matload
work=/tmp/workers && rm -rf $work && mkdir -p $work/logs
steps=$work/logs/steps.txt
timed() {  # timed NAME WORKERS VARIANTS
  local name=$1 workers=$2 variants=$3
  /usr/bin/time -f "$name: wall %e s, user %U s, system %S s, peak RSS %M KB" timeout 250 $m conform --devices 0 \
    --workers $workers --variants $variants --seed 20261129 --near_miss=false --out $work/$name \
    --db $work/store.sqlite --progress_seconds 0 >$work/$name.out 2>>$steps
  echo "$name rc=$?" >>$steps
  cp $work/$name/summary.md $work/logs/$name.md
  grep "GPU phase" $work/$name/summary.md >>$steps
}
timed warm-up 8 100000
for workers in 16 8 4 2 1; do timed e8-$workers-workers $workers 100000000; done
for workers in 8 4 2 1; do
  cmp -s $work/e8-16-workers/results.tsv $work/e8-$workers-workers/results.tsv
  echo "results.tsv of $workers workers identical to 16's: $([ $? = 0 ] && echo yes || echo NO)" >>$steps
done
nvidia-smi --query-gpu=index,name,driver_version --format=csv >>$steps
tar -czf $out/workers-one-gpu.tgz -C $work/logs .
cat $steps
