#!/usr/bin/env bash
# The second call of this report, on a lent machine of two H200s: swept
# chunks of 2^36 variants a worker, not 2^32 (build/kit/matload), against
# the build before (build/kit/old/matload), side by side on the nightly
# conform at 10^8 variants a form on one GPU and on two, the warm-up's seed
# and store remembering the confirmations; then the sized soaks of run.sh
# again, with the new build alone. Usage: chunks.sh OUT_DIR.
set -u
out=$1
kit=build/kit
export LD_LIBRARY_PATH=$PWD/$kit/lib MATLOAD_SOURCE_DIR=$PWD
work=/tmp/soak-chunks && rm -rf $work && mkdir -p $work/logs
steps=$work/logs/steps.txt
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader >$steps
for m in $kit/old/matload $kit/matload; do $m --version | head -1 >>$steps; done
run() {  # run NAME BINARY COMMAND [FLAGS...]
  local name=$1 m=$2 command=$3
  shift 3
  /usr/bin/time -f "$name: wall %e s, peak RSS %M KB" timeout 400 $m $command --seed 20261129 --out $work/$name \
    --db $work/store.sqlite --progress_seconds 0 "$@" >$work/$name.out 2>>$steps
  echo "$name rc=$?" >>$steps
  grep -h "GPU phase\|items took" $work/$name/summary.md >>$steps
  cp $work/$name/summary.md $work/logs/$name.md
}
run warm-up $kit/matload conform --devices 0,1 --variants 100000 --near_miss=false
for gpus in 0 0,1; do
  for build in old new; do
    m=$kit/matload && [ $build = old ] && m=$kit/old/matload
    run e8-$build-$gpus $m conform --devices $gpus --variants 100000000 --near_miss=false
  done
done
run sized-1-gpu $kit/matload soak --devices 0 --minutes 2 --round_variants 10000000
run sized-2-gpus $kit/matload soak --devices 0,1 --minutes 2 --round_variants 10000000
tar -czf $out/soak-chunks.tgz -C $work/logs .
cat $steps
