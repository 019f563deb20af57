#!/usr/bin/env bash
# Where the nightly conform run's time goes on one GPU and on two: warm runs
# (fault memory filled by one cold run) at 10^5 and 10^6 variants, with
# --workers 2, 4, 8 and 16 a GPU; GPU utilisation sampled by nvidia-smi.
set -u
D=build/devcheck
export LD_LIBRARY_PATH=$PWD/$D/lib
M=${M:-$D/matload-01ceaae}
{ date -u; nvidia-smi --query-gpu=index,name,persistence_mode,driver_version --format=csv,noheader; nproc;
  lscpu | grep -E 'Model name|Thread|Core|Socket'; } > $OUT/host.txt 2>&1
nvidia-smi dmon -s u -d 1 -o T > $OUT/dmon.txt 2>&1 &
dmon=$!
run() {  # name variants devices workers
  local name=$1
  echo "$(date -u +%T) start $name" >> $OUT/dmon-marks.txt
  /usr/bin/time -v $M conform --variants $2 --seed 20261126 --devices $3 --workers $4 --out /tmp/$name \
    --db /tmp/night.sqlite > /tmp/$name.log 2> /tmp/$name.time-v.txt
  local rc=$?
  echo "$(date -u +%T) end $name" >> $OUT/dmon-marks.txt
  echo "$name rc=$rc $(grep -E 'Elapsed|Maximum resident|User time|System time' /tmp/$name.time-v.txt | tr -s ' ' | sed 's/(h:mm:ss or m:ss)//; s/(seconds)//; s/(kbytes)//' | tr '\n' ' ') | $(python3 -c "import json,sys;d=json.load(open('/tmp/$name/summary.json'));print(' '.join('%s=%.1f'%(p['what'].split()[0],p['seconds']) for p in d['phases']), 'exec', d['executions'], 'remembered', d['confirmations_remembered'])")" >> $OUT/figures.txt
  tail -n +2 /tmp/$name/results.tsv > /tmp/$name.rows
}
same() { cmp -s /tmp/$1.rows /tmp/$2.rows && echo "$1 = $2" >> $OUT/equality.txt || echo "$1 DIFFERS from $2" >> $OUT/equality.txt; }
run cold-1e5-1gpu-w8 100000 0 8
for r in 1 2; do
  run warm-1e5-1gpu-w8-r$r 100000 0 8
  run warm-1e5-2gpu-w8-r$r 100000 0,1 8
  run warm-1e5-2gpu-w4-r$r 100000 0,1 4
  run warm-1e5-1gpu-w4-r$r 100000 0 4
  run warm-1e5-1gpu-w16-r$r 100000 0 16
  run warm-1e5-2gpu-w2-r$r 100000 0,1 2
done
for n in warm-1e5-2gpu-w8-r1 warm-1e5-2gpu-w4-r1 warm-1e5-1gpu-w4-r1 warm-1e5-1gpu-w16-r1 warm-1e5-2gpu-w2-r1 warm-1e5-1gpu-w8-r2; do same cold-1e5-1gpu-w8 $n; done
run warm-1e6-1gpu-w8 1000000 0 8
run warm-1e6-2gpu-w8 1000000 0,1 8
run warm-1e6-2gpu-w4 1000000 0,1 4
run warm-1e6-1gpu-w16 1000000 0 16
same warm-1e6-1gpu-w8 warm-1e6-2gpu-w8; same warm-1e6-1gpu-w8 warm-1e6-2gpu-w4; same warm-1e6-1gpu-w8 warm-1e6-1gpu-w16
kill $dmon
cat $OUT/figures.txt
