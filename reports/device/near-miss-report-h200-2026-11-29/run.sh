#!/usr/bin/env bash
# The near-miss sweep's typed report (NearMissReport) on a lent H200, from
# build/kit (this tree) and build/kit/old (7578cc8's matload, whose worker
# sent tab-separated lines): conform with the near-miss sweep on, the same
# seed, both builds; results.tsv, its jit_compile cases included, must be
# identical. Usage: run.sh OUT_DIR.
set -u
out=$1
kit=build/kit
export LD_LIBRARY_PATH=$PWD/$kit/lib MATLOAD_SOURCE_DIR=$PWD
work=/tmp/near && rm -rf $work && mkdir -p $work/logs
steps=$work/logs/steps.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >$steps
$kit/matload --version >>$steps 2>&1
for build in old new; do
  m=$kit/matload && [ $build = old ] && m=$kit/old/matload
  /usr/bin/time -f "conform $build: wall %e s" timeout 200 $m conform --devices 0 --variants 1000 \
    --seed 20261129 --near_miss=true --out $work/$build --db $work/$build.sqlite --progress_seconds 0 \
    >$work/$build.out 2>>$steps
  echo "conform $build rc=$?" >>$steps
  cp $work/$build/summary.md $work/logs/summary-$build.md
done
echo "jit_compile cases: $(grep -c jit_compile $work/new/results.tsv) new, $(grep -c jit_compile $work/old/results.tsv) old" >>$steps
cmp $work/old/results.tsv $work/new/results.tsv && echo "results.tsv identical: $(wc -l <$work/new/results.tsv) lines" >>$steps
grep -i "near-miss\|compile (all" $work/logs/summary-new.md >>$steps
tar -czf $out/near.tgz -C $work/logs .
cat $steps
