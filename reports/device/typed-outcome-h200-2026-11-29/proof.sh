#!/usr/bin/env bash
# The typed case outcome (harness/runs/case_outcome.h) and the retries'
# own concept (harness/conform/suspect_retries.h) on a lent H200, from
# build/kit (scripts/pack-for-device.sh's binaries, stripped, with their
# libraries): the same seed judged on the host and on the GPU gives
# identical results.tsv, selftest catches every planted bug under both
# judges, and a nightly conform at 10^8 variants a form and a two-minute
# soak run and store their cases (ConformanceDeviceTest:
# ../../bench/sweep-skips-h200-2026-11-29/conformance.sh). Usage: proof.sh
# OUT_DIR. Every step has a time limit, so that one that hangs cannot take
# the rest.
set -u
out=$1
kit=build/kit
m=$kit/matload
export LD_LIBRARY_PATH=$PWD/$kit/lib MATLOAD_SOURCE_DIR=$PWD
steps=$out/steps.txt
{ date -u; nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version --format=csv; nproc; $m --version; } >$out/host.txt 2>&1
work=/tmp/typed && rm -rf $work && mkdir -p $work

# 1. The same seed under both judges, into one store: identical
#    results.tsv, and matload diff of the two runs finds nothing changed.
both=$work/both.sqlite
for judge in host gpu; do
  timeout 150 $m conform --devices 0 --variants 100000 --judge $judge --seed 20261129 --out $work/$judge \
    --db $both --progress_seconds 0 >$work/$judge.out 2>>$steps
  echo "conform 1e5 --judge $judge rc=$?" >>$steps
done
cmp <(grep -v '^#' $work/host/results.tsv) <(grep -v '^#' $work/gpu/results.tsv) >>$steps 2>&1
echo "results.tsv of the two judges: cmp rc=$? ($(grep -vc '^#' $work/host/results.tsv) cases)" >>$steps
timeout 60 $m diff conform@latest~1 conform@latest --db $both >$out/judges-diff.txt 2>&1
echo "matload diff host gpu rc=$?" >>$steps

# 2. Every planted bug under both judges.
timeout 240 $m selftest --device 0 --out $work/selftest --progress_seconds 0 >$out/selftest.log 2>&1
echo "selftest rc=$?" >>$steps
cp $work/selftest/selftest.md $out/ 2>/dev/null

# 3. The nightly run, its cases read back from the store as JUnit.
/usr/bin/time -f "conform 1e8 wall %e s, peak RSS %M KB" timeout 200 $m conform --devices 0 --variants 100000000 \
  --seed 20261129 --out $work/e8 --db $work/nightly.sqlite --progress_seconds 0 >$work/e8.out 2>>$steps
echo "conform 1e8 rc=$?" >>$steps
cp $work/e8/summary.md $out/e8-summary.md 2>/dev/null
MATLOAD_DB=$work/nightly.sqlite timeout 60 $m export conform@latest --junit $out/e8-junit.xml >>$steps 2>&1
echo "export rc=$? ($(grep -c '<testcase' $out/e8-junit.xml 2>/dev/null) testcases)" >>$steps

# 4. A two-minute soak.
timeout 200 $m soak --minutes 2 --devices 0 --out $work/soak --db $work/soak.sqlite --progress_seconds 30 \
  >$out/soak.log 2>&1
echo "soak rc=$?" >>$steps

cat $steps
