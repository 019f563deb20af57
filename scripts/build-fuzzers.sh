#!/usr/bin/env bash
# Configures and builds the libFuzzer builds of the CPU fuzz targets (CMake
# preset "fuzz": ASan and UBSan) into build/fuzz. ctest runs it as the test
# libfuzzer_builds (fuzz/CMakeLists.txt), which the tests that start real
# fuzz campaigns wait for; scripts/test.sh's smoke campaign uses it after.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz --target text_fuzzer legality_fuzzer reference_fuzzer cli_fuzzer
