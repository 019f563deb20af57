#!/usr/bin/env bash
# Whether a ptxas takes wmma.load's .aligned written out, and whether it
# needs it, at PTX ISA 6.0, 6.2, 6.3 and 6.4 on sm_70, beside matload's
# verdict on each. CUDA 13's ptxas cannot target sm_70; a 12.x one can:
#   scripts/fetch-cuda-tools.sh ptxas@12.9.86
#   scripts/measure-wmma-aligned.sh ~/.cache/matload/cuda-12.9.86/ptxas [build/default/matload]
# One line per (version, spelling): ptxas's exit status and first
# message, then matload's verdict.
set -uo pipefail
ptxas=${1:?usage: measure-wmma-aligned.sh PTXAS [MATLOAD]}
matload=${2:-build/default/matload}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$ptxas" --version | grep release
for version in 6.0 6.2 6.3 6.4; do
  for opcode in wmma.load.a.sync.aligned.row.m16n16k16.f16 wmma.load.a.sync.row.m16n16k16.f16; do
    instruction="$opcode {r0,r1,r2,r3,r4,r5,r6,r7}, [p];"
    printf '.version %s\n.target sm_70\n.address_size 64\n.visible .entry k(.param .u64 ptr) {\n  .reg .b64 p;\n  .reg .b32 r<8>;\n  ld.param.u64 p, [ptr];\n  %s\n  ret;\n}\n' \
      "$version" "$instruction" >"$work/k.ptx"
    message=$("$ptxas" -arch=sm_70 "$work/k.ptx" -o "$work/k.cubin" 2>&1)
    status=$?
    message=${message%%$'\n'*}
    verdict=$("$matload" check --target sm_70 --ptx "$version" "$instruction" 2>&1)
    verdict=${verdict%%$'\n'*}
    printf 'PTX %s\t%s\tptxas exit %s %s\tmatload: %s\n' "$version" "$opcode" "$status" "${message:-accepted}" "$verdict"
  done
done
