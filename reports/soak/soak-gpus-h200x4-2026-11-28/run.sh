#!/usr/bin/env bash
# How a soak's rate grows with the GPUs of one host: one-minute soaks of
# every legal sm_90 form on a lent four-H200 machine over 1, 2 and 4 GPUs
# (16 workers a GPU), after a warm-up soak that fills the JIT cache and
# the fault memory, all into one store with one seed, so that every soak's
# round 0 takes its registry confirmations from the memory. From build/kit
# as ../soak-h200x2-2026-11-28/run.sh. Usage: run.sh OUT_DIR.
set -u
out=$1
kit=build/kit
export LD_LIBRARY_PATH=$PWD/$kit/lib MATLOAD_SOURCE_DIR=$PWD
m=$kit/matload
work=/tmp/gpus && rm -rf $work && mkdir -p $work
{ date -u; nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version --format=csv; nproc; } >$out/host.txt 2>&1
soak() {  # soak NAME DEVICES WORKERS
  timeout 170 $m soak --minutes 1 --devices "$2" --workers "$3" --seed 20261128 --out $work/$1 --db $work/s.sqlite \
    --progress_seconds 0 >/dev/null 2>$work/$1.err
  echo "soak $1 --devices $2 --workers $3 rc=$?" >>$out/steps.txt
  grep -E "^soak round" $work/$1.err >>$out/steps.txt
  cp $work/$1/summary.md $out/$1.md 2>/dev/null
}
soak warm-up all 64
soak one-gpu 0 16
soak two-gpus 0,1 32
soak four-gpus all 64
cat $out/steps.txt
