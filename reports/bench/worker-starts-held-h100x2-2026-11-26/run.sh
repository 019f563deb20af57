#!/usr/bin/env bash
# Worker starts and conform with and without a process holding every GPU open.
set -u
D=build/devcheck
export LD_LIBRARY_PATH=$PWD/$D/lib
{ date -u; nvidia-smi --query-gpu=index,name,uuid,persistence_mode,driver_version --format=csv; nproc; uname -r; } > $OUT/host.txt 2>&1
/usr/bin/time -v $D/worker_start_benchmark --benchmark_out=$OUT/worker_starts.json --benchmark_out_format=json \
  > $OUT/worker_starts.txt 2> $OUT/worker_starts.time-v.txt
echo "benchmark rc=$?" >> $OUT/host.txt
for held in unheld held; do
  for devices in 0 0,1; do
    name=conform-$held-$(echo $devices | tr , _)
    holder=
    if [ $held = held ]; then $D/worker_start_benchmark --hold_seconds=150 & holder=$!; sleep 5; fi
    /usr/bin/time -v $D/matload conform --variants 100000 --seed 20261126 --devices $devices \
      --out /tmp/$name --db /tmp/$name.sqlite > $OUT/$name.log 2> $OUT/$name.time-v.txt
    rc=$?
    [ -n "$holder" ] && kill $holder && wait $holder
    cp /tmp/$name/summary.md $OUT/$name.summary.md
    tail -n +2 /tmp/$name/results.tsv | cmp - <(tail -n +2 $D/ref-results-01006ab.tsv) > $OUT/$name.equality.txt 2>&1; echo "cmp rc=$?" >> $OUT/$name.equality.txt
    echo "$name rc=$rc $(grep -E 'Elapsed|Maximum resident|User time|System time' $OUT/$name.time-v.txt | tr -s ' ' | tr '\n' ' ') | $(grep 'GPU phase' /tmp/$name/summary.md)" >> $OUT/figures.txt
  done
done
