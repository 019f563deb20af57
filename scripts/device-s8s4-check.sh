#!/usr/bin/env bash
# The PTX 9.4 ldmatrix .m8n16 .s8.s4 forms on a lent H100 (sm_90a), in one
# device call (reports/conform/h100-s8s4-2026-11-27/ has its results). Run
# from the repository root there, with the stripped binaries, their
# libraries and an xz'd ptxas 13.5.37 carried in .devcarry (the driver's JIT
# speaks PTX 9.0 only, so the 9.4 forms run as ptxas 13.5 cubins). Every
# log and run directory goes into $OUT/results.tar.gz. Arguments name the
# steps to run (default: all), each with its time limit in seconds:
#   scripts/device-s8s4-check.sh conformance_device_test:300 conform:300
set -uo pipefail
D=.devcarry
export LD_LIBRARY_PATH=$PWD/$D/lib MATLOAD_SOURCE_DIR=$PWD
rm -rf /tmp/r && mkdir -p /tmp/p135 /tmp/r && xz -dc $D/ptxas-13.5.37.xz >/tmp/p135/ptxas && chmod +x /tmp/p135/ptxas
export MATLOAD_PTXAS=/tmp/p135/ptxas
M=$D/matload
R=/tmp/r
chosen=" $* "
source "$(dirname "${BASH_SOURCE[0]}")/device-steps.sh"
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; $M --version; /tmp/p135/ptxas --version; } >$R/host.txt 2>&1
step devices 30 $M devices
step cuda_driver_test 100 $D/cuda_driver_test
step wmma_device_test 60 $D/wmma_device_test
step conformance_device_test 100 $D/conformance_device_test
# Every .s8.s4 form, 65536 variants each (rows contiguous, scattered,
# repeated and reversed; tagged and random data), compared with the model.
step s4 60 $M conform --forms 's8\.s4' --paths ptxas-cubin --variants 65536 --seed 20261127 --out $R/s4 --db $R/s4.sqlite
# The same with the variants the model calls undefined: a row 4, 8 or 12
# bytes off the 16-byte alignment the model requires (ldmatrix.infer.s4-row-alignment).
step s4-undefined 40 $M conform --forms 's8\.s4' --paths ptxas-cubin --variants 4096 --undefined --seed 7 --out $R/s4u --db $R/s4.sqlite
# The planted bugs, on the .s8.s4 form too (through the ptxas cubins).
step selftest 120 $M selftest --out $R/selftest
# The whole H100 run: both paths, each at its compiler's PTX version.
step conform 120 $M conform --paths driver-jit,ptxas-cubin --variants 256 --seed 20261127 --out $R/conform --db $R/night.sqlite
cat $R/steps.txt
