#!/usr/bin/env bash
# The second call on four H200s (after scaling.sh): the same nightly conform
# at 10^8 variants a form on 1, 2 and 4 GPUs, with 2 workers a GPU instead
# of 16, since a worker start costs about 0.25 s of the host's serialised
# time whatever the GPU (../worker-starts-h100x2-2026-11-26/); then a soak of
# two rounds of 10^8 a form on 1 and 4 GPUs, whose second round has no
# registry confirmations (a soak remembers them), so its wall is the forms'
# alone. Usage: workers.sh OUT_DIR.
set -u
out=$1
kit=build/kit
export LD_LIBRARY_PATH=$PWD/$kit/lib MATLOAD_SOURCE_DIR=$PWD
m=$kit/matload
work=/tmp/workers && rm -rf $work && mkdir -p $work/logs
steps=$work/logs/steps.txt
devices_of() { seq -s, 0 $(($1 - 1)); }
timed() {  # timed NAME COMMAND...
  local name=$1; shift
  /usr/bin/time -f "$name: wall %e s, user %U s, system %S s, peak RSS %M KB" timeout 250 "$@" \
    --out $work/$name --db $work/$name.sqlite --progress_seconds 0 >$work/$name.out 2>>$steps
  echo "$name rc=$?" >>$steps
  cp $work/$name/summary.md $work/logs/$name.md; cp $work/$name/summary.json $work/logs/$name.json 2>/dev/null
}
timed warm-up $m conform --devices 0,1,2,3 --workers 8 --variants 100000 --seed 20261128 --near_miss=false
for gpus in 1 2 4; do
  timed e8-$gpus-gpus-2-workers-a-gpu $m conform --devices $(devices_of $gpus) --workers $((2 * gpus)) \
    --variants 100000000 --seed 2026112910$gpus --near_miss=false
done
for gpus in 1 4; do
  timed soak-$gpus-gpus $m soak --devices $(devices_of $gpus) --workers $((2 * gpus)) --rounds 2 \
    --round_variants 100000000 --seed 2026112920$gpus
done
tar -czf $out/workers.tgz -C $work/logs .
cat $steps
