#!/usr/bin/env bash
# Builds matload and the GPU-side test binaries here (preset "device": Release),
# and the device fuzz target (preset "fuzz-device") into build/device/fuzzers, and
# copies the shared libraries they need that the GPU machine may lack (Abseil,
# GoogleTest, SQLite, OpenSSL's libcrypto, RE2) into build/device/lib, so that build/device can be carried to
# the lent GPU machine and run there with LD_LIBRARY_PATH=build/device/lib.
# libcuda is never linked: matload loads it at run time.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/install-deps.sh"
cd "$root"
cmake --preset device >/dev/null
targets=(matload gpu_throughput cuda_driver_test wmma_device_test conformance_device_test device_judge_device_test
  device_sweep_device_test)
cmake --build --preset device -j "$(nproc)" --target "${targets[@]}"
cmake --preset fuzz-device >/dev/null
cmake --build --preset fuzz-device -j "$(nproc)" --target device_fuzzer
mkdir -p "$root/build/device/fuzzers"
cp "$root/build/fuzz-device/fuzz/device_fuzzer" "$root/build/device/fuzzers/"
lib="$root/build/device/lib"
rm -rf "$lib" && mkdir -p "$lib"
# Every binary of each name, since build/device may also hold older ones
# kept for side-by-side runs (build/device/old/).
for target in "${targets[@]}" device_fuzzer; do
  find "$root/build/device" -name "$target" -type f -executable -print0 | xargs -0 -r -n 1 ldd |
    awk '/libabsl|libgtest|libgmock|libbenchmark|libsqlite3|libcrypto|libre2/ { print $3 }' | sort -u | xargs -r cp -L -t "$lib"
done
du -sh "$root/build/device"
