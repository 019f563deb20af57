#!/usr/bin/env bash
# This report's two device calls, one call each, from the repository root
# on the lent host, with the stripped binaries carried in build/devcheck
# (README.md): run.sh call1|call2|call3|call4|call5. Each writes its figures
# under $OUT.
#   call1: the device tests of 7c26686, then the nightly run at 10^6
#          variants, 46adc34 and 7c26686 alternated on one GPU, and 7c26686
#          on two; last, perf over a warm 10^6 run of 7c26686.
#   call2: the same for f909d9c against 7c26686 (its conform test only,
#          since the model did not change), with the nightly run at 10^5 too.
#   call3: call2's runs for 8e8f666 (f909d9c without its fault-case memo)
#          against 7c26686, without perf.
#   call4: 76d49cd (ldmatrix's kept window): its conform and wmma device
#          tests, and the nightly run at 10^5 against 8e8f666's results.
#   call5: 8e8f666 and 76d49cd alternated at 10^5, three times each.
# In each call the newer binary is build/devcheck/matload-new (and
# matload-new-sym, with its symbol table, for perf; TEST-new for its tests).
set -u
source scripts/device-conform-runs.sh

# device_tests TEST...: the newer build's GPU tests, into tests.txt.
device_tests() {
  for t in "$@"; do
    timeout 300 $D/$t-new > /tmp/$t.log 2>&1
    echo "$t rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' /tmp/$t.log | tr '\n' ' ')" >> $OUT/tests.txt
  done
}

# nightly_runs OLD: one cold run fills the store's fault memory; then
# matload-OLD and matload-new alternate at 10^6, twice, and the new one
# also runs on both GPUs.
nightly_runs() {
  local old=$1
  run cold-1e5-new-0 matload-new 100000 0
  for r in 1 2; do
    run warm-1e6-old-0-r$r matload-$old 1000000 0
    run warm-1e6-new-0-r$r matload-new 1000000 0
    run warm-1e6-new-0_1-r$r matload-new 1000000 0,1
  done
  for n in warm-1e6-new-0-r1 warm-1e6-new-0_1-r1 warm-1e6-old-0-r2 warm-1e6-new-0-r2 warm-1e6-new-0_1-r2; do
    same warm-1e6-old-0-r1 $n
  done
}

# nightly_runs_1e5: the new binary warm at 10^5, twice on one GPU, once on two.
nightly_runs_1e5() {
  run warm-1e5-new-0-r1 matload-new 100000 0
  run warm-1e5-new-0-r2 matload-new 100000 0
  run warm-1e5-new-0_1 matload-new 100000 0,1
  for n in warm-1e5-new-0-r1 warm-1e5-new-0-r2 warm-1e5-new-0_1; do same cold-1e5-new-0 $n; done
}

# profile: where the new build's host CPU goes, into profile.txt: perf
# (Debian's, carried as perf.tar.xz) over a warm 10^6 run on one GPU.
profile() {
  tar xJf $D/perf.tar.xz -C /tmp
  local P="env LD_LIBRARY_PATH=$LD_LIBRARY_PATH:/tmp/perf /tmp/perf/perf"
  $P record -F 299 -g -o /tmp/perf.data -- $D/matload-new-sym conform --variants 1000000 --seed 20261126 \
    --devices 0 --out /tmp/profiled --db /tmp/night.sqlite > /tmp/profiled.log 2> /tmp/perf-record.err
  echo "profiled run rc=$?" > $OUT/profile.txt
  $P report -i /tmp/perf.data --no-children --sort symbol --stdio -g none 2>/dev/null | grep -v "^$" | head -60 |
    cut -c1-160 >> $OUT/profile.txt
}

# call2_runs: the timed runs of calls 2 and 3, under one nvidia-smi sampling.
call2_runs() {
  nightly_runs 7c26686
  nightly_runs_1e5
}

host
case ${1:?usage: run.sh call1|call2|call3|call4|call5} in
  call1)
    device_tests cuda_driver_test wmma_device_test conformance_device_test
    sampled nightly_runs 46adc34
    profile
    ;;
  call2)
    echo "avx512dq: $(grep -c -w avx512dq /proc/cpuinfo) of $(grep -c ^processor /proc/cpuinfo) CPUs" >> $OUT/host.txt
    device_tests conformance_device_test
    sampled call2_runs
    profile
    ;;
  call3)
    device_tests conformance_device_test
    sampled call2_runs
    ;;
  call4)
    device_tests conformance_device_test wmma_device_test
    run cold-1e5-old-0 matload-8e8f666 100000 0
    run warm-1e5-new-0 matload-new 100000 0
    run warm-1e5-old-0 matload-8e8f666 100000 0
    for n in warm-1e5-new-0 warm-1e5-old-0; do same cold-1e5-old-0 $n; done
    ;;
  call5)
    run cold-1e5-old-0 matload-8e8f666 100000 0
    for r in 1 2 3; do
      run warm-1e5-old-0-r$r matload-8e8f666 100000 0
      run warm-1e5-new-0-r$r matload-new 100000 0
      same cold-1e5-old-0 warm-1e5-new-0-r$r
    done
    ;;
  *) echo "run.sh: unknown call '$1'" >&2; exit 2 ;;
esac
