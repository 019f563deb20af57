#!/usr/bin/env bash
# On a GPU host: the nightly workflow of the README ("The nightly run") for
# real, each step checked for the exit status it must end with. Run from
# the repository root after scripts/pack-for-device.sh built build/device:
#   scripts/device-nightly-check.sh OUT_DIR
# Two runs of one seed, then their diff (no change); a baseline; a run with
# a planted bug held against it and diffed (regressions, exit 1) and
# exported as JUnit; a run killed with SIGKILL and resumed, diffed with the
# first (no change). The transcript, the store and the files land in
# OUT_DIR; the last line of OUT_DIR/checks.txt says how many checks passed.
set -uo pipefail
out=${1:?usage: device-nightly-check.sh OUT_DIR}
mkdir -p "$out"
export MATLOAD_SOURCE_DIR=$PWD LD_LIBRARY_PATH=$PWD/build/device/lib MATLOAD_DB=$out/nightly.sqlite
matload=build/device/matload
conform=(conform --paths driver-jit,ptxas-cubin --seed 20261124)
passed=0 failed=0
# step EXPECTED_EXIT ARGS...: runs matload ARGS, its output in the transcript, and checks its exit status.
step() {
  local expected=$1 status line
  shift
  echo "\$ matload $*" >>"$out/transcript.txt"
  "$matload" "$@" >>"$out/transcript.txt" 2>&1
  status=$?
  echo "exit $status" >>"$out/transcript.txt"
  if [[ $status == "$expected" ]]; then passed=$((passed + 1)); line="ok   exit $status: matload $*"; else
    failed=$((failed + 1)); line="FAIL exit $status, expected $expected: matload $*"; fi
  echo "$line" | tee -a "$out/checks.txt"
}

$matload devices | tee "$out/checks.txt"
step 0 "${conform[@]}" --out "$out/night-1"
step 0 "${conform[@]}" --out "$out/night-2"
step 0 diff conform@latest~1 conform@latest
step 0 baseline conform@latest --out "$out/baseline.csv"
step 1 "${conform[@]}" --plant wrong-lane --baseline "$out/baseline.csv" --out "$out/planted"
step 1 diff conform@latest~1 conform@latest
step 0 export conform@latest --junit "$out/planted-junit.xml" --csv "$out/planted.csv"
echo "junit: $(grep -c '<testcase' "$out/planted-junit.xml") testcases, $(grep -c '<failure' "$out/planted-junit.xml") failures" \
  | tee -a "$out/checks.txt"

# SIGKILL in the middle of a run, then resume: the same results as night 1.
"$matload" "${conform[@]}" --out "$out/killed" >"$out/killed.log" 2>&1 &
pid=$!
sleep 25
kill -KILL "$pid"
wait "$pid"
echo "killed matload after 25 s (exit $?)" | tee -a "$out/checks.txt"
pkill -KILL -f "build/device/matload conform" || true  # its workers die with it (PR_SET_PDEATHSIG); make sure
# What the killed run had stored: the cases judged final before the kill.
"$matload" runs | grep killed | tee -a "$out/checks.txt"
killed=$(sed -n 's/^run \([^ ]*\) in .*/\1/p' "$out/killed.log" | head -n 1)
step 0 "${conform[@]}" --resume "$killed"
step 0 diff "$(sed -n 's/^run \([^ ]*\) in .*/\1/p' "$out/transcript.txt" | head -n 1)" "$killed"
step 0 runs
echo "$passed passed, $failed failed" | tee -a "$out/checks.txt"
[[ $failed == 0 ]]
