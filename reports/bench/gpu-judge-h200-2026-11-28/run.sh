#!/usr/bin/env bash
# The GPU judge's first proof and figures on a lent H200 (device tool),
# from build/kit (scripts/pack-for-device.sh's binaries, stripped, with
# their libraries). Usage: run.sh OUT_DIR. Each step's log goes to OUT_DIR;
# every step has a time limit, so that one that hangs cannot take the rest.
set -u
out=$1
kit=build/kit
export LD_LIBRARY_PATH=$PWD/$kit/lib MATLOAD_SOURCE_DIR=$PWD
m=$kit/matload
work=/tmp/judge && rm -rf $work && mkdir -p $work
{ date -u; git log -1 --oneline; nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version --format=csv; nproc; } >$out/host.txt 2>&1

# 1. Every planned form's device verdicts against the model.
timeout 240 $kit/device_judge_device_test >$out/device_judge_test.log 2>&1; echo "device_judge_device_test rc=$?" >>$out/steps.txt

# 2. Every planted bug under each judge.
timeout 200 $m selftest --device 0 --progress_seconds 0 >$out/selftest.md 2>$work/selftest.err; echo "selftest rc=$?" >>$out/steps.txt
tail -5 $work/selftest.err >>$out/steps.txt

# 3. The same seed judged on the host and on the GPU: identical results.tsv.
for judge in host gpu; do
  /usr/bin/time -f "$judge 1e5 wall %e s, peak RSS %M KB" timeout 150 $m conform --devices 0 --variants 100000 \
    --judge $judge --seed 20261128 --out $work/e5-$judge --db $work/e5-$judge.sqlite --progress_seconds 0 \
    >$work/e5-$judge.out 2>>$out/steps.txt
  echo "conform 1e5 --judge $judge rc=$?" >>$out/steps.txt
done
grep -v '^#' $work/e5-host/results.tsv >$work/host.tsv; grep -v '^#' $work/e5-gpu/results.tsv >$work/gpu.tsv
if cmp -s $work/host.tsv $work/gpu.tsv; then echo "results.tsv at 1e5: identical ($(wc -l <$work/host.tsv) cases)" >>$out/steps.txt
else echo "results.tsv at 1e5: DIFFER" >>$out/steps.txt; diff $work/host.tsv $work/gpu.tsv | head -40 >>$out/steps.txt; fi

# 4. Inside conform at 1e6 variants per form, each judge, one GPU then every GPU.
for devices in 0 all; do
  for judge in host gpu; do
    /usr/bin/time -f "$judge 1e6 devices=$devices wall %e s, peak RSS %M KB" timeout 200 $m conform --devices $devices \
      --variants 1000000 --workers 16 --judge $judge --seed 20261128 --near_miss=false --out $work/e6-$devices-$judge \
      --db $work/e6.sqlite --progress_seconds 0 >$work/e6.out 2>>$out/steps.txt
    echo "conform 1e6 devices=$devices --judge $judge rc=$?" >>$out/steps.txt
    cp $work/e6-$devices-$judge/summary.md $out/summary-1e6-$devices-$judge.md 2>/dev/null
  done
done
cat $work/e5-gpu/summary.md $work/e5-host/summary.md >$out/summary-1e5.md 2>/dev/null

# 5. One form, side by side.
timeout 100 $kit/gpu_throughput --judge both --seconds 10 --threads 16 >$out/throughput.log 2>&1
echo "gpu_throughput rc=$?" >>$out/steps.txt
