#!/usr/bin/env bash
# The final code's proof on a lent two-H200 machine: selftest under both
# judges, the 10^5 equivalence of the judges' results.tsv, and one night
# over both GPUs whose page shows each GPU's SMs. Usage: final.sh OUT_DIR.
set -u
out=$1
kit=build/kit
export LD_LIBRARY_PATH=$PWD/$kit/lib MATLOAD_SOURCE_DIR=$PWD
m=$kit/matload
logs=/tmp/logs && rm -rf $logs /tmp/judge && mkdir -p $logs /tmp/judge
steps=$logs/steps.txt
{ date -u; nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version --format=csv; nproc; } >$logs/host.txt 2>&1
timeout 200 $m selftest --device 0 --progress_seconds 0 >$logs/selftest.md 2>/tmp/judge/selftest.err
echo "selftest rc=$?" >>$steps
for judge in host gpu; do
  timeout 120 $m conform --devices 0 --variants 100000 --judge $judge --seed 20261128 --out /tmp/judge/e5-$judge \
    --db /tmp/judge/e5-$judge.sqlite --progress_seconds 0 >/dev/null 2>>$steps
  echo "conform 1e5 --judge $judge rc=$?" >>$steps
  cp /tmp/judge/e5-$judge/summary.md $logs/e5-$judge.md
done
grep -v '^#' /tmp/judge/e5-host/results.tsv >/tmp/judge/host.tsv; grep -v '^#' /tmp/judge/e5-gpu/results.tsv >/tmp/judge/gpu.tsv
if cmp -s /tmp/judge/host.tsv /tmp/judge/gpu.tsv; then echo "results.tsv at 1e5: identical ($(wc -l </tmp/judge/host.tsv) lines)" >>$steps
else echo "results.tsv at 1e5: DIFFER" >>$steps; diff /tmp/judge/host.tsv /tmp/judge/gpu.tsv | head -40 >>$steps; fi
timeout 120 $m conform --devices all --workers 32 --variants 1000000 --judge gpu --seed 20261128 --near_miss=false \
  --out /tmp/judge/night --db /tmp/judge/e5-gpu.sqlite --progress_seconds 0 >/dev/null 2>>$steps
echo "conform 1e6 --devices all rc=$?" >>$steps
cp /tmp/judge/night/summary.md $logs/night.md; cp /tmp/judge/night/report.html $logs/night-report.html
tar -czf $out/logs.tgz -C $logs .
cat $steps
