#!/usr/bin/env bash
# The sweep kernel's registers against its occupancy, on a lent H200, from
# build/kit: each form's swept rate with the kernel as matload wrote it and
# compiled for at least 8, 12 and 16 blocks of 4 warps per SM
# (gpu_throughput --sweep_min_blocks_per_sm; the grid is 16 blocks per SM).
# Logs land in OUT_DIR. Usage: occupancy.sh OUT_DIR.
set -u
out=$1
kit=build/kit
export LD_LIBRARY_PATH=$PWD/$kit/lib MATLOAD_SOURCE_DIR=$PWD
forms=ldmatrix.sync.aligned.m8n8.x4.shared.b16,ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16
forms+=,wmma.load.a.sync.aligned.row.m16n16k16.global.f16,wmma.load.a.sync.aligned.col.m16n16k16.global.f16
forms+=,wmma.load.c.sync.aligned.row.m16n16k16.global.f32,wmma.load.a.sync.aligned.row.m16n16k16.f16
for blocks in 0 8 12 16; do
  timeout 100 $kit/gpu_throughput --judge gpu --benchmark_filter=swept --seconds 2 --threads 16 --forms $forms \
    --sweep_min_blocks_per_sm $blocks >$out/occupancy-$blocks.log 2>&1
  echo "--sweep_min_blocks_per_sm $blocks rc=$?"
  grep -o "^[a-z][^/]*\|checked_executions_per_s=[^ ]*" $out/occupancy-$blocks.log | paste - -
done
