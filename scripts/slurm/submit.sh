#!/usr/bin/env bash
# submit.sh SHARDS [SBATCH_OPTION...] -- COMMAND ARGS...
#
# Submits one matload command as a Slurm job array of SHARDS tasks
# (shard.sbatch: task I runs `matload COMMAND ARGS... --shard I/SHARDS`),
# and the job that merges them (merge.sbatch), which starts only when every
# task succeeded (afterok) and is cancelled when one failed
# (--kill-on-invalid-dep=yes: without it the merge would wait forever).
# SBATCH_OPTIONs go to both jobs (--partition, --time, --account...).
# Prints the two job IDs, "ARRAY_JOB_ID MERGE_JOB_ID". docs/slurm.md has
# the rest; for example, a nightly support sweep on 8 nodes:
#
#   scripts/slurm/submit.sh 8 --gres=none -- support --target all
set -euo pipefail

usage="usage: $0 SHARDS [SBATCH_OPTION...] -- COMMAND ARGS..."
if (($# < 3)) || ! [[ $1 =~ ^[1-9][0-9]*$ ]]; then
  echo "$usage" >&2
  exit 2
fi
shards=$1
shift
options=()
while (($# > 0)) && [[ $1 != -- ]]; do
  options+=("$1")
  shift
done
if (($# < 2)); then
  echo "$usage" >&2
  exit 2
fi
shift
command=$1
here=$(dirname "$(realpath "${BASH_SOURCE[0]}")")

array_job=$(sbatch --parsable "${options[@]}" --array="0-$((shards - 1))" "$here/shard.sbatch" "$@")
array_job=${array_job%%;*}  # --parsable prints "ID" or "ID;CLUSTER"
merge_job=$(sbatch --parsable "${options[@]}" --dependency="afterok:$array_job" --kill-on-invalid-dep=yes \
  "$here/merge.sbatch" "$array_job" "$command")
echo "$array_job ${merge_job%%;*}"
