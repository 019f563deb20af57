#!/usr/bin/env bash
# Two nightly conform runs at 10^8 variants a form into one results store
# on a lent H200, from build/kit: the first night launches the registry's
# predicted faults to confirm them, the second remembers them from the
# store (as a nightly store does), so the two walls say what each costs.
# Usage: nightly-twice.sh OUT_DIR.
set -u
out=$1
kit=build/kit
export LD_LIBRARY_PATH=$PWD/$kit/lib MATLOAD_SOURCE_DIR=$PWD
work=/tmp/nightly && rm -rf $work && mkdir -p $work
for night in 1 2; do
  /usr/bin/time -f "night $night: conform 1e8 wall %e s, peak RSS %M KB" timeout 200 $kit/matload conform --devices 0 \
    --variants 100000000 --seed 2026112$night --out $work/night-$night --db $work/nightly.sqlite --progress_seconds 0 \
    >$work/night-$night.out 2>>$out/nights.txt
  echo "night $night rc=$?" >>$out/nights.txt
  cp $work/night-$night/summary.md $out/night-$night-summary.md 2>/dev/null
done
cat $out/nights.txt
