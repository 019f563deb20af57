#!/usr/bin/env bash
# The device tests of 02c2f96, then 01ceaae and 02c2f96 alternated at 10^6
# variants on one GPU (warm: fault memory filled by one cold run), and
# 02c2f96 on two GPUs, with nvidia-smi sampling GPU utilisation.
set -u
D=build/devcheck
export LD_LIBRARY_PATH=$PWD/$D/lib MATLOAD_SOURCE_DIR=$PWD
{ date -u; nvidia-smi --query-gpu=index,name,persistence_mode,driver_version --format=csv,noheader; nproc;
  lscpu | grep -E 'Model name|Thread|Core|Socket'; } > $OUT/host.txt 2>&1
for t in cuda_driver_test wmma_device_test conformance_device_test; do
  timeout 300 $D/$t-02c2f96 > /tmp/$t.log 2>&1
  echo "$t rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' /tmp/$t.log | tr '\n' ' ')" >> $OUT/tests.txt
done
nvidia-smi dmon -s u -d 1 -o T > $OUT/dmon.txt 2>&1 &
dmon=$!
run() {  # name binary variants devices
  local name=$1
  echo "$(date -u +%T) start $name" >> $OUT/marks.txt
  /usr/bin/time -v $D/$2 conform --variants $3 --seed 20261126 --devices $4 --out /tmp/$name \
    --db /tmp/night.sqlite > /tmp/$name.log 2> /tmp/$name.time-v.txt
  local rc=$?
  echo "$(date -u +%T) end $name" >> $OUT/marks.txt
  echo "$name rc=$rc $(grep -E 'Elapsed|Maximum resident|User time|System time' /tmp/$name.time-v.txt | tr -s ' ' | sed 's/(h:mm:ss or m:ss)//; s/(seconds)//; s/(kbytes)//' | tr '\n' ' ') | $(python3 -c "import json;d=json.load(open('/tmp/$name/summary.json'));print(' '.join('%s=%.1f'%(p['what'].split()[0],p['seconds']) for p in d['phases']), 'exec', d['executions'], 'findings', d['findings'], 'remembered', d['confirmations_remembered'])")" >> $OUT/figures.txt
  tail -n +2 /tmp/$name/results.tsv > /tmp/$name.rows
}
same() { cmp -s /tmp/$1.rows /tmp/$2.rows && echo "$1 = $2" >> $OUT/equality.txt || echo "$1 DIFFERS from $2" >> $OUT/equality.txt; }
run cold-1e5-02c2f96-0 matload-02c2f96 100000 0
for r in 1 2; do
  run warm-1e6-01ceaae-0-r$r matload-01ceaae 1000000 0
  run warm-1e6-02c2f96-0-r$r matload-02c2f96 1000000 0
done
run warm-1e6-02c2f96-0_1 matload-02c2f96 1000000 0,1
for n in warm-1e6-02c2f96-0-r1 warm-1e6-01ceaae-0-r2 warm-1e6-02c2f96-0-r2 warm-1e6-02c2f96-0_1; do same warm-1e6-01ceaae-0-r1 $n; done
kill $dmon
cat $OUT/tests.txt $OUT/figures.txt $OUT/equality.txt
