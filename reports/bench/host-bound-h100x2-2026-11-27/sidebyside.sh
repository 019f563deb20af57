#!/usr/bin/env bash
# Old (01ceaae) and new matload side by side on one host: warm nightly
# conform (fault memory filled by one cold run) at 10^5 and 10^6 variants,
# on one GPU and on two, with nvidia-smi sampling GPU utilisation.
set -u
D=build/devcheck
export LD_LIBRARY_PATH=$PWD/$D/lib
{ date -u; nvidia-smi --query-gpu=index,name,persistence_mode,driver_version --format=csv,noheader; nproc;
  lscpu | grep -E 'Model name|Thread|Core|Socket'; } > $OUT/host.txt 2>&1
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
run cold-1e5-new-1gpu matload-new 100000 0
for r in 1 2; do
  for devices in 0 0,1; do
    for binary in matload-01ceaae matload-new; do
      run warm-1e5-${binary#matload-}-${devices/,/_}-r$r $binary 100000 $devices
    done
  done
done
for n in warm-1e5-01ceaae-0-r1 warm-1e5-new-0-r1 warm-1e5-01ceaae-0_1-r1 warm-1e5-new-0_1-r1 warm-1e5-new-0_1-r2; do same cold-1e5-new-1gpu $n; done
run warm-1e6-01ceaae-0 matload-01ceaae 1000000 0
run warm-1e6-new-0 matload-new 1000000 0
run warm-1e6-new-0_1 matload-new 1000000 0,1
run warm-1e6-01ceaae-0_1 matload-01ceaae 1000000 0,1
for n in warm-1e6-new-0 warm-1e6-new-0_1 warm-1e6-01ceaae-0_1; do same warm-1e6-01ceaae-0 $n; done
kill $dmon
cat $OUT/figures.txt $OUT/equality.txt
