#!/bin/bash
# Old and new matload, alternately, on the same targets without the cache.
set -u
targets=${1:-sm_90,sm_80}
echo "date: $(date -u +%FT%TZ)"
echo "old: /tmp/matload-old (main's build/default/matload, main at 32ff7cd)"
echo "new: /work/wt-sweep/build/default/matload at $(git -C /work/wt-sweep rev-parse HEAD)"
echo "command: matload support --ptx 9.0 --target $targets --no-cache --db r.sqlite --out run"
for round in 1 2; do
  for which in old new; do
    bin=/tmp/matload-old; [[ $which == new ]] && bin=/work/wt-sweep/build/default/matload
    d=/tmp/bench-sweep/side/$which-$round; rm -rf $d; mkdir -p $d
    echo "== $which, round $round; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
    ( cd $d && MATLOAD_SOURCE_DIR=/work/wt-sweep /usr/bin/time -f "wall %e s, user %U s, system %S s" $bin support --ptx 9.0 --target $targets --no-cache --db r.sqlite --out run 2>&1 | grep -E "compiler runs|wall|wrote" )
  done
done
