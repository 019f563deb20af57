#!/usr/bin/env bash
# On a lent machine of two H200s: where a worker's time goes outside its
# launches. Nightly conform at 10^8 variants a form, remembered as a fixed
# seed's night is (the warm-up's seed and store), on 1 and 2 GPUs with 4
# and 16 workers a GPU; summary.md now says how much of the items was
# worker starts and how much of the launches module loads. Then the fixed
# costs of a run alone: one ldmatrix form at 1000 variants, three times on
# 1 GPU and three on 2. Usage: run.sh OUT_DIR.
set -u
out=$1
kit=build/kit
export LD_LIBRARY_PATH=$PWD/$kit/lib MATLOAD_SOURCE_DIR=$PWD
m=$kit/matload
work=/tmp/worker-time && rm -rf $work && mkdir -p $work/logs
steps=$work/logs/steps.txt
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader >$steps
nproc >>$steps
$m --version | head -1 >>$steps
devices_of() { seq -s, 0 $(($1 - 1)); }
timed() {  # timed NAME GPUS WORKERS VARIANTS SEED STORE [FLAGS...]
  local name=$1 gpus=$2 workers=$3 variants=$4 seed=$5 store=$6
  shift 6
  /usr/bin/time -f "$name: wall %e s, user %U s, system %S s, peak RSS %M KB" timeout 200 $m conform \
    --devices $(devices_of $gpus) --workers $workers --variants $variants --seed $seed --near_miss=false \
    --out $work/$name --db $work/$store.sqlite --progress_seconds 0 "$@" >$work/$name.out 2>>$steps
  echo "$name rc=$?" >>$steps
  grep -h "GPU phase\|items took" $work/$name/summary.md >>$steps
  cp $work/$name/summary.md $work/logs/$name.md
  tail -n +2 $work/$name/results.tsv >$work/logs/$name.results-body.tsv
}
timed warm-up 2 8 100000 20261129 remembered
for per_gpu in 4 16; do
  for gpus in 1 2; do
    timed e8-$gpus-gpus-w$per_gpu $gpus $((gpus * per_gpu)) 100000000 20261129 remembered
  done
done
for f in $work/logs/e8-*.results-body.tsv; do
  cmp -s $f $work/logs/e8-1-gpus-w4.results-body.tsv && echo "same results as e8-1-gpus-w4: $(basename $f)" >>$steps
done
for round in 1 2 3; do
  for gpus in 1 2; do
    timed one-form-$gpus-gpus-$round $gpus $gpus 1000 20261129 remembered \
      --forms '^ldmatrix\.sync\.aligned\.m8n8\.x4\.shared\.b16$'
  done
done
gzip $work/logs/*.tsv
tar -czf $out/worker-time.tgz -C $work/logs .
cat $steps
