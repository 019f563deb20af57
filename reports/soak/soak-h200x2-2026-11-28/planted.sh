#!/usr/bin/env bash
# Planted bugs through the soak on a lent two-H200 machine, from build/kit
# as run.sh: the transposed expectation (a wrong model prediction: every
# variant a mismatch) and the off-by-one row (the kernel reads 16 bytes
# past each row: mismatches and faults, each fault pinned to its variant by
# halving, hence few variants and --first_failures 2). Each must end with
# findings (exit 1). Usage: planted.sh OUT_DIR.
set -u
kit=build/kit
export LD_LIBRARY_PATH=$PWD/$kit/lib MATLOAD_SOURCE_DIR=$PWD
m=$kit/matload
w=/tmp/p && rm -rf $w && mkdir -p $w
f='^ldmatrix\.sync\.aligned\.m8n8\.x4\.(trans\.)?shared\.b16$'
timeout 200 $m soak --rounds 2 --forms "$f" --round_variants 10000 --plant transposed --devices all --workers 32 \
  --seed 7 --out $w/transposed --db $w/t.sqlite --progress_seconds 0 >$w/transposed.md 2>$w/transposed.err
echo "soak --plant transposed rc=$?" >>$w/steps.txt
grep -E "^soak round" $w/transposed.err >>$w/steps.txt
timeout 200 $m soak --rounds 2 --forms "$f" --round_variants 64 --first_failures 2 --retries 1 --plant off-by-one-row \
  --devices all --workers 32 --seed 7 --out $w/offbyone --db $w/o.sqlite --progress_seconds 0 >$w/offbyone.md \
  2>$w/offbyone.err
echo "soak --plant off-by-one-row rc=$?" >>$w/steps.txt
grep -E "^soak round" $w/offbyone.err >>$w/steps.txt
$m runs --db $w/t.sqlite >>$w/steps.txt 2>&1
$m runs --db $w/o.sqlite >>$w/steps.txt 2>&1
cp $w/steps.txt $w/transposed.md $w/offbyone.md $1/
tar -czf $1/planted.tgz -C $w --exclude='*.sqlite*' transposed offbyone transposed.err offbyone.err
cat $w/steps.txt
