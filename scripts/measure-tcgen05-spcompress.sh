#!/usr/bin/env bash
# What a ptxas takes of tcgen05.ld[.red] .spcompress (PTX ISA 9.4
# 9.7.18.8.3), beside matload's verdict on each case:
#   scripts/fetch-cuda-tools.sh ptxas@13.5.37
#   scripts/measure-tcgen05-spcompress.sh ~/.cache/matload/cuda-13.5.37/ptxas [build/default/matload] [VERSION]
# VERSION is the .version written (default 9.5; 9.4 for a ptxas 13.4, the
# newest it speaks for an older one, where .spcompress does not exist). The
# cases: every .num, .rowop, .abs and .NaN of both forms on sm_107a; both
# forms on every target the ptxas knows and at PTX 9.3; each qualifier
# moved to every other place, and 40 fixed shuffles of each form; the other
# shapes, .pack::16b, immHalfSplitoff, the other types, a missing or doubled
# .spfactor, .idxsize or .rowop, .b2 on the forms without .spcompress and on
# wmma.load and ldmatrix; and the operands: vector lengths, register types
# and operand counts. One line
# per case: the target and version, the instruction, ptxas's exit status and
# first message, and matload's verdict. The report is
# reports/spec-measurements/tcgen05-spcompress/.
set -uo pipefail
ptxas=${1:?usage: measure-tcgen05-spcompress.sh PTXAS [MATLOAD] [VERSION]}
matload=${2:-build/default/matload}
version=${3:-9.5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$ptxas" --version | grep release

declarations='.reg .b32 m<8>, c<64>, v, t; .reg .f32 f<64>; .reg .u32 u<8>; .reg .b16 h<8>; .reg .b64 d<8>; .reg .f16x2 x<8>;'

# measure VERSION TARGET INSTRUCTION prints one case.
measure() {
  local at=$1 target=$2 instruction=$3 message status verdict
  printf '.version %s\n.target %s\n.address_size 64\n.visible .entry k()\n{\n%s\n%s\nret;\n}\n' \
    "$at" "$target" "${declarations// .reg/$'\n'.reg}" "$instruction" >"$work/k.ptx"
  "$ptxas" -arch="$target" "$work/k.ptx" -o "$work/k.cubin" >"$work/out" 2>&1
  status=$?
  message=$(grep -v 'Ptx assembly aborted' "$work/out" | head -1)
  message=${message//$work\//}
  verdict=$("$matload" check --target "$target" --ptx "$at" "$declarations $instruction" 2>&1)
  verdict=${verdict%%$'\n'*}
  printf '%s %s\t%s\tptxas exit %s %s\tmatload: %s\n' "$target" "$at" "$instruction" "$status" "${message:-accepted}" \
    "$verdict"
}

# vector PREFIX COUNT spells {PREFIX0, ..., PREFIX<COUNT-1>}.
vector() {
  local text="{$1"0 i
  for ((i = 1; i < $2; ++i)); do text+=", $1$i"; done
  echo "$text}"
}

# operands RED NUM spells a form's standard operands: mdata, cdata[, redval], [taddr].
operands() {
  local red=$1 num=$2
  echo "$(vector m $(((num + 31) / 32))), $(vector c $((num / 2)))${red:+, v}, [t]"
}

echo "## every .num, .rowop, .abs and .NaN"
for red in "" red; do
  for num in 1 2 4 8 16 32 64 128; do
    for rowop in min max; do
      for abs in "" .abs; do
        for nan in "" .NaN; do
          ops=$(operands "$red" $((num < 4 ? 4 : num)))
          measure "$version" sm_107a "tcgen05.ld${red:+.red}.spcompress.sync.aligned.32x32b.x$num.$rowop.sp::2:4$abs$nan.f32.b2 $ops;"
        done
      done
    done
  done
done

plain="tcgen05.ld.spcompress.sync.aligned.32x32b.x8.max.sp::2:4.f32.b2 $(operands "" 8);"
reducing="tcgen05.ld.red.spcompress.sync.aligned.32x32b.x8.max.sp::2:4.f32.b2 $(operands red 8);"

echo "## targets"
targets=$("$ptxas" --help | grep -o 'sm_[0-9]*[af]\?' | sort -u -V)
for target in $targets; do
  for instruction in "$plain" "$reducing"; do measure "$version" "$target" "$instruction"; done
done
for target in sm_107a sm_103a; do
  for instruction in "$plain" "$reducing"; do measure 9.3 "$target" "$instruction"; done
done

# reorder CANONICAL OPERANDS writes each qualifier of CANONICAL (dot-separated,
# after tcgen05.ld) moved to every other place, then 40 fixed shuffles.
reorder() {
  local -a tokens
  IFS=. read -r -a tokens <<<"$1"
  local n=${#tokens[@]} i j k seed=20261127
  for ((i = 0; i < n; ++i)); do
    for ((j = 0; j < n; ++j)); do
      ((i == j)) && continue
      local -a rest=("${tokens[@]:0:i}" "${tokens[@]:i+1}")
      local -a moved=("${rest[@]:0:j}" "${tokens[i]}" "${rest[@]:j}")
      measure "$version" sm_107a "tcgen05.ld.$(IFS=.; echo "${moved[*]}") $2;"
    done
  done
  for ((k = 0; k < 40; ++k)); do
    local -a shuffled=("${tokens[@]}")
    for ((i = n - 1; i > 0; --i)); do
      seed=$(((seed * 1103515245 + 12345) % 2147483648))
      j=$((seed % (i + 1)))
      local swap=${shuffled[i]}
      shuffled[i]=${shuffled[j]}
      shuffled[j]=$swap
    done
    measure "$version" sm_107a "tcgen05.ld.$(IFS=.; echo "${shuffled[*]}") $2;"
  done
}

echo "## qualifier order"
reorder "spcompress.sync.aligned.32x32b.x8.max.sp::2:4.abs.f32.b2" "$(operands "" 8)"
reorder "red.spcompress.sync.aligned.32x32b.x8.max.sp::2:4.abs.NaN.f32.b2" "$(operands red 8)"

echo "## qualifiers"
for red in "" red; do
  ops=$(operands "$red" 8)
  head="tcgen05.ld${red:+.red}.spcompress.sync.aligned"
  for shape in 16x64b 16x128b 16x256b 16x32bx2; do measure "$version" sm_107a "$head.$shape.x8.max.sp::2:4.f32.b2 $ops;"; done
  measure "$version" sm_107a "$head.16x32bx2.x8.max.sp::2:4.f32.b2 $ops, 16;"
  measure "$version" sm_107a "$head.32x32b.x8.max.sp::2:4.f32.b2 $ops, 16;"
  measure "$version" sm_107a "$head.32x32b.x8.pack::16b.max.sp::2:4.f32.b2 $ops;"
  for type in b32 u32 s32 f16; do measure "$version" sm_107a "$head.32x32b.x8.max.sp::2:4.$type.b2 $ops;"; done
  measure "$version" sm_107a "$head.32x32b.x8.max.sp::2:4.b2 $ops;"
  measure "$version" sm_107a "$head.32x32b.x8.max.sp::2:4.f32 $ops;"
  measure "$version" sm_107a "$head.32x32b.x8.max.sp::2:4.f32.b4 $ops;"
  measure "$version" sm_107a "$head.32x32b.x8.max.sp::2:4.f32.b2.b2 $ops;"
  measure "$version" sm_107a "$head.32x32b.x8.max.f32.b2 $ops;"
  measure "$version" sm_107a "$head.32x32b.x8.max.sp::4:8.f32.b2 $ops;"
  measure "$version" sm_107a "$head.32x32b.x8.max.sp::2:4.sp::2:4.f32.b2 $ops;"
  measure "$version" sm_107a "$head.32x32b.x8.sp::2:4.f32.b2 $ops;"
  measure "$version" sm_107a "$head.32x32b.x8.min.max.sp::2:4.f32.b2 $ops;"
  measure "$version" sm_107a "$head.32x32b.x8.max.sp::2:4.abs.abs.f32.b2 $ops;"
done
measure "$version" sm_107a "tcgen05.ld.spcompress.sync.aligned.32x32b.x8.max.sp::2:4.NaN.f32.b2 $(operands "" 8);"
# .sp::2:4 and .b2 without .spcompress, on sm_107a and on sm_103a.
for target in sm_107a sm_103a; do
  measure "$version" $target "tcgen05.ld.sync.aligned.32x32b.x8.sp::2:4.b32 $(vector c 8), [t];"
  measure "$version" $target "tcgen05.ld.sync.aligned.32x32b.x8.b32.b2 $(vector c 8), [t];"
  measure "$version" $target "tcgen05.ld.sync.aligned.32x32b.x8.b2.b32 $(vector c 8), [t];"
  measure "$version" $target "tcgen05.ld.sync.aligned.16x64b.x8.pack::16b.b32.b2 $(vector c 8), [t];"
  measure "$version" $target "tcgen05.ld.sync.aligned.32x32b.x8.b2 $(vector c 8), [t];"
  measure "$version" $target "tcgen05.ld.red.sync.aligned.32x32b.x8.max.sp::2:4.f32 $(vector c 8), v, [t];"
  measure "$version" $target "tcgen05.ld.red.sync.aligned.32x32b.x8.max.f32.b2 $(vector c 8), v, [t];"
  measure "$version" $target "tcgen05.ld.red.sync.aligned.32x32b.x8.max.u32.b2 $(vector c 8), v, [t];"
done

echo "## .b2 on the other two instructions"
measure "$version" sm_90 "wmma.load.a.sync.aligned.row.m16n16k16.f16.b2 $(vector c 8), [d0];"
measure "$version" sm_90 "wmma.load.a.sync.aligned.row.m16n16k16.b2.f16 $(vector c 8), [d0];"
measure "$version" sm_90 "wmma.load.c.sync.aligned.row.m16n16k16.f32.b2 $(vector c 8), [d0];"
measure "$version" sm_90 "wmma.load.a.sync.aligned.row.m16n16k16.f16.b4 $(vector c 8), [d0];"
measure "$version" sm_90 "ldmatrix.sync.aligned.m8n8.x1.b16.b2 {c0}, [d0];"
measure "$version" sm_90 "ldmatrix.sync.aligned.m8n8.x1.b2.b16 {c0}, [d0];"
measure "$version" sm_100a "ldmatrix.sync.aligned.m8n16.x1.b8x16.b4x16_p64.b2 {c0}, [d0];"

echo "## operands"
head="tcgen05.ld.spcompress.sync.aligned.32x32b"
red_head="tcgen05.ld.red.spcompress.sync.aligned.32x32b"
tail="max.sp::2:4.f32.b2"
for prefix in c f u x h d; do
  measure "$version" sm_107a "$head.x8.$tail {${prefix}7}, $(vector c 4), [t];"
  measure "$version" sm_107a "$head.x8.$tail {m0}, $(vector $prefix 4), [t];"
  measure "$version" sm_107a "$red_head.x8.$tail {m0}, $(vector c 4), ${prefix}7, [t];"
done
for num in 8 64 128; do
  for mdata in 1 2 3 4 5; do measure "$version" sm_107a "$head.x$num.$tail $(vector m $mdata), $(vector c $((num / 2))), [t];"; done
  for cdata in $((num / 2 - 1)) $((num / 2 + 1)) $num; do
    measure "$version" sm_107a "$head.x$num.$tail $(vector m $(((num + 31) / 32))), $(vector c $cdata), [t];"
  done
done
measure "$version" sm_107a "$head.x8.$tail m0, $(vector c 4), [t];"
measure "$version" sm_107a "$head.x4.$tail {m0}, c0, [t];"
measure "$version" sm_107a "$head.x8.$tail $(vector c 4), [t];"
measure "$version" sm_107a "$head.x8.$tail $(vector c 4), {m0}, [t];"
measure "$version" sm_107a "$head.x8.$tail {m0}, $(vector c 4), v, [t];"
measure "$version" sm_107a "$head.x8.$tail {m0}, $(vector c 4), [t], 16;"
measure "$version" sm_107a "$head.x8.$tail {m0}, $(vector c 4), [t+4];"
measure "$version" sm_107a "$head.x8.$tail {m0}, $(vector c 4), [16];"
measure "$version" sm_107a "$head.x8.$tail {m0}, {c0, f1, c2, c3}, [t];"
measure "$version" sm_107a "$head.x8.$tail {m0}, {f0, u1, f2, f3}, [t];"
measure "$version" sm_107a "$head.x8.$tail {c0}, $(vector c 4), [t];"
measure "$version" sm_107a "$red_head.x8.$tail {m0}, $(vector c 4), [t];"
measure "$version" sm_107a "$red_head.x8.$tail {m0}, $(vector c 4), 5, [t];"
measure "$version" sm_107a "$red_head.x8.$tail {m0}, $(vector c 4), [t], v;"
measure "$version" sm_107a "$red_head.x8.$tail {m0}, $(vector c 4), {v}, [t];"
