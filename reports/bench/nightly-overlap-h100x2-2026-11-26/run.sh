#!/usr/bin/env bash
# Warm nightly conform (fault memory filled by one cold run), three binaries alternated, on one GPU and on two.
set -u
D=build/devcheck
export LD_LIBRARY_PATH=$PWD/$D/lib
{ date -u; nvidia-smi --query-gpu=index,name,persistence_mode,driver_version --format=csv,noheader; nproc; } > $OUT/host.txt 2>&1
run() {  # name binary devices
  local name=$1
  /usr/bin/time -v $D/$2 conform --variants 100000 --seed 20261126 --devices $3 --out /tmp/$name \
    --db /tmp/night.sqlite > /tmp/$name.log 2> /tmp/$name.time-v.txt
  local rc=$?
  echo "$name rc=$rc $(grep -E 'Elapsed|Maximum resident|User time|System time' /tmp/$name.time-v.txt | tr -s ' ' | sed 's/(h:mm:ss or m:ss)//; s/(seconds)//; s/(kbytes)//' | tr '\n' ' ') | $(grep -o 'forms [0-9.]* s' /tmp/$name/summary.md) | $(grep -o '"confirmations_remembered": [0-9]*' /tmp/$name/summary.json)" >> $OUT/figures.txt
  tail -n +2 /tmp/$name/results.tsv | cmp -s - <(tail -n +2 $D/ref-results-01006ab.tsv) && echo "$name: identical to 01006ab" >> $OUT/equality.txt || echo "$name: DIFFERS" >> $OUT/equality.txt
}
run cold-cap128-1gpu matload-cap128 0
for devices in 0 0,1; do
  for binary in matload-e416de0 matload-overlap matload-cap128; do
    run warm-${binary#matload-}-$(echo $devices | tr , _) $binary $devices
  done
done
