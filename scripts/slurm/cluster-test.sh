#!/usr/bin/env bash
# cluster-test.sh MATLOAD FAKE_CUDA_DIR: a real Slurm cluster (slurmctld and
# slurmd from Debian's slurm-wlm) on this machine runs two sharded matload
# commands as job arrays with submit.sh, each with the merge job after it,
# and each merged run must equal the same command run unsharded:
#  - `matload support`: `matload diff` unchanged, the same case count, the
#    same exit status (1: the sweep has findings), and the same reports but
#    for how they were made;
#  - `matload conform` on the fake GPU (FAKE_CUDA_DIR holds the fake
#    libcuda.so.1, harness/testing/fake_libcuda.cc), where each shard's
#    first start is stopped, one by the time limit's warning (SIGUSR1 to
#    the batch shell, as --signal=B:USR1@180 sends it), the other by SIGTERM
#    to matload alone: each task requeues itself and its second start
#    resumes the shard's run, the merge still runs, and its results equal
#    the unsharded run's (`matload diff` unchanged, results.tsv the same). Its shards ask for a GPU type and a
#    node feature (--gpu-type, --constraint) and get a CPU a conform worker.
# ctest runs it (harness/cli/CMakeLists.txt); it exits 77, which ctest shows
# as Skipped, only where slurm-wlm is not installed.
#
# The cluster is private and leaves nothing behind: one node on 127.0.0.1,
# its configuration, state, logs and fake GPUs in one temporary directory
# named by SLURM_CONF, nothing in /etc, no systemd, no root needed. What it
# takes to make Slurm 22.05 run so, as measured on a 2-core Debian 12
# machine (about 1.2 s from start to accepting jobs):
#  - The controller must be called localhost or the short host name:
#    SlurmctldHost=localhost(127.0.0.1); the node gets a name of its own,
#    NodeAddr=127.0.0.1, and slurmd is started with -N that name, so the
#    host's name does not matter.
#  - Ports are chosen free (20000-31999), so that a system Slurm or another
#    test's cluster does not clash; the bring-up is tried again once with
#    new ports, in case one was taken meanwhile.
#  - No munge: AuthType=auth/none and CredType=cred/none (22.05 still has
#    them; for tests only). No cgroups: proctrack/linuxproc, task/none, and
#    no accounting (so no sacct: job states are read with scontrol, which
#    keeps them MinJobAge seconds after they end).
#  - Fake GPUs: GresTypes=gpu, Gres=gpu:N on the node, and a gres.conf
#    (AutoDetect=off) whose File= entries are symlinks to /dev/null. A count
#    without files makes the node INVALID; regular files give jobs no
#    CUDA_VISIBLE_DEVICES. The GPUs have a type, "fake", and the node a
#    feature, "fakegpu", for submit.sh's --gpu-type and --constraint.
#    SlurmdParameters=config_overrides lets the node declare more CPUs than
#    the machine has, so every shard runs at once.
#  - SchedulerParameters=batch_sched_delay=0: otherwise each wave of array
#    tasks waits about 3 s. DependencyParameters=kill_invalid_depend (and
#    --kill-on-invalid-dep=yes in submit.sh, for real clusters): otherwise a
#    failed shard leaves the afterok merge job pending for ever.
#  - `sbatch --wait` noticed the end of a job up to 28 s late: the test
#    polls `scontrol show job` instead. Client commands retry a dead
#    controller for about 9 s, so each runs under `timeout`.
#  - sbatch exports the submitter's environment: stray SLURM_* variables
#    are cleared first.
#  - Teardown runs from a trap and never through a pipe (a SIGPIPE once
#    killed one halfway): jobs are cancelled first (a job's slurmstepd
#    outlives the daemons and ignores SIGTERM; KillWait=2), then each
#    daemon is stopped by the pid this script started it with, then any
#    process left whose environment names this cluster's SLURM_CONF is
#    killed by pid. An exited child may linger as a zombie, which kill -0
#    still finds: /proc/PID/stat tells.
set -euo pipefail

