#!/usr/bin/env bash
# submit.sh SHARDS [OPTION...] [SBATCH_OPTION...] -- COMMAND ARGS...
#
# Submits one matload command as a Slurm job array of SHARDS tasks
# (shard.sbatch: task I runs `matload COMMAND ARGS... --shard I/SHARDS`),
# and the job that merges them (merge.sbatch), which starts only when every
# task succeeded (afterok) and is cancelled when one failed
# (--kill-on-invalid-dep=yes: without it the merge would wait forever). A
# task that is preempted or nears its time limit is requeued and resumes
# its shard (shard.sbatch), so the merge keeps waiting for it.
#
# OPTIONs, for the shards alone (the merge needs no GPU):
#   --gpu-type TYPE   each shard's GPU is of this type: --gres=gpu:TYPE:1
#                     (a type of the cluster's gres.conf, such as h100)
#   --constraint C    each shard runs on nodes with these features
#                     (sbatch --constraint: "h100|h200", "nvlink&ib"...)
# Each shard also gets --cpus-per-task for matload's own processes: conform's
# --workers (8 if not given), support's --threads (2); fuzz gets 1 a task
# unless a --cpus-per-task SBATCH_OPTION says otherwise.
# SBATCH_OPTIONs go to both jobs (--partition, --time, --account...).
# Prints the two job IDs, "ARRAY_JOB_ID MERGE_JOB_ID". docs/slurm.md has
# the rest; for example, a nightly conform run on 8 H100 nodes:
#
#   scripts/slurm/submit.sh 8 --gpu-type h100 --time=2:00:00 -- conform --workers 16
set -euo pipefail

usage="usage: $0 SHARDS [--gpu-type TYPE] [--constraint C] [SBATCH_OPTION...] -- COMMAND ARGS..."
if (($# < 3)) || ! [[ $1 =~ ^[1-9][0-9]*$ ]]; then
  echo "$usage" >&2
  exit 2
fi
shards=$1
shift
options=()        # for both jobs
shard_options=()  # for the array alone
cpus=""           # --cpus-per-task, when the submitter gave it
# needs_value checks that option $1 has a value, $2 (the next argument).
needs_value() {
  if [[ -z $2 || $2 == -* ]]; then
    echo "$0: $1 needs a value; $usage" >&2
    exit 2
  fi
}
while (($# > 0)) && [[ $1 != -- ]]; do
  case $1 in
    --gpu-type=*) shard_options+=("--gres=gpu:${1#*=}:1") ;;
    --gpu-type) needs_value "$1" "${2-}"; shard_options+=("--gres=gpu:$2:1"); shift ;;
    --constraint=*) shard_options+=("$1") ;;
    --constraint) needs_value "$1" "${2-}"; shard_options+=("--constraint=$2"); shift ;;
    --cpus-per-task=*) cpus=${1#*=} ;;
    --cpus-per-task | -c) needs_value "$1" "${2-}"; cpus=$2; shift ;;
    *) options+=("$1") ;;
  esac
  shift
done
if (($# < 2)); then
  echo "$usage" >&2
  exit 2
fi
shift
command=$1

# value_of FLAG DEFAULT prints the value of matload's --FLAG in ARGS (as
# "--FLAG N" or "--FLAG=N"; the last one counts), else DEFAULT.
value_of() {
  local value=$2 previous=""
  for argument in "${arguments[@]}"; do
    if [[ $previous == "--$1" ]]; then value=$argument; fi
    if [[ $argument == "--$1="* ]]; then value=${argument#*=}; fi
    previous=$argument
  done
  echo "$value"
}
arguments=("${@:2}")
# The CPUs a shard needs: one a conform worker process, one a support
# sweep thread (the compilers it runs are its children, one at a time a
# thread), unless the submitter said.
if [[ -z $cpus ]]; then
  case $command in
    conform) cpus=$(value_of workers 8) ;;  # harness/cli/flags.cc's defaults
    support) cpus=$(value_of threads 2) ;;
    *) cpus=1 ;;
  esac
fi
shard_options+=("--cpus-per-task=$cpus")

here=$(dirname "$(realpath "${BASH_SOURCE[0]}")")
array_job=$(sbatch --parsable "${options[@]}" "${shard_options[@]}" --array="0-$((shards - 1))" \
  "$here/shard.sbatch" "$@")
array_job=${array_job%%;*}  # --parsable prints "ID" or "ID;CLUSTER"
merge_job=$(sbatch --parsable "${options[@]}" --dependency="afterok:$array_job" --kill-on-invalid-dep=yes \
  "$here/merge.sbatch" "$array_job" "$command")
echo "$array_job ${merge_job%%;*}"
