#!/usr/bin/env bash
# Installs the Debian packages matload builds with, and only those missing.
# Every README command calls this first, so a fresh machine needs nothing else.
# The CUDA toolkit (ptxas, cuda.h, libnvJitLink) is not a Debian package here:
# it is expected at /usr/local/cuda, or wherever CUDA_HOME points.
set -euo pipefail

packages=(
  clang-14            # the compiler (libFuzzer needs clang)
  libclang-rt-14-dev  # libFuzzer and sanitizer runtimes
  clang-format-14     # scripts/check-format.sh: the lines a change touches follow .clang-format
  lld-14              # the linker (CMakePresets.json): faster than GNU ld (docs/build-time.md)
  cmake
  ninja-build
  libabsl-dev         # status, strings, flags, containers, random
  libgtest-dev        # GoogleTest and GoogleMock
  libbenchmark-dev    # Google Benchmark
  nlohmann-json3-dev  # JSON output
  libsqlite3-dev      # the results store (harness/runs/results_store.h)
  libre2-dev          # RE2: the --forms regex in linear time (harness/runs/forms_regex.h)
  libssl-dev          # SHA-256 (libcrypto), which names what the verdict cache keeps
  libxml2-utils       # xmllint: exports_test checks the JUnit XML is well formed
  slurm-wlm           # slurmctld, slurmd, sbatch: scripts/slurm/cluster-test.sh runs a real one-node cluster
  libkainjow-mustache-dev  # Mustache templates for the HTML reports (harness/report/)
  chromium            # headless browser: the HTML report tests load every report kind
  help2man            # the manual page, made from matload's help (cmake/man_page.cmake)
  dpkg-dev            # dpkg-shlibdeps: the .deb's dependencies on the libraries matload links (cmake/packaging.cmake)
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done

if ((${#missing[@]} > 0)); then
  echo "install-deps: installing ${missing[*]}"
  sudo_cmd=()
  if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
  "${sudo_cmd[@]}" apt-get update -qq
  # Another apt may hold the lock for a while (unattended upgrades): wait for it.
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends \
    -o DPkg::Lock::Timeout=600 "${missing[@]}"
fi

cuda_home=${CUDA_HOME:-/usr/local/cuda}
if [[ ! -x "$cuda_home/bin/ptxas" ]]; then
  echo "install-deps: no ptxas at $cuda_home/bin/ptxas; set CUDA_HOME to a CUDA toolkit" >&2
  exit 1
fi

# The newest ptxas that scripts/fetch-cuda-tools.sh knows: the tests judge
# the spec's examples of later PTX ISA versions with it, and fail when it
# speaks a version matload's tables lack.
if ! "$(dirname "${BASH_SOURCE[0]}")/fetch-cuda-tools.sh" --offline ptxas@newest >/dev/null 2>&1; then
  echo "install-deps: fetching the newest ptxas from PyPI"
  "$(dirname "${BASH_SOURCE[0]}")/fetch-cuda-tools.sh" ptxas@newest >/dev/null
fi

# cuobjdump (and the nvdisasm it runs) give the support report its SASS
# column. Some toolkit installs lack them; fetch NVIDIA's wheels then.
if [[ ! -x "$cuda_home/bin/cuobjdump" || ! -x "$cuda_home/bin/nvdisasm" ]]; then
  tools_version=13.5.37
  cache=${MATLOAD_CACHE:-$HOME/.cache/matload}
  if [[ ! -x "$cache/cuda-$tools_version/cuobjdump" || ! -x "$cache/cuda-$tools_version/nvdisasm" ]]; then
    echo "install-deps: $cuda_home has no cuobjdump/nvdisasm; fetching them ($tools_version) from PyPI"
    "$(dirname "${BASH_SOURCE[0]}")/fetch-cuda-tools.sh" "cuobjdump@$tools_version" "nvdisasm@$tools_version" >/dev/null
  fi
fi