if (($# != 2)); then
  echo "usage: $0 MATLOAD_BINARY FAKE_CUDA_DIR" >&2
  exit 2
fi
matload=$(realpath "$1")
fake_cuda=$(realpath "$2")
scripts=$(dirname "$(realpath "${BASH_SOURCE[0]}")")
# matload finds the discrepancy registry in its source tree (ctest says where).
export MATLOAD_SOURCE_DIR=${MATLOAD_SOURCE_DIR:-$(realpath "$scripts/../..")}
export PATH="$PATH:/usr/sbin:/sbin"
for program in slurmctld slurmd sbatch scontrol scancel; do
  if ! command -v "$program" >/dev/null; then
    # As GoogleTest says it, so that scripts/test.sh lists why.
    echo "$0: Skipped"
    echo "no $program: slurm-wlm is not installed (scripts/install-deps.sh installs it)"
    exit 77
  fi
done
for variable in $(compgen -e); do
  if [[ $variable == SLURM_* ]]; then unset "$variable"; fi
done

cluster=$(mktemp -d "${TMPDIR:-/tmp}/matload-slurm.XXXXXX")
chmod 755 "$cluster"
export SLURM_CONF="$cluster/slurm.conf"
daemons=()  # the pids of the daemons this script started

# Alive says whether process $1 exists and has not exited (a zombie has).
alive() {
  local state
  state=$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null) || return 1
  [[ $state != Z && $state != X ]]
}

# stop_pid stops process $1: SIGTERM, up to 5 s, then SIGKILL.
stop_pid() {
  kill -TERM "$1" 2>/dev/null || return 0
  for _ in $(seq 50); do
    alive "$1" || return 0
    sleep 0.1
  done
  kill -KILL "$1" 2>/dev/null || true
}

# teardown cancels the jobs, stops the daemons by pid, kills whatever still
# runs with this cluster's SLURM_CONF, and removes the cluster's directory
# (keeping it, with its logs named, when the test failed).
teardown() {
  local status=$?
  if ((${#daemons[@]} > 0)) && alive "${daemons[0]}"; then
    timeout 10 scancel --quiet --user="$(id -un)" >/dev/null 2>&1 || true
    for _ in $(seq 50); do
      [[ -z $(timeout 5 squeue --noheader 2>/dev/null) ]] && break
      sleep 0.1
    done
  fi
  local pid
  for pid in "${daemons[@]}"; do stop_pid "$pid"; done
  for environ in /proc/[0-9]*/environ; do
    pid=${environ#/proc/}
    pid=${pid%/environ}
    if [[ $pid != "$$" ]] && { tr '\0' '\n' <"$environ"; } 2>/dev/null | grep -qxF "SLURM_CONF=$SLURM_CONF"; then
      echo "cluster-test: killing leftover process $pid" >&2
      kill -KILL "$pid" 2>/dev/null || true
    fi
  done
  if ((status == 0)); then
    rm -rf "$cluster"
  else
    echo "cluster-test: failed; the cluster's logs are in $cluster" >&2
  fi
  exit "$status"
}
trap teardown EXIT

# free_port prints a port in 20000-31999 that nothing listens on.
free_port() {
  local port
  while :; do
    port=$((20000 + RANDOM % 12000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return
    fi
  done
}

# write_config writes slurm.conf and gres.conf for one node of 16 CPUs and
# 8 fake GPUs, with the controller and the node on ports $1 and $2.
write_config() {
  local user
  user=$(id -un)
  mkdir -p "$cluster/state" "$cluster/spool" "$cluster/dev"
  for gpu in $(seq 0 7); do ln -sf /dev/null "$cluster/dev/gpu$gpu"; done
  cat >"$SLURM_CONF" <<CONF
ClusterName=matload-test
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$1
SlurmdPort=$2
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/none
CredType=cred/none
StateSaveLocation=$cluster/state
SlurmdSpoolDir=$cluster/spool
SlurmctldPidFile=$cluster/slurmctld.pid
SlurmdPidFile=$cluster/slurmd.pid
SlurmctldLogFile=$cluster/slurmctld.log
SlurmdLogFile=$cluster/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerParameters=batch_sched_delay=0
DependencyParameters=kill_invalid_depend
SlurmdParameters=config_overrides
ReturnToService=2
KillWait=2
GresTypes=gpu
NodeName=matload-node NodeAddr=127.0.0.1 Sockets=1 CoresPerSocket=16 ThreadsPerCore=1 RealMemory=1024 Gres=gpu:fake:8 Feature=fakegpu State=UNKNOWN
PartitionName=test Nodes=matload-node Default=YES MaxTime=INFINITE State=UP
CONF
  cat >"$cluster/gres.conf" <<CONF
AutoDetect=off
NodeName=matload-node Name=gpu Type=fake File=$cluster/dev/gpu[0-7]
CONF
}

# start_cluster starts slurmctld and slurmd on free ports and waits until
# the node is idle; it fails after 20 s.
start_cluster() {
  local controller node
  controller=$(free_port)
  node=$(free_port)
  while ((node == controller)); do node=$(free_port); done
  write_config "$controller" "$node"
  slurmctld -D -i >"$cluster/slurmctld.out" 2>&1 &
  daemons+=($!)
  slurmd -D -N matload-node >"$cluster/slurmd.out" 2>&1 &
  daemons+=($!)
  for _ in $(seq 200); do
    if [[ $(timeout 5 sinfo --noheader --nodes=matload-node --format=%T 2>/dev/null) == idle ]]; then return 0; fi
    alive "${daemons[0]}" && alive "${daemons[1]}" || return 1
    sleep 0.1
  done
  return 1
}

# stop_cluster stops the daemons started so far, to try again.
stop_cluster() {
  for pid in "${daemons[@]}"; do stop_pid "$pid"; done
  daemons=()
  rm -rf "$cluster/state" "$cluster/spool"
}

# elapsed prints the seconds since the cluster was started, to 0.1 s.
started=$(date +%s%N)
elapsed() {
  local tenths=$((($(date +%s%N) - started) / 100000000))
  echo "$((tenths / 10)).$((tenths % 10))"
}

if ! start_cluster; then
  echo "cluster-test: the cluster did not come up; trying again on other ports" >&2
  stop_cluster
  start_cluster || { cat "$cluster"/*.log "$cluster"/*.out >&2; exit 1; }
fi
echo "cluster up in $(elapsed) s"

# job_state prints the state of job $1, every task of an array one line.
job_state() {
  { timeout 10 scontrol show job "$1" --oneliner || true; } | { grep -o 'JobState=[A-Z_]*' || true; } | cut -d= -f2
}

# start_requeued lets the tasks of job $1 that were requeued start again
# soon: Slurm holds a requeued job back for 2 minutes (its BeginTime, and
# then the next scheduling pass), which a real cluster can afford and this
# test need not wait for. A task is let go only 2 s after it was first seen
# pending: started at once, it can reach the node before the node has
# revoked the credential of its previous start, and Slurm then kills it
# ("Job credential revoked"), which a loaded machine showed.
declare -A pending_since
start_requeued() {
  local task now
  now=$(date +%s%N)
  for task in $({ timeout 10 scontrol show job "$1" --oneliner || true; } |
    { grep 'JobState=PENDING.* Restarts=[1-9]' || true; } | cut -d' ' -f1 | cut -d= -f2); do
    pending_since[$task]=${pending_since[$task]:-$now}
    ((now - pending_since[$task] >= 2000000000)) || continue
    timeout 10 scontrol update JobId="$task" StartTime=now >/dev/null 2>&1 || true
    unset "pending_since[$task]"
  done
}

# wait_for_job waits up to $2 seconds for every task of job $1 to end, and
# prints their end states.
wait_for_job() {
  local states
  for _ in $(seq $(($2 * 10))); do
    start_requeued "$1"
    states=$(job_state "$1")
    if ! grep -qE 'PENDING|RUNNING|CONFIGURING|COMPLETING|SUSPENDED|REQUEUED' <<<"$states"; then
      echo "$states"
      return 0
    fi
    sleep 0.1
  done
  echo "cluster-test: job $1 still not done after $2 s: $states" >&2
  return 1
}

work="$cluster/work"
mkdir -p "$work"
cd "$work"
export MATLOAD="$matload" MATLOAD_DB="$work/results.sqlite"
# Tonight's ptxas is broken: it rejects every ldmatrix form, so the sweep has
# findings, as a nightly run often does (harness/testing/fake_ptxas.sh, the
# fault the nightly tests inject too). Findings are not failed tasks: the
# merge runs, and ends with them.
export MATLOAD_FAKE_PTXAS=reject-ldmatrix
sweep=(support --target sm_80,sm_90,sm_100a --include '*.ldmatrix.*.x1.*'
  --ptxas "$MATLOAD_SOURCE_DIR/harness/testing/fake_ptxas.sh")

submitted=$("$scripts/submit.sh" 3 --time=10 -- "${sweep[@]}")
read -r array_job merge_job <<<"$submitted"
echo "submitted array job $array_job and merge job $merge_job"

# A conform run on the fake GPU, whose every case mismatches (its kernels
# store nothing), so the run has findings. Two shards, three of the six
# cases each (conform cannot merge a shard that took no case yet: it records
# no totals), and each task's first start is stopped:
#  - task 0 by the time limit's warning, which this test sends when its
#    matload has started (scancel --batch --signal=USR1: to the batch shell
#    alone, as --signal=B:USR1@180 does); its first start's JIT is slow
#    (slow-jit) so that the warning comes while matload runs;
#  - task 1 by SIGTERM at its launch 2, to matload alone, as a signal to
#    matload or Slurm's time limit would. Task 1 is the one whose job ID is
#    the array's, which names every task to scontrol, and its first start
#    waits until task 0 has completed: a task that requeued
#    $SLURM_JOB_ID would requeue task 0 too, which then starts a third time.
# matload runs through a wrapper that sets the fake GPU up for each task:
# its launches are counted in a directory of the task's own
# (MATLOAD_FAKE_CUDA_STATE), so the second start's come later and are not
# signalled. The jobs get the wrapper's name from sbatch's environment.
conform=(conform --forms '^ldmatrix\.sync\.aligned\.m8n8\.x[124]\.(shared\.)?b16$' --variants 8
  --near_miss=false --workers 2)
cat >"$work/fake-gpu-matload" <<WRAPPER
#!/usr/bin/env bash
export LD_LIBRARY_PATH="$fake_cuda" MATLOAD_FAKE_CUDA=normal
export MATLOAD_FAKE_CUDA_STATE="$work/gpu-shard-\$SLURM_ARRAY_TASK_ID"
mkdir -p "\$MATLOAD_FAKE_CUDA_STATE"
if [[ \$SLURM_ARRAY_TASK_ID == 0 && \${SLURM_RESTART_COUNT:-0} == 0 ]]; then MATLOAD_FAKE_CUDA=slow-jit:1000; fi
if [[ \$SLURM_ARRAY_TASK_ID == 1 ]]; then MATLOAD_FAKE_CUDA=signal-at-launch:2:15; fi
if [[ \$SLURM_ARRAY_TASK_ID == 1 && \${SLURM_RESTART_COUNT:-0} == 0 && \$1 == conform ]]; then
  for _ in \$(seq 600); do
    scontrol show job "\${SLURM_ARRAY_JOB_ID}_0" --oneliner | grep -q JobState=COMPLETED && break
    sleep 0.1
  done
fi
exec "$matload" "\$@"
WRAPPER
chmod +x "$work/fake-gpu-matload"
mkdir -p "$work/gpu-whole"
submitted=$(MATLOAD="$work/fake-gpu-matload" \
  "$scripts/submit.sh" 2 --time=10 --gpu-type fake --constraint fakegpu -- "${conform[@]}")
read -r conform_array conform_merge <<<"$submitted"
echo "submitted conform array job $conform_array and merge job $conform_merge"
# The time limit's warning to task 0, once its matload has started its run.
for _ in $(seq 600); do
  if "$matload" runs --db "$work/shards-$conform_array/shard-0.sqlite" 2>/dev/null | grep -q ' running '; then
    timeout 10 scancel --batch --signal=USR1 "${conform_array}_0" && echo "warned task 0"
    break
  fi
  sleep 0.1
done

# The unsharded runs, while the shards run.
whole_status=0
"$matload" "${sweep[@]}" --out "$work/whole" >"$work/whole.log" || whole_status=$?
conform_whole_status=0
LD_LIBRARY_PATH="$fake_cuda" MATLOAD_FAKE_CUDA=normal MATLOAD_FAKE_CUDA_STATE="$work/gpu-whole" \
  "$matload" "${conform[@]}" --out "$work/conform-whole" >"$work/conform-whole.log" 2>&1 || conform_whole_status=$?
array_states=$(wait_for_job "$array_job" 240)
merge_states=$(wait_for_job "$merge_job" 120)
conform_array_states=$(wait_for_job "$conform_array" 240)
conform_merge_states=$(wait_for_job "$conform_merge" 120)
echo "jobs done $(elapsed) s after the cluster started"
for log in "$work"/slurm-*.out; do
  echo "== $log"
  cat "$log"
done

failed=0
check() {  # check DESCRIPTION COMMAND...: runs COMMAND, and counts a failure
  if "${@:2}"; then echo "ok: $1"; else echo "FAILED: $1" >&2; failed=1; fi
}
check "3 array tasks completed ($(echo $array_states))" [ "$(grep -c COMPLETED <<<"$array_states")" = 3 ]
merge_exit=$({ timeout 10 scontrol show job "$merge_job" --oneliner || true; } | grep -o ' ExitCode=[0-9]*' || true)
check "the unsharded run has findings (exit $whole_status)" [ "$whole_status" = 1 ]
check "the merge job ran and exited 1 with the findings ($merge_states,$merge_exit)" \
  [ "$merge_states$merge_exit" = "FAILED ExitCode=1" ]
check "each shard had a GPU of its own" \
  [ "$(grep -ho 'CUDA_VISIBLE_DEVICES=[0-9]' "$work"/slurm-"$array_job"_*.out | wc -l)" = 3 ]
whole=$(grep -om1 'support-[0-9TZ]*-[0-9a-f]*' "$work/whole.log" || true)
merged=$({ grep -ho 'run support-[0-9TZ]*-[0-9a-f]*' "$work/slurm-$merge_job.out" 2>/dev/null || true; } | cut -d' ' -f2)
"$matload" diff "$whole" "$merged" >"$work/diff.txt" || true
cat "$work/diff.txt"
whole_cases=$("$matload" runs | awk -v id="$whole" '$1 == id { print $3 }')
merged_cases=$("$matload" runs | awk -v id="$merged" '$1 == id { print $3 }')
check "the unsharded run has cases" [ "${whole_cases:-0}" -gt 0 ]
check "the merged run has the same case count ($merged_cases)" [ "$merged_cases" = "$whole_cases" ]
check "matload diff finds every case unchanged" \
  grep -q "new failures: 0, fixed: 0, flaky: 0, changed: 0, added: 0, removed: 0, unchanged: $whole_cases" \
  "$work/diff.txt"
merged_dir="$work/shards-$array_job/merged"
# how_made matches the report lines that say how, when and where it was made.
how_made='Made by|Machine|^ "(command|date|machine|seconds)":'
for report in support.md support.json support.html; do
  check "$report is the same but for how it was made" \
    diff <(grep -vE "$how_made" "$work/whole/$report") <(grep -vE "$how_made" "$merged_dir/$report")
done
check "the reproducers are the same" diff -r "$work/whole/reproducers" "$merged_dir/reproducers"

# The conform run whose every shard was stopped, requeued and resumed.
echo "== conform"
check "2 conform tasks completed ($(echo $conform_array_states))" \
  [ "$(grep -c COMPLETED <<<"$conform_array_states")" = 2 ]
# job_field FIELD prints FIELD of every conform task, sorted and counted.
job_field() {
  { timeout 10 scontrol show job "$conform_array" --oneliner || true; } | grep -o " $1=[^ ]*" | sort | uniq -c | xargs
}
check "each conform shard asked for a fake GPU ($(job_field TresPerNode))" \
  [ "$(job_field TresPerNode)" = "2 TresPerNode=gres:gpu:fake:1" ]
check "each conform shard asked for the node feature ($(job_field Features))" \
  [ "$(job_field Features)" = "2 Features=fakegpu" ]
check "each conform shard had a CPU a worker ($(job_field NumCPUs))" [ "$(job_field NumCPUs)" = "2 NumCPUs=2" ]
check "each conform task started twice ($(job_field Restarts))" [ "$(job_field Restarts)" = "2 Restarts=1" ]
for task in 0 1; do
  log="$work/slurm-${conform_array}_$task.out"
  if ((task == 0)); then warned=1; else warned=0; fi
  check "task $task requeued itself once" [ "$(grep -c 'requeueing shard' "$log")" = 1 ]
  check "task $task was stopped by SIGTERM (warned: $warned)" \
    grep -q "matload stopped by signal 15 (warned: $warned)" "$log"
  check "task $task started twice, no more" [ "$(grep -o 'start [0-9]*,' "$log" | xargs)" = "start 1, start 2," ]
  check "task $task's second start resumed the shard's interrupted run" \
    grep -qE '^resuming run conform-[0-9TZ]+-[0-9a-f]+ \(interrupted\)' "$log"
  check "task $task's store holds that one run, finished" \
    [ "$("$matload" runs --db "$work/shards-$conform_array/shard-$task.sqlite" | awk '{ print $2 }' | xargs)" = findings ]
done
conform_merge_exit=$({ timeout 10 scontrol show job "$conform_merge" --oneliner || true; } | grep -o ' ExitCode=[0-9]*' || true)
check "the unsharded conform run has findings (exit $conform_whole_status)" [ "$conform_whole_status" = 1 ]
check "the conform merge job ran and exited 1 with the findings ($conform_merge_states,$conform_merge_exit)" \
  [ "$conform_merge_states$conform_merge_exit" = "FAILED ExitCode=1" ]
conform_whole=$(grep -om1 'conform-[0-9TZ]*-[0-9a-f]*' "$work/conform-whole.log" || true)
conform_merged=$({ grep -ho 'run conform-[0-9TZ]*-[0-9a-f]*' "$work/slurm-$conform_merge.out" 2>/dev/null || true; } | cut -d' ' -f2)
conform_cases=$("$matload" runs | awk -v id="$conform_whole" '$1 == id { print $3 }')
check "the unsharded conform run has cases ($conform_cases)" [ "${conform_cases:-0}" -gt 0 ]
"$matload" diff "$conform_whole" "$conform_merged" >"$work/conform-diff.txt" || true
cat "$work/conform-diff.txt"
check "matload diff finds every conform case unchanged" \
  grep -q "new failures: 0, fixed: 0, flaky: 0, changed: 0, added: 0, removed: 0, unchanged: $conform_cases" \
  "$work/conform-diff.txt"
# results_of prints a conform run directory's results.tsv without its
# header lines (the GPU's UUIDs differ), sorted.
results_of() { grep -v '^#' "$1/results.tsv" | sort; }
check "the merged results.tsv equals the unsharded run's" \
  diff <(results_of "$work/conform-whole") <(results_of "$work/shards-$conform_array/merged")
exit "$failed"
