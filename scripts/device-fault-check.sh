#!/usr/bin/env bash
# On a GPU host: matload conform under the real failure conditions that can
# be made safely, each checked for the class it must end in. Run from the
# repository root after scripts/pack-for-device.sh built build/device:
#   scripts/device-fault-check.sh OUT_DIR
# Each step's log and run directory land in OUT_DIR; the last line of
# OUT_DIR/checks.txt says how many checks passed. See
# reports/faults/README.md for what each step shows.
set -uo pipefail
out=${1:?usage: device-fault-check.sh OUT_DIR}
mkdir -p "$out"
export MATLOAD_SOURCE_DIR=$PWD LD_LIBRARY_PATH=$PWD/build/device/lib MATLOAD_DB=$out/results.sqlite
matload=build/device/matload
passed=0 failed=0
check() {  # check NAME EXPECTED ACTUAL
  local line
  if [[ "$2" == "$3" ]]; then passed=$((passed + 1)); line="ok   $1: $3"; else
    failed=$((failed + 1)); line="FAIL $1: expected $2, got $3"; fi
  echo "$line" | tee -a "$out/checks.txt"
}
note() { echo "     $1" | tee -a "$out/checks.txt"; }
summary() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))$2)" "$1/summary.json"; }
# count RUN OUTCOME: the variants of RUN that ended in OUTCOME (results.tsv's third column, "outcome=n,...").
count() {
  awk -F'\t' -v o="$2" '!/^#/ { split($3, c, ","); for (i in c) { split(c[i], kv, "="); if (kv[1] == o) n += kv[2] } }
    END { print n + 0 }' "$1/results.tsv"
}

echo "== devices" | tee "$out/checks.txt"
$matload devices 2>&1 | tee -a "$out/checks.txt"

echo "== 1. the nightly run, untouched: every legal sm_90 form on two compile paths"
start=$(date +%s)
$matload conform --paths driver-jit,ptxas-cubin --seed 20261123 --out "$out/clean" >"$out/clean.log" 2>&1
check "clean run exits 0" 0 $?
note "the clean run took $(($(date +%s) - start)) s"
check "clean run infrastructure retries" 0 "$(summary "$out/clean" "['infrastructure_retries']")"

echo "== 2. the same run, one worker killed with SIGKILL mid-run"
$matload conform --paths driver-jit,ptxas-cubin --seed 20261123 --out "$out/killed" >"$out/killed.log" 2>&1 &
run=$!
victim=""
sleep 5  # well into the forms: a clean run takes about a minute
for _ in $(seq 1 200); do
  victim=$(pgrep -P "$run" | head -n 1)
  [[ -n "$victim" ]] && break
  sleep 0.1
done
echo "killing worker $victim of matload $run" | tee -a "$out/checks.txt"
kill -9 "$victim"
wait "$run"
check "run with a killed worker exits 0" 0 $?
check "its retries are reported" 1 "$(summary "$out/killed" "['infrastructure_retries'] >= 1" | sed 's/True/1/;s/False/0/')"
check "its counts equal the clean run's" "$(summary "$out/clean" "['counts']")" "$(summary "$out/killed" "['counts']")"

echo "== 3. kernels that fault: the cases the spec leaves undefined, run"
$matload conform --forms '^ldmatrix' --undefined --seed 20261123 --out "$out/undefined" >"$out/undefined.log" 2>&1
check "undefined run exits 0" 0 $?
check "undefined cases that faulted are recorded, not findings" 1 \
  "$(($(count "$out/undefined" undefined_faulted) > 0))"
check "known faults confirmed in the clean run" 1 "$(($(count "$out/clean" known_fault) > 0))"

echo "== 4. a kernel that hangs (--plant hang: variant 0's block spins)"
start=$(date +%s)
$matload conform --forms '^ldmatrix\.sync\.aligned\.m8n8\.x1\.(shared|trans\.shared)\.b16$' --plant hang \
  --workers 1 --near_miss=false --seed 20261123 --out "$out/hang" >"$out/hang.log" 2>&1
check "hang run exits 1 (a hang is a finding)" 1 $?
check "hung cases (variant 0 of each of 2 forms)" 2 "$(count "$out/hang" timeout)"
check "other cases pass" 30 "$(count "$out/hang" pass)"
check "no infrastructure retries" 0 "$(summary "$out/hang" "['infrastructure_retries']")"
check "each hang caught at the calibrated 2 s floor" 2 \
  "$(grep -c 'no result within 2000 ms while running the kernel' "$out/hang/results.tsv")"
note "the hang run took $(($(date +%s) - start)) s"

echo "== 5. SIGTERM mid-run: exit 143, what was judged kept, no worker left"
$matload conform --paths driver-jit,ptxas-cubin --seed 20261123 --out "$out/sigterm" >"$out/sigterm.log" 2>&1 &
run=$!
sleep 8
kill -TERM "$run"
wait "$run"
check "interrupted run exits 143" 143 $?
check "it says it was interrupted" 1 "$(summary "$out/sigterm" "['stopped'].startswith('interrupted by signal 15')" | sed 's/True/1/;s/False/0/')"
check "no worker outlives it" 0 "$(pgrep -f 'build/device/matload conform' | wc -l)"
echo "judged before the interrupt: $(grep -vc '^#' "$out/sigterm/results.tsv") cases" | tee -a "$out/checks.txt"
run_id=$(sed -n 's/^run \([^ ]*\) in .*/\1/p' "$out/sigterm.log" | head -n 1)
$matload conform --paths driver-jit,ptxas-cubin --seed 20261123 --resume "$run_id" >"$out/resumed.log" 2>&1
check "the interrupted run, resumed, exits 0" 0 $?
check "its counts equal the clean run's" "$(summary "$out/clean" "['counts']")" "$(summary "$out/sigterm" "['counts']")"

echo "$passed passed, $failed failed" | tee -a "$out/checks.txt"
[[ $failed == 0 ]]
