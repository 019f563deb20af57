#!/usr/bin/env bash
# The support history (`matload history`) of every toolkit that
# scripts/fetch-cuda-tools.sh all fetches, cold and then warm: the cold
# history starts from an empty results store, so every sweep compiles every
# form and keeps the answers in the verdict cache; the warm one, into the
# same store, finds them. Both write their reports in sibling directories;
# the script checks that their data (forms.tsv, disagreements.tsv,
# changes.tsv, misdiagnoses.tsv, the reproducers) are identical; history.md
# and history.json also give seconds and cache counts. Prints the machine,
# the tools, the load average before and after each history,
# /usr/bin/time -v's figures and each history's lines; writes both runs'
# files to OUT (default a temporary directory) when given. A benchmark run,
# not a test (issue 31's goals on 2 cores: cold at most 30 min, warm at most
# 60 s).
#   [MATLOAD=...] [MATLOAD_CACHE=...] scripts/bench-support-history.sh [OUT]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
matload=$(realpath "${MATLOAD:-$root/build/default/matload}")
work=${1:-$(mktemp -d)}
[[ -n "${1:-}" ]] || trap 'rm -rf "$work"' EXIT
[[ ! -e "$work" || -z "$(ls -A "$work")" ]] || { echo "$work is not empty" >&2; exit 2; }
mkdir -p "$work"
export MATLOAD_SOURCE_DIR="$root"
ptxas=$("$root/scripts/fetch-cuda-tools.sh" all)

echo "date: $(date -u +%FT%TZ)"
echo "commit: $(git -C "$root" rev-parse HEAD)$(git -C "$root" diff --quiet HEAD || echo ' (with local changes)')"
echo "machine: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(free -g | awk '/^Mem:/ {print $2}') GB"
echo "matload: $matload ($("$matload" --version | head -1))"
echo "toolkits:"
tr ',' '\n' <<<"$ptxas" | while read -r tool; do
  echo "  $tool: $("$tool" --version | grep -oE 'V[0-9]+[.][0-9]+[.][0-9]+' | head -1), $(sha256sum "$tool" | cut -c1-16)"
done
echo "command (in each directory): matload history --db ../results.sqlite --out run --ptxas \$(scripts/fetch-cuda-tools.sh all)"

# history NAME runs the history in $work/NAME and prints its figures.
history() {
  mkdir -p "$work/$1"
  echo
  echo "== $1"
  echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  local status=0
  /usr/bin/time -v -o "$work/$1.time" env -C "$work/$1" "$matload" history --db ../results.sqlite --out run \
    --ptxas "$ptxas" >"$work/$1.out" 2>"$work/$1.err" || status=$?
  echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "exit status: $status"
  grep -E 'Elapsed|User time|System time|Percent of CPU|Maximum resident' "$work/$1.time" | sed 's/^\t*//'
  grep -vE '^run ' "$work/$1.out"
}

history cold
history warm
echo
echo "results store after both: $(du -m "$work/results.sqlite" | cut -f1) MB"
for name in cold warm; do
  [[ -e "$work/$name/run/history.md" ]] || { echo "the $name history wrote no report: nothing to compare"; exit 1; }
done
differs=0
for file in forms.tsv disagreements.tsv changes.tsv misdiagnoses.tsv reproducers; do
  [[ -e "$work/cold/run/$file" || -e "$work/warm/run/$file" ]] || continue
  if ! diff -r -q "$work/cold/run/$file" "$work/warm/run/$file" >/dev/null 2>&1; then
    echo "differs: $file"
    differs=1
  fi
done
echo "cold and warm data identical: $([[ $differs == 0 ]] && echo yes || echo NO)"
[[ $differs == 0 ]]
