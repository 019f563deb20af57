#!/usr/bin/env bash
# The soak's proof on a lent two-H200 machine (device tool), from build/kit
# (scripts/pack-for-device.sh's matload, stripped, with its libraries).
# Usage: run.sh OUT_DIR. Every step has a time limit, so that one that
# hangs cannot take the rest; each step's exit status goes to steps.txt.
set -u
out=$1
kit=build/kit
export LD_LIBRARY_PATH=$PWD/$kit/lib MATLOAD_SOURCE_DIR=$PWD
m=$kit/matload
work=/tmp/soak && rm -rf $work && mkdir -p $work
steps=$work/steps.txt
{ date -u; nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version --format=csv; nproc; } >$work/host.txt 2>&1

# 1. A four-minute soak of both GPUs, every legal sm_90 form, 10^6 variants a round; its exports.
/usr/bin/time -f "soak wall %e s, peak RSS %M KB" timeout 420 $m soak --minutes 4 --devices all --workers 32 \
  --seed 20261128 --out $work/soak --db $work/soak.sqlite --progress_seconds 60 >$work/soak.md 2>$work/soak.err
echo "soak --minutes 4 rc=$?" >>$steps
grep -E "^soak round|wall" $work/soak.err >>$steps
$m export soak@latest --db $work/soak.sqlite --junit $work/soak.xml --html $work/soak-page.html >>$steps 2>&1
echo "export rc=$?" >>$steps
$m runs --db $work/soak.sqlite >>$steps 2>&1

# 2. Round 2 replayed by conform from the seed the soak printed: the same results.tsv.
seed=$(sed -n 's/^soak round 2 (conform --seed \([0-9]*\)).*/\1/p' $work/soak.err)
timeout 150 $m conform --devices all --workers 32 --variants 1000000 --seed "$seed" --near_miss=false \
  --out $work/replay --db $work/replay.sqlite --progress_seconds 0 >/dev/null 2>>$steps
echo "conform --seed $seed rc=$?" >>$steps
grep -v '^#' $work/soak/rounds/0002/results.tsv >$work/round2.tsv; grep -v '^#' $work/replay/results.tsv >$work/replay.tsv
if cmp -s $work/round2.tsv $work/replay.tsv; then echo "round 2 replayed: identical results.tsv ($(wc -l <$work/replay.tsv) cases)" >>$steps
else echo "round 2 replayed: DIFFER" >>$steps; diff $work/round2.tsv $work/replay.tsv | head -20 >>$steps; fi

# 3. Planted bugs: a wrong kernel is a finding with bundles (exit 1); a wrong device judge is exit 4.
timeout 150 $m soak --rounds 2 --forms '^ldmatrix\.sync\.aligned\.m8n8\.x4\.(trans\.)?shared\.b16$' --round_variants 10000 \
  --plant off-by-one-row --devices all --workers 32 --seed 7 --out $work/planted --db $work/planted.sqlite \
  --progress_seconds 0 >$work/planted.md 2>$work/planted.err
echo "soak --plant off-by-one-row rc=$?" >>$steps
grep -E "^soak round" $work/planted.err >>$steps
timeout 150 $m soak --rounds 1 --forms '^ldmatrix\.sync\.aligned\.m8n8\.x4\.' --round_variants 10000 --plant misjudging-checker --devices all \
  --workers 32 --seed 7 --out $work/misjudging --db $work/misjudging.sqlite --progress_seconds 0 >/dev/null 2>$work/misjudging.err
echo "soak --plant misjudging-checker rc=$?" >>$steps
grep "^matload:" $work/misjudging.err >>$steps

cp $work/steps.txt $work/host.txt $work/soak.md $work/soak.xml $work/planted.md $out/
cp $work/soak/report.html $out/soak-report.html
tar -czf $out/logs.tgz -C $work --exclude='*.sqlite*' --exclude=bundles soak.err planted.err misjudging.err \
  soak/summary.json soak/results.tsv soak/rounds replay/summary.md planted/results.tsv planted/summary.json
cat $steps
