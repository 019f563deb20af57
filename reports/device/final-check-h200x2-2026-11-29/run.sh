#!/usr/bin/env bash
# The session's last build on a lent machine of two H200s: the device
# tests, the self-test under both judges, the nightly conform at 10^8 on one
# GPU and on two (the warm-up's seed and store), and a one-minute soak of
# both GPUs with rounds sized to 60 s. Usage: run.sh OUT_DIR (build/kit
# unpacked from build/kit.tar.xz).
set -u
out=$1
kit=build/kit
export LD_LIBRARY_PATH=$PWD/$kit/lib MATLOAD_SOURCE_DIR=$PWD
m=$kit/matload
work=/tmp/final && rm -rf $work && mkdir -p $work/logs
steps=$work/logs/steps.txt
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader >$steps
$m --version | head -1 >>$steps
for test in cuda_driver_test device_sweep_device_test device_judge_device_test wmma_device_test; do
  timeout 150 $kit/tests/$test >$work/logs/$test.log 2>&1
  echo "$test rc=$?" >>$steps
  grep -E "tests? ran|PASSED|FAILED" $work/logs/$test.log | tail -2 >>$steps
done
timeout 200 $m selftest --device 0 --out $work/selftest --progress_seconds 0 >$work/logs/selftest.log 2>&1
echo "selftest rc=$?" >>$steps
run() {  # run NAME COMMAND DEVICES [FLAGS...]
  local name=$1 command=$2 devices=$3
  shift 3
  /usr/bin/time -f "$name: wall %e s, peak RSS %M KB" timeout 200 $m $command --devices $devices --seed 20261129 \
    --out $work/$name --db $work/store.sqlite --progress_seconds 0 "$@" >$work/$name.out 2>>$steps
  echo "$name rc=$?" >>$steps
  grep -h "GPU phase\|items took" $work/$name/summary.md >>$steps
  cp $work/$name/summary.md $work/logs/$name.md
}
run warm-up conform 0,1 --variants 100000 --near_miss=false
run e8-1-gpu conform 0 --variants 100000000 --near_miss=false
run e8-2-gpus conform 0,1 --variants 100000000 --near_miss=false
diff <(tail -n +2 $work/e8-1-gpu/results.tsv) <(tail -n +2 $work/e8-2-gpus/results.tsv) >/dev/null &&
  echo "e8 results.tsv the same on 1 and 2 GPUs but for the first line" >>$steps
run soak-2-gpus soak 0,1 --minutes 1 --round_variants 10000000
tar -czf $out/final.tgz -C $work/logs .
cat $steps
