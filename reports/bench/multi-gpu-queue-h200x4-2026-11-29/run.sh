#!/usr/bin/env bash
# On a lent machine of four H200s, the build whose workers take a wave's
# items from a queue as they free up, whose GPUs are probed at once and
# whose lanes split the window's 64-bit words: nightly conform at 10^8
# variants a form on 1, 2 and 4 GPUs, with 4 and then 2 workers a GPU,
# each a night whose registry confirmations the store remembers (the
# warm-up's seed and store, as a fleet's nightly with its fixed seed is
# after its first night); then one night with a fresh seed and store on 4
# GPUs, 4 workers a GPU. results.tsv must be the same for every remembered
# run but for its first line, which names the GPUs. Usage: run.sh OUT_DIR.
set -u
out=$1
kit=build/kit
export LD_LIBRARY_PATH=$PWD/$kit/lib MATLOAD_SOURCE_DIR=$PWD
m=$kit/matload
work=/tmp/queue && rm -rf $work && mkdir -p $work/logs
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
for per_gpu in 4 2; do
  for gpus in 1 2 4; do
    timed e8-$gpus-gpus-w$per_gpu $gpus $((gpus * per_gpu)) 100000000 20261129 remembered
  done
done
for f in $work/logs/e8-*.results-body.tsv; do
  cmp -s $f $work/logs/e8-1-gpus-w4.results-body.tsv && echo "same results as e8-1-gpus-w4: $(basename $f)" >>$steps
done
timed night-4-gpus-w4 4 16 100000000 2026112941 night
gzip $work/logs/*.tsv
tar -czf $out/queue.tgz -C $work/logs .
cat $steps
