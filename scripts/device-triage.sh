#!/usr/bin/env bash
# matload triage on a lent GPU, in one device call (reports/triage/ has the
# results). Run from the repository root there with the stripped matload,
# its libraries, cuobjdump, an xz'd nvdisasm and xz'd older ptxas releases carried
# in .devcarry-triage. It makes real findings to triage by running conform
# with an empty discrepancy registry, so that the .shared wmma.load faults
# the registry explains (shared-wmma-load-ab-needs-16-byte-rows) are filed as
# unexplained, with bundles; and a self-test's planted bug. Every log and
# report goes into $OUT/results.tar.gz. Arguments name the steps to run
# (default: all), each with its time limit in seconds:
#   scripts/device-triage.sh triage-fault:300
set -uo pipefail
D=$PWD/.devcarry-triage
export LD_LIBRARY_PATH=$D/lib MATLOAD_SOURCE_DIR=$PWD
T=/tmp/tools && rm -rf $T /tmp/r && mkdir -p $T /tmp/r
for xz in $D/ptxas-*.xz; do
  release=$(basename "$xz" .xz) && mkdir -p $T/${release#ptxas-} && xz -dc "$xz" >$T/${release#ptxas-}/ptxas
done
xz -dc $D/nvdisasm.xz >$T/nvdisasm && cp $D/cuobjdump $T/ && chmod +x $T/*/ptxas $T/nvdisasm $T/cuobjdump
# The toolkit is the device's own CUDA; the releases to bisect over are it
# and the carried ones (the device call carries at most 64 MiB in all).
export MATLOAD_PTXAS=/usr/local/cuda/bin/ptxas MATLOAD_CUOBJDUMP=$T/cuobjdump
releases=$(ls -d $T/*/ptxas $MATLOAD_PTXAS | paste -sd,)
# A registry that explains nothing.
N=/tmp/noregistry && mkdir -p $N/corpora && echo '{"about": "empty, for the triage experiment", "discrepancies": []}' >$N/corpora/known_discrepancies.json
M=$D/matload
R=/tmp/r
chosen=" $* "
source "$(dirname "${BASH_SOURCE[0]}")/device-steps.sh"
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; $M --version; $MATLOAD_PTXAS --version;
  ls -la /usr/local/cuda/bin/ptxas /usr/local/cuda/lib64/libnvJitLink.so* /usr/local/cuda/include/cuda.h; } >$R/host.txt 2>&1
# Findings: the .shared wmma.load A forms that fault, judged without the registry.
step conform 120 $M conform --registry $N/corpora/known_discrepancies.json --forms '^wmma\.load\.a\.sync\.aligned\.row\.m16n16k16\.shared\.s8' \
  --variants 64 --near_miss=false --seed 20261127 --out $R/conform --db $R/night.sqlite
bundle=$(dirname "$(find $R/conform/bundles -name case.json | sort | head -1)")
step triage-fault 300 $M triage "$bundle" --repeats 3 --ptxas "$releases" --db $R/night.sqlite --out $R/triage-fault
# The bundle's own reproducer and the triage's reduced one, each built with
# the device's cuda.h and run: each prints PASS or FAIL.
for repro in original reduced; do
  step repro-$repro 60 bash -c "cd '$R/triage-fault/$repro' && g++ -std=c++17 -I/usr/local/cuda/include repro.cpp -o repro -L/usr/lib/x86_64-linux-gnu -lcuda && ./repro"
done
# The planted bugs: the self-test's bundles hold kernels matload did not build for their forms.
step selftest 150 $M selftest --out $R/selftest
for planted in $(find $R/selftest -name case.json | sort | xargs -r -n1 dirname); do
  name=planted-$(basename "$(dirname "$(dirname "$planted")")")-$(basename "$planted")  # planted-BUG-BUNDLE
  step triage-$name 120 $M triage "$planted" --repeats 3 --ptxas none --out $R/triage-$name
done
cat $R/steps.txt
