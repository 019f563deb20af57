#!/usr/bin/env bash
# The support sweep of every target at one PTX version (default 9.0), cold
# and then warm, side by side in one run: the cold sweep starts from an
# empty results store, so it compiles every form and keeps the answers in
# the verdict cache; the warm sweep, into the same store, finds them. Both
# run with the same command line in sibling directories, so that their
# reports can be compared whole: the script checks they are identical but
# for the sweep's date and seconds (report.html, the run's own page, names
# its run ID and times, so it is left out). Prints the machine, the load average
# before and after each sweep, /usr/bin/time -v's figures and each sweep's
# summary; writes both runs' files to OUT (default a temporary directory)
# when given. A benchmark run, not a test (issue 16's goals: cold at most
# 60 s, warm at most 5 s on 2 cores).
#   scripts/bench-support-sweep.sh [PTX] [OUT]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ptx=${1:-9.0}
matload=${MATLOAD:-$root/build/default/matload}
ptxas=${MATLOAD_PTXAS:-${CUDA_HOME:-/usr/local/cuda}/bin/ptxas}
work=${2:-$(mktemp -d)}
[[ -n "${2:-}" ]] || trap 'rm -rf "$work"' EXIT
[[ ! -e "$work" || -z "$(ls -A "$work")" ]] || { echo "$work is not empty" >&2; exit 2; }
mkdir -p "$work/cold" "$work/warm"
export MATLOAD_SOURCE_DIR="$root"

echo "date: $(date -u +%FT%TZ)"
echo "commit: $(git -C "$root" rev-parse HEAD)$(git -C "$root" diff --quiet HEAD || echo ' (with local changes)')"
echo "machine: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(free -g | awk '/^Mem:/ {print $2}') GB"
echo "ptxas: $ptxas, $("$ptxas" --version | grep -oE 'V[0-9]+[.][0-9]+[.][0-9]+' | head -1), $(sha256sum "$ptxas" | cut -c1-16)"
echo "command (in each directory): matload support --ptx $ptx --db ../results.sqlite --out run --ptxas $ptxas"

# sweep NAME runs the sweep in $work/NAME and prints its figures.
sweep() {
  echo
  echo "== $1"
  echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  local status=0
  /usr/bin/time -v -o "$work/$1.time" env -C "$work/$1" "$matload" support --ptx "$ptx" --db ../results.sqlite \
    --out run --ptxas "$ptxas" >"$work/$1.out" 2>"$work/$1.err" || status=$?
  echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "exit status: $status"
  grep -E 'Elapsed|User time|System time|Percent of CPU|Maximum resident' "$work/$1.time" | sed 's/^\t*//'
  grep -E 'verdict cache|^wrote' "$work/$1.out"
  echo "compiler runs counted by the batch checker: $(grep -o '([0-9]* compiler runs' "$work/$1.out" |
    tr -dc '0-9\n' | awk '{ total += $1 } END { print total }')"
}

sweep cold
sweep warm
echo
echo "results store after both sweeps: $(du -m "$work/results.sqlite" | cut -f1) MB"

# normalised FILE is FILE without the sweep's date and seconds.
normalised() { sed -E 's/[0-9]{4}-[0-9]{2}-[0-9]{2}(, in [0-9]+ s)?/DATE/; /^ *"seconds": /d' "$1"; }
echo
echo "== reports"
same=1
while IFS= read -r file; do
  if ! cmp -s <(normalised "$work/cold/run/$file") <(normalised "$work/warm/run/$file"); then
    echo "differs: $file"
    same=0
  fi
done < <(cd "$work/cold/run" && find . -type f ! -name .matload-run ! -name report.html | sort)
[[ "$(cd "$work/cold/run" && find . -type f | sort)" == "$(cd "$work/warm/run" && find . -type f | sort)" ]] || same=0
echo "cold and warm reports identical but for date and seconds: $([[ $same == 1 ]] && echo yes || echo NO)"
[[ $same == 1 ]]
