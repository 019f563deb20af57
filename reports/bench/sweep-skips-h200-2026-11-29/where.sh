#!/usr/bin/env bash
# Where the nightly run's time goes, on a lent H200, from build/kit, in one
# call: the swept rate of one form of each kind of data path (gpu_throughput),
# and conform over every legal sm_90 form at 10^7 variants a form with 16, 4
# and 1 worker processes sharing the GPU (a first run at 16 workers fills
# the fault memory). Logs land in OUT_DIR/where.tgz. Usage: where.sh OUT_DIR.
set -u
out=$1
kit=build/kit
export LD_LIBRARY_PATH=$PWD/$kit/lib MATLOAD_SOURCE_DIR=$PWD
m=$kit/matload
work=/tmp/where && rm -rf $work && mkdir -p $work/logs
steps=$work/logs/where-steps.txt
forms=ldmatrix.sync.aligned.m8n8.x4.shared.b16,ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16
forms+=,wmma.load.a.sync.aligned.row.m16n16k16.global.f16,wmma.load.a.sync.aligned.col.m16n16k16.global.f16
forms+=,wmma.load.a.sync.aligned.row.m16n16k16.f16,wmma.load.a.sync.aligned.row.m16n16k16.global.s8
forms+=,wmma.load.a.sync.aligned.row.m16n16k16.shared.s8,wmma.load.c.sync.aligned.row.m16n16k16.global.f32
forms+=,wmma.load.c.sync.aligned.col.m16n16k16.global.f32,wmma.load.a.sync.aligned.row.m8n8k4.global.f64
forms+=,wmma.load.a.sync.aligned.row.m8n8k32.global.s4,wmma.load.a.sync.aligned.row.m8n8k128.global.b1
forms+=,wmma.load.a.sync.aligned.row.m16n16k8.global.tf32
timeout 150 $kit/gpu_throughput --judge gpu --benchmark_filter=swept --seconds 2 --threads 16 --forms $forms \
  >$work/logs/forms.log 2>&1
echo "gpu_throughput rc=$?" >>$steps
for run in 16-first 16 4 1; do
  workers=${run%-first}
  /usr/bin/time -f "e7 workers $run: wall %e s, user %U s, system %S s, peak RSS %M KB" timeout 120 $m conform \
    --devices 0 --judge gpu --variants 10000000 --workers $workers --seed 20261129 --near_miss=false \
    --out $work/e7-$run --db $work/store.sqlite --progress_seconds 0 >$work/e7-$run.out 2>>$steps
  echo "e7 workers $run rc=$?" >>$steps
  cp $work/e7-$run/summary.md $work/logs/e7-$run.md
done
tar -czf $out/where.tgz -C $work/logs .
grep -v "conform forms" $steps
