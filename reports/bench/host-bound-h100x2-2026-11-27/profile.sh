#!/usr/bin/env bash
# perf profile of a warm nightly conform at 10^6 variants on one GPU.
set -u
D=build/devcheck
export LD_LIBRARY_PATH=$PWD/$D/lib
tar xJf $D/perf.tar.xz -C /tmp
P="env LD_LIBRARY_PATH=$PWD/$D/lib:/tmp/perf /tmp/perf/perf"
M=$D/matload-01ceaae-sym
$M conform --variants 100000 --seed 20261126 --devices 0 --out /tmp/cold --db /tmp/night.sqlite > /tmp/cold.log 2>&1
echo "cold rc=$?" > $OUT/profile.txt
cat /proc/sys/kernel/perf_event_paranoid >> $OUT/profile.txt
$P record -F 299 -g -o /tmp/perf.data -- $M conform --variants 1000000 --seed 20261126 --devices 0 --out /tmp/warm --db /tmp/night.sqlite > /tmp/warm.log 2>/tmp/perf-record.err
echo "warm rc=$?" >> $OUT/profile.txt
tail -3 /tmp/perf-record.err >> $OUT/profile.txt
$P report -i /tmp/perf.data --no-children --sort symbol --stdio -g none 2>/dev/null | grep -v "^$" | head -80 | cut -c1-200 >> $OUT/profile.txt
$P report -i /tmp/perf.data --no-children --sort comm,dso --stdio -g none 2>/dev/null | grep -v "^$" | head -30 | cut -c1-200 > $OUT/dso.txt
$P report -i /tmp/perf.data --children --sort symbol --stdio -g none 2>/dev/null | grep -v "^$" | head -80 | cut -c1-200 > $OUT/children.txt
