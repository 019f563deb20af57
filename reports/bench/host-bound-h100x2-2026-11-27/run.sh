#!/usr/bin/env bash
# The four device calls of this report, one call each, from the repository
# root on the lent host, with the binaries carried in build/devcheck (see
# README.md): run.sh scaling|profile|side-by-side|final. Each writes its
# figures under $OUT.
set -u
# host, run, same and sampled: scripts/device-conform-runs.sh (written
# out here when these calls ran; moved there unchanged for later reports).
source scripts/device-conform-runs.sh

# scaling (01ceaae, whose --workers counts per GPU): workers 2 to 16, one GPU and two.
scaling() {
  local M=matload-01ceaae
  run cold-1e5-1gpu-w8 $M 100000 0 --workers 8
  for r in 1 2; do
    run warm-1e5-1gpu-w8-r$r $M 100000 0 --workers 8
    run warm-1e5-2gpu-w8-r$r $M 100000 0,1 --workers 8
    run warm-1e5-2gpu-w4-r$r $M 100000 0,1 --workers 4
    run warm-1e5-1gpu-w4-r$r $M 100000 0 --workers 4
    run warm-1e5-1gpu-w16-r$r $M 100000 0 --workers 16
    run warm-1e5-2gpu-w2-r$r $M 100000 0,1 --workers 2
  done
  for n in warm-1e5-2gpu-w8-r1 warm-1e5-2gpu-w4-r1 warm-1e5-1gpu-w4-r1 warm-1e5-1gpu-w16-r1 warm-1e5-2gpu-w2-r1 \
    warm-1e5-1gpu-w8-r2; do same cold-1e5-1gpu-w8 $n; done
  run warm-1e6-1gpu-w8 $M 1000000 0 --workers 8
  run warm-1e6-2gpu-w8 $M 1000000 0,1 --workers 8
  run warm-1e6-2gpu-w4 $M 1000000 0,1 --workers 4
  run warm-1e6-1gpu-w16 $M 1000000 0 --workers 16
  for n in warm-1e6-2gpu-w8 warm-1e6-2gpu-w4 warm-1e6-1gpu-w16; do same warm-1e6-1gpu-w8 $n; done
}

# profile: perf (Debian's, carried as perf.tar.xz) over a warm 10^6 run of
# 01ceaae built with its symbols, on one GPU.
profile() {
  tar xJf $D/perf.tar.xz -C /tmp
  local P="env LD_LIBRARY_PATH=$PWD/$D/lib:/tmp/perf /tmp/perf/perf" M=$D/matload-01ceaae-sym
  $M conform --variants 100000 --seed 20261126 --devices 0 --out /tmp/cold --db /tmp/night.sqlite > /tmp/cold.log 2>&1
  echo "cold rc=$?" > $OUT/profile.txt
  cat /proc/sys/kernel/perf_event_paranoid >> $OUT/profile.txt
  $P record -F 299 -g -o /tmp/perf.data -- $M conform --variants 1000000 --seed 20261126 --devices 0 --out /tmp/warm \
    --db /tmp/night.sqlite > /tmp/warm.log 2>/tmp/perf-record.err
  echo "warm rc=$?" >> $OUT/profile.txt
  tail -3 /tmp/perf-record.err >> $OUT/profile.txt
  $P report -i /tmp/perf.data --no-children --sort symbol --stdio -g none 2>/dev/null | grep -v "^$" | head -80 |
    cut -c1-200 >> $OUT/profile.txt
  $P report -i /tmp/perf.data --no-children --sort comm,dso --stdio -g none 2>/dev/null | grep -v "^$" | head -30 |
    cut -c1-200 > $OUT/dso.txt
}

# side_by_side: 01ceaae and the change alternated, 10^5 and 10^6, one GPU and two.
side_by_side() {
  run cold-1e5-new-1gpu matload-new 100000 0
  for r in 1 2; do
    for devices in 0 0,1; do
      for binary in matload-01ceaae matload-new; do
        run warm-1e5-${binary#matload-}-${devices/,/_}-r$r $binary 100000 $devices
      done
    done
  done
  for n in warm-1e5-01ceaae-0-r1 warm-1e5-new-0-r1 warm-1e5-01ceaae-0_1-r1 warm-1e5-new-0_1-r1 warm-1e5-new-0_1-r2; do
    same cold-1e5-new-1gpu $n
  done
  run warm-1e6-01ceaae-0 matload-01ceaae 1000000 0
  run warm-1e6-new-0 matload-new 1000000 0
  run warm-1e6-new-0_1 matload-new 1000000 0,1
  run warm-1e6-01ceaae-0_1 matload-01ceaae 1000000 0,1
  for n in warm-1e6-new-0 warm-1e6-new-0_1 warm-1e6-01ceaae-0_1; do same warm-1e6-01ceaae-0 $n; done
}

# final: 02c2f96's device tests, then 01ceaae and 02c2f96 alternated at 10^6.
final() {
  for t in cuda_driver_test wmma_device_test conformance_device_test; do
    timeout 300 $D/$t-02c2f96 > /tmp/$t.log 2>&1
    echo "$t rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' /tmp/$t.log | tr '\n' ' ')" >> $OUT/tests.txt
  done
  sampled final_runs
}
final_runs() {
  run cold-1e5-02c2f96-0 matload-02c2f96 100000 0
  for r in 1 2; do
    run warm-1e6-01ceaae-0-r$r matload-01ceaae 1000000 0
    run warm-1e6-02c2f96-0-r$r matload-02c2f96 1000000 0
  done
  run warm-1e6-02c2f96-0_1 matload-02c2f96 1000000 0,1
  for n in warm-1e6-02c2f96-0-r1 warm-1e6-01ceaae-0-r2 warm-1e6-02c2f96-0-r2 warm-1e6-02c2f96-0_1; do
    same warm-1e6-01ceaae-0-r1 $n
  done
}

host
case ${1:?usage: run.sh scaling|profile|side-by-side|final} in
  scaling) sampled scaling ;;
  profile) profile ;;
  side-by-side) sampled side_by_side ;;
  final) final ;;
  *) echo "run.sh: unknown call '$1'" >&2; exit 2 ;;
esac
