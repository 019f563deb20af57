#!/usr/bin/env bash
# Builds matload and runs every test (ctest, 4 jobs). The tests need ptxas
# from the CUDA toolkit and no GPU.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/build.sh"
cd "$root"
# The C++ lines this change touched follow .clang-format (check-format.sh
# says against what: the merge base with origin/main, else with main, else
# HEAD~).
scripts/check-format.sh
# Each checkout's tests keep their files in its own build tree, so that two
# checkouts testing at once never share a path under /tmp.
export TEST_TMPDIR="$root/build/default/test-tmp"
rm -rf "$TEST_TMPDIR" && mkdir -p "$TEST_TMPDIR"
# ctest also builds the libFuzzer builds of the CPU fuzz targets (ASan and
# UBSan; the test libfuzzer_builds) and the packages (package_test: the .deb
# and the .tar.gz a fleet installs, unpacked into a scratch root, and the
# installed matload's --version and built-in registry checked from a
# directory with no source tree).
ctest --preset default
# ctest shows a skipped test as "Skipped"; say why, from the tests' own output.
awk '/: Skipped$/ { getline; print "skipped: " $0 }' build/default/Testing/Temporary/LastTest.log | sort -u

# A smoke campaign keeps the fuzz targets alive: 10 seconds each, fixed
# seed, through `matload fuzz`, which fails on any crash or finding.
smoke=$(mktemp -d)
MATLOAD_DB="$smoke/results.sqlite" MATLOAD_SOURCE_DIR="$root" build/default/matload fuzz --targets text,legality,reference,cli --seconds 10 --seed 1 \
  --fuzzers build/fuzz/fuzz --out "$smoke/run"
rm -rf "$smoke"
