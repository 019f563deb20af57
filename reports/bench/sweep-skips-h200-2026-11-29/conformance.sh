#!/usr/bin/env bash
# ConformanceDeviceTest on a lent H200, from build/kit, after planted bugs
# other than the transposed expectation began to run through sweeps: every
# legal form on both compile paths, undefined cases, every planted bug
# detected and bundled, and each bundle's reproducer. Usage: conformance.sh OUT_DIR.
set -u
out=$1
kit=build/kit
export LD_LIBRARY_PATH=$PWD/$kit/lib MATLOAD_SOURCE_DIR=$PWD
timeout 500 $kit/conformance_device_test >$out/conformance_device_test.log 2>&1
echo "conformance_device_test rc=$?"
grep -E "^\[ +(OK|FAILED|SKIPPED) +\]" $out/conformance_device_test.log
