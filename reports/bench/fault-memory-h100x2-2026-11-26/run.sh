#!/usr/bin/env bash
# Nightly conform with the fault memory cold, then warm on one GPU and two, with 8, 4 and 2 workers per GPU.
set -u
D=build/devcheck
export LD_LIBRARY_PATH=$PWD/$D/lib
{ date -u; nvidia-smi --query-gpu=index,name,uuid,persistence_mode,driver_version --format=csv; nproc; } > $OUT/host.txt 2>&1
run() {  # name variants devices workers
  local name=$1
  /usr/bin/time -v $D/matload conform --variants $2 --seed 20261126 --devices $3 --workers $4 --out /tmp/$name \
    --db /tmp/night.sqlite > /tmp/$name.log 2> /tmp/$name.time-v.txt
  local rc=$?
  echo "$name rc=$rc $(grep -E 'Elapsed|Maximum resident|User time|System time' /tmp/$name.time-v.txt | tr -s ' ' | tr '\n' ' ') | $(grep 'GPU phase' /tmp/$name/summary.md) | $(grep -o '"confirmations_remembered": [0-9]*' /tmp/$name/summary.json)" >> $OUT/figures.txt
  { echo "==== $name"; cat /tmp/$name/summary.md; } >> $OUT/summaries.md
  if [ $2 = 100000 ]; then
    tail -n +2 /tmp/$name/results.tsv | cmp -s - <(tail -n +2 $D/ref-results-01006ab.tsv) && echo "$name: results.tsv identical to 01006ab's below the header" >> $OUT/equality.txt || echo "$name: DIFFERS" >> $OUT/equality.txt
  fi
}
run cold-1gpu-w8-1e5 100000 0 8
run warm-1gpu-w8-1e5 100000 0 8
run warm-2gpu-w8-1e5 100000 0,1 8
run warm-1gpu-w4-1e5 100000 0 4
run warm-2gpu-w4-1e5 100000 0,1 4
run warm-1gpu-w2-1e5 100000 0 2
run warm-2gpu-w2-1e5 100000 0,1 2
run warm-1gpu-w4-1e6 1000000 0 4
run warm-2gpu-w4-1e6 1000000 0,1 4
tail -n +2 /tmp/warm-1gpu-w4-1e6/results.tsv | cmp -s - <(tail -n +2 /tmp/warm-2gpu-w4-1e6/results.tsv) && echo "warm-1gpu-w4-1e6 and warm-2gpu-w4-1e6: results.tsv identical below the header" >> $OUT/equality.txt || echo "1e6 DIFFERS" >> $OUT/equality.txt
