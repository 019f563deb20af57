#!/usr/bin/env bash
# Checks that harness/ keeps to its rooms (harness/CMakeLists.txt): every
# source lies in a room's folder, a room includes only itself and the rooms
# below it in MATLOAD_ROOMS's order, and reference/ includes nothing of
# harness/ and nothing of CUDA. A family folder, families/<family>/, holds
# both halves of a family: its run-time half (<family>_runtime.cc) belongs
# to the families room, and everything else in it is reference/'s, held to
# reference/'s rule. Prints each breach and exits 1; run by ctest
# as rooms_test.
#   scripts/check-rooms.sh [SOURCE_DIR]
set -euo pipefail
root=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
cd "$root"

# The rooms, lowest first, as the one list in harness/CMakeLists.txt names them.
read -r -a rooms < <(sed -n 's/^set(MATLOAD_ROOMS \(.*\))$/\1/p' harness/CMakeLists.txt)
if ((${#rooms[@]} == 0)); then
  echo "check-rooms: no set(MATLOAD_ROOMS ...) line in harness/CMakeLists.txt" >&2
  exit 1
fi
declare -A rank
for i in "${!rooms[@]}"; do rank[${rooms[$i]}]=$i; done

breaches=0
breach() {
  echo "check-rooms: $*"
  breaches=$((breaches + 1))
}

for file in harness/*.h harness/*.cc; do
  [[ -e $file ]] && breach "$file lies flat in harness/, in no room"
done

for folder in harness/*/; do
  room=$(basename "$folder")
  [[ -v rank[$room] ]] || breach "harness/$room/ is not a room of MATLOAD_ROOMS (harness/CMakeLists.txt)"
done

# Every include of harness/ from a room's sources, as FILE ROOM INCLUDED-ROOM.
while IFS=: read -r file _ included; do
  room=$(cut -d/ -f2 <<<"$file")
  target=$(sed -n 's|.*"harness/\([^/"]*\)/.*|\1|p' <<<"$included")
  [[ -v rank[$room] ]] || continue
  if [[ -z $target || ! -v rank[$target] ]]; then
    breach "$file includes ${included#\#include } from no room"
  elif ((rank[$target] > rank[$room])); then
    breach "$file ($room/) includes ${included#\#include } from $target/, a higher room"
  fi
done < <(grep -rn --include='*.h' --include='*.cc' '^#include "harness/' harness/*/ || true)

# A family's run-time half is in the families room: it includes no room above it.
while IFS=: read -r file _ included; do
  target=$(sed -n 's|.*"harness/\([^/"]*\)/.*|\1|p' <<<"$included")
  if [[ -z $target || ! -v rank[$target] ]]; then
    breach "$file includes ${included#\#include } from no room"
  elif ((rank[$target] > rank[families])); then
    breach "$file (a run-time half, in families/) includes ${included#\#include } from $target/, a higher room"
  fi
done < <(grep -n '^#include "harness/' families/*/*_runtime.cc /dev/null || true)

while IFS= read -r line; do
  breach "reference/ must stay free of harness/ and CUDA: $line"
done < <(grep -rnE --include='*.h' --include='*.cc' '^#include ["<](harness/|cuda|nvrtc|nvJitLink|families/.*_runtime)' \
  reference $(ls -d families/*/ 2>/dev/null) | grep -v '_runtime\.cc:' || true)

if ((breaches > 0)); then
  echo "check-rooms: $breaches breach(es); the rooms and their order are in harness/CMakeLists.txt" >&2
  exit 1
fi
echo "check-rooms: ${#rooms[@]} rooms (${rooms[*]}), every include downward; reference/ and the families' static halves free of harness/ and CUDA"
