#!/usr/bin/env bash
# This report's device call, from the repository root on a lent
# nvidia-h100-x4 host (4 GPUs, 64 cores), with the stripped binaries carried
# in build/devcheck (README.md): run.sh call1|call2|call3. It writes under $OUT.
#   call1: the device test of conform; one cold run at 10^5 fills the
#          store's fault memory; then, twice, the nightly run at 10^6 on
#          1, 2 and 4 GPUs with all 64 cores, and on 1 and 2 GPUs with
#          32 of them (taskset), as on a two-GPU host of 32 cores.
#   call2: where a worker's time goes. gpu_throughput (one wmma.load form,
#          16384 blocks a launch, as conform's workers launch) in 1, 4 and 8
#          processes at once, on one GPU or dealt over four, each with its
#          share of the cores as host threads; then the nightly run at 10^6
#          on 4 GPUs with 4 and 32 workers. nvidia-smi samples PCIe traffic
#          too. (Its first try hung in run.sh's own bare `wait`, which also
#          waited for nvidia-smi; it came back with dmon.txt alone.)
#   call3: 33adac3, which says where its workers' time went: the nightly
#          run at 10^6 on 1 GPU and on 4, with 8 workers and with 32.
set -u
source scripts/device-conform-runs.sh
M=matload-7238144

host
{ nvidia-smi topo -m; lscpu | grep -i numa; } >> $OUT/host.txt 2>&1
# throughput NAME THREADS DEVICE...: one gpu_throughput process per DEVICE,
# all at once, each with THREADS host threads for 8 s; their counters into
# /tmp/NAME-K.json, their rates into figures.txt.
throughput() {
  local name=$1 threads=$2 k=0 pids=()
  shift 2
  echo "$(date -u +%T) start $name" >> $OUT/marks.txt
  for device in "$@"; do
    timeout 60 $D/gpu_throughput-7238144 --device=$device --threads=$threads --blocks=16384 --seconds=8 \
      --forms=wmma.load.a.sync.aligned.row.m16n16k16.global.f16 --benchmark_format=json > /tmp/$name-$k.json \
      2> /tmp/$name-$k.err &
    pids+=($!)
    k=$((k + 1))
  done
  wait "${pids[@]}"  # not a bare wait: nvidia-smi dmon runs in the background too
  echo "$(date -u +%T) end $name" >> $OUT/marks.txt
  python3 - "$name" $k >> $OUT/figures.txt <<'PY'
import json, sys
name, count = sys.argv[1], int(sys.argv[2])
rows = [json.load(open(f"/tmp/{name}-{k}.json"))["benchmarks"][0] for k in range(count)]
rate = sum(r["checked_executions"] / r["real_time"] for r in rows)
busy = sum(r["launching_s"] / r["real_time"] for r in rows) / count
print(f"{name}: {count} processes, {rate / 1e6:.1f} M checked executions/s together, launching {100 * busy:.0f}% "
      f"of each one's time, mismatches {sum(r['mismatches'] for r in rows):.0f}")
PY
}

case ${1:?usage: run.sh call1|call2|call3} in
  call1)
    timeout 300 $D/conformance_device_test-new > /tmp/conform-test.log 2>&1
    echo "conformance_device_test rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' /tmp/conform-test.log | tr '\n' ' ')" \
      > $OUT/tests.txt
    rounds() {
      run cold-1e5-1gpu $M 100000 0
      for r in 1 2; do
        run warm-1e6-1gpu-r$r $M 1000000 0
        run warm-1e6-2gpu-r$r $M 1000000 0,1
        run warm-1e6-4gpu-r$r $M 1000000 all
        PIN=0-31 run warm-1e6-1gpu-32cores-r$r $M 1000000 0
        PIN=0-31 run warm-1e6-2gpu-32cores-r$r $M 1000000 0,1
      done
    }
    sampled rounds
    for n in 1gpu-r2 2gpu-r1 2gpu-r2 4gpu-r1 4gpu-r2 1gpu-32cores-r1 1gpu-32cores-r2 2gpu-32cores-r1 2gpu-32cores-r2; do
      same warm-1e6-1gpu-r1 warm-1e6-$n
    done
    ;;
  call2)
    call2_runs() {
      throughput tp-1-on-gpu0 16 0
      throughput tp-4-on-4gpus 16 0 1 2 3
      throughput tp-8-on-gpu0 8 0 0 0 0 0 0 0 0
      throughput tp-8-on-4gpus 8 0 1 2 3 0 1 2 3
      run cold-1e5-1gpu $M 100000 0
      run warm-1e6-4gpu-4workers $M 1000000 all --workers 4
      run warm-1e6-4gpu-32workers $M 1000000 all --workers 32
    }
    DMON=ut sampled call2_runs
    same warm-1e6-4gpu-4workers warm-1e6-4gpu-32workers
    ;;
  call3)
    run cold-1e5-1gpu matload-33adac3 100000 0
    run warm-1e6-1gpu matload-33adac3 1000000 0
    run warm-1e6-4gpu matload-33adac3 1000000 all
    run warm-1e6-4gpu-32workers matload-33adac3 1000000 all --workers 32
    for n in 4gpu 4gpu-32workers; do same warm-1e6-1gpu warm-1e6-$n; done
    ;;
  *) echo "run.sh: unknown call '$1'" >&2; exit 2 ;;
esac
