#!/usr/bin/env bash
# On a lent machine of two H200s: nightly conform at 10^8 variants a form,
# a night whose registry confirmations the store remembers (the warm-up's
# seed and store, as a fleet's nightly with its fixed seed is after its
# first night), on 1 GPU and on 2, with 2, 4 and 8 workers a GPU, one GPU
# count after the other for each. Each wall is then the forms phase and
# its fixed costs. results.tsv must be the same for every run but for its
# first line, which names the GPUs. Usage: run.sh OUT_DIR.
set -u
out=$1
kit=build/kit
export LD_LIBRARY_PATH=$PWD/$kit/lib MATLOAD_SOURCE_DIR=$PWD
m=$kit/matload
work=/tmp/two && rm -rf $work && mkdir -p $work/logs
steps=$work/logs/steps.txt
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader >$steps
$m --version | head -1 >>$steps
timed() {  # timed NAME DEVICES WORKERS VARIANTS
  /usr/bin/time -f "$1: wall %e s, peak RSS %M KB" timeout 200 $m conform --devices $2 --workers $3 --variants $4 \
    --seed 20261129 --near_miss=false --out $work/$1 --db $work/remembered.sqlite --progress_seconds 0 \
    >$work/$1.out 2>>$steps
  echo "$1 rc=$?" >>$steps
  grep "GPU phase" $work/$1/summary.md >>$steps
  cp $work/$1/summary.md $work/logs/$1.md
  tail -n +2 $work/$1/results.tsv >$work/logs/$1.results-body.tsv
}
timed warm-up 0,1 4 100000
for per_gpu in 2 4 8; do
  timed e8-1-gpu-w$per_gpu 0 $per_gpu 100000000
  timed e8-2-gpus-w$per_gpu 0,1 $((2 * per_gpu)) 100000000
done
for f in $work/logs/e8-*.results-body.tsv; do
  cmp -s $f $work/logs/e8-1-gpu-w2.results-body.tsv && echo "same results as e8-1-gpu-w2: $(basename $f)" >>$steps
done
gzip $work/logs/*.tsv
tar -czf $out/two.tgz -C $work/logs .
cat $steps
