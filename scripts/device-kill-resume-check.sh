#!/usr/bin/env bash
# On a GPU host, after scripts/pack-for-device.sh: the device tests, then a
# conform run, the same run SIGKILLed halfway and resumed, and the two
# compared (cases stored at the kill, `diff`, results.tsv). Everything
# lands in $OUT (the device tool's output folder). Issue 34, D3.
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/build/device/lib MATLOAD_SOURCE_DIR=$PWD MATLOAD_DB=$OUT/k.sqlite; M=build/device/matload
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $OUT/host.txt; $M --version >> $OUT/host.txt 2>&1
for t in gpu/cuda_driver_test conform/conformance_device_test; do s=$SECONDS; timeout 150 build/device/harness/$t > $OUT/$(basename $t).txt 2>&1; echo "$t rc=$? seconds=$((SECONDS-s))" | tee -a $OUT/steps.txt; done
C="conform --variants 2000 --seed 5 --near_miss=false"
s=$SECONDS; timeout 60 $M $C --out $OUT/whole > $OUT/whole.log 2>&1; echo "whole rc=$? seconds=$((SECONDS-s))" | tee -a $OUT/steps.txt
# The second run is faster (the JIT's cache is warm), so it is killed once
# it has stored its first cases, not after a fixed time.
$M $C --out $OUT/killed > $OUT/killed.log 2>&1 & pid=$!
until $M runs 2>/dev/null | grep running | grep -qv ' 0 cases' || ! kill -0 $pid 2>/dev/null; do sleep 0.2; done
kill -KILL $pid; wait $pid; echo "killed rc=$?" | tee -a $OUT/steps.txt
pkill -KILL -f "matload conform" ; sleep 1
$M runs | tee -a $OUT/steps.txt
id=$(sed -n 's/^run \([^ ]*\) in .*/\1/p' $OUT/killed.log | head -1)
s=$SECONDS; timeout 60 $M $C --resume $id > $OUT/resume.log 2>&1; echo "resume rc=$? seconds=$((SECONDS-s))" | tee -a $OUT/steps.txt
$M diff conform@latest~1 conform@latest 2>&1 | head -5 | tee -a $OUT/steps.txt
cmp <(grep -v '^#' $OUT/whole/results.tsv) <(grep -v '^#' $OUT/killed/results.tsv) && echo "results.tsv case lines identical" | tee -a $OUT/steps.txt
rm -rf $OUT/*/bundles $OUT/*.sqlite* ; grep -h "PASSED\|FAILED" $OUT/*_test.txt
