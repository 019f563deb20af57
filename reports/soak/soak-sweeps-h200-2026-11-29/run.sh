#!/usr/bin/env bash
# The first soak of sweeps, on one lent H200, from build/kit: three
# minutes of rounds of 10^8 variants a form over every legal sm_90 form,
# with the default 8 workers, then its JUnit export and `matload runs`.
# Usage: run.sh OUT_DIR.
set -u
out=$1
kit=build/kit
export LD_LIBRARY_PATH=$PWD/$kit/lib MATLOAD_SOURCE_DIR=$PWD
m=$kit/matload
work=/tmp/soak && rm -rf $work && mkdir -p $work/logs
steps=$work/logs/steps.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >$steps
$m --version >>$steps 2>&1
/usr/bin/time -f "soak: wall %e s, user %U s, system %S s, peak RSS %M KB" timeout 420 $m soak --minutes 3 \
  --devices 0 --round_variants 100000000 --seed 20261129 --db $work/soak.sqlite --out $work/soak \
  --progress_seconds 30 >$work/logs/soak.out 2>>$steps
echo "soak rc=$?" >>$steps
cp $work/soak/summary.md $work/logs/summary.md
MATLOAD_DB=$work/soak.sqlite $m export soak@latest --junit $work/logs/soak.xml >>$steps 2>&1
echo "export rc=$?" >>$steps
MATLOAD_DB=$work/soak.sqlite $m runs >>$steps 2>&1
tar -czf $out/soak.tgz -C $work/logs .
cat $steps; tail -30 $work/logs/summary.md
