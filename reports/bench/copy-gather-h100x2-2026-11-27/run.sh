#!/usr/bin/env bash
# This report's device call, from the repository root on the lent host, with
# the stripped binaries carried in build/devcheck (README.md): the device
# tests of the new build, then the nightly run at 10^6 variants, the old
# binary (02c2f96) and the new one alternated on one GPU, and the new one
# on two; last, perf (Debian's, carried as perf.tar.xz) over a warm 10^6
# run of the new build with its symbols, on one GPU. Writes its figures
# under $OUT.
set -u
source scripts/device-conform-runs.sh

# device_tests runs the GPU tests of the new build, into tests.txt.
device_tests() {
  for t in cuda_driver_test wmma_device_test conformance_device_test; do
    timeout 300 $D/$t-new > /tmp/$t.log 2>&1
    echo "$t rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' /tmp/$t.log | tr '\n' ' ')" >> $OUT/tests.txt
  done
}

# nightly_runs: one cold run fills the store's fault memory; then old and
# new alternate, twice.
nightly_runs() {
  run cold-1e5-new-0 matload-new 100000 0
  for r in 1 2; do
    run warm-1e6-old-0-r$r matload-46adc34 1000000 0
    run warm-1e6-new-0-r$r matload-new 1000000 0
    run warm-1e6-new-0_1-r$r matload-new 1000000 0,1
  done
  for n in warm-1e6-new-0-r1 warm-1e6-new-0_1-r1 warm-1e6-old-0-r2 warm-1e6-new-0-r2 warm-1e6-new-0_1-r2; do
    same warm-1e6-old-0-r1 $n
  done
}

# profile: where the new build's host CPU goes, into profile.txt.
profile() {
  tar xJf $D/perf.tar.xz -C /tmp
  local P="env LD_LIBRARY_PATH=$LD_LIBRARY_PATH:/tmp/perf /tmp/perf/perf"
  $P record -F 299 -g -o /tmp/perf.data -- $D/matload-new-sym conform --variants 1000000 --seed 20261126 \
    --devices 0 --out /tmp/profiled --db /tmp/night.sqlite > /tmp/profiled.log 2> /tmp/perf-record.err
  echo "profiled run rc=$?" > $OUT/profile.txt
  $P report -i /tmp/perf.data --no-children --sort symbol --stdio -g none 2>/dev/null | grep -v "^$" | head -60 |
    cut -c1-160 >> $OUT/profile.txt
}

host
device_tests
sampled nightly_runs
profile
