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
#
# With MATLOAD_OLD naming a second matload (an older build), both binaries
# sweep, alternated (old cold, new cold, old warm, new warm), each into a
# store of its own under OUT/old and OUT/new, so that their figures come
# from one session; the new binary's reports must then also equal the old
# one's, cold and warm, but for date and seconds.
#   [MATLOAD=...] [MATLOAD_OLD=...] scripts/bench-support-sweep.sh [PTX] [OUT]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ptx=${1:-9.0}
matload=$(realpath "${MATLOAD:-$root/build/default/matload}")
old=$([[ -z "${MATLOAD_OLD:-}" ]] || realpath "$MATLOAD_OLD")
ptxas=${MATLOAD_PTXAS:-${CUDA_HOME:-/usr/local/cuda}/bin/ptxas}
work=${2:-$(mktemp -d)}
[[ -n "${2:-}" ]] || trap 'rm -rf "$work"' EXIT
[[ ! -e "$work" || -z "$(ls -A "$work")" ]] || { echo "$work is not empty" >&2; exit 2; }
export MATLOAD_SOURCE_DIR="$root"

echo "date: $(date -u +%FT%TZ)"
echo "commit: $(git -C "$root" rev-parse HEAD)$(git -C "$root" diff --quiet HEAD || echo ' (with local changes)')"
echo "machine: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(free -g | awk '/^Mem:/ {print $2}') GB"
echo "ptxas: $ptxas, $("$ptxas" --version | grep -oE 'V[0-9]+[.][0-9]+[.][0-9]+' | head -1), $(sha256sum "$ptxas" | cut -c1-16)"
echo "binaries: new $matload$([[ -n "$old" ]] && echo ", old $old")"
echo "command (in each directory): matload support --ptx $ptx --db ../results.sqlite --out run --ptxas $ptxas"

# sweep DIR NAME BINARY runs BINARY's sweep in $work/DIR/NAME and prints its figures.
sweep() {
  local dir="$work/$1"
  mkdir -p "$dir/$2"
  echo
  echo "== $1 $2"
  echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  local status=0
  /usr/bin/time -v -o "$dir/$2.time" env -C "$dir/$2" "$3" support --ptx "$ptx" --db ../results.sqlite \
    --out run --ptxas "$ptxas" >"$dir/$2.out" 2>"$dir/$2.err" || status=$?
  echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "exit status: $status"
  grep -E 'Elapsed|User time|System time|Percent of CPU|Maximum resident' "$dir/$2.time" | sed 's/^\t*//'
  grep -E 'verdict cache|^wrote' "$dir/$2.out"
  echo "compiler runs counted by the batch checker: $(grep -o '([0-9]* compiler runs' "$dir/$2.out" |
    tr -dc '0-9\n' | awk '{ total += $1 } END { print total }')"
}

# normalised FILE is FILE without the sweep's date and seconds.
normalised() { sed -E 's/[0-9]{4}-[0-9]{2}-[0-9]{2}(, in [0-9]+ s)?/DATE/; /^ *"seconds": /d' "$1"; }

# same A B says whether run directories A and B hold the same files, and
# the same reports but for date and seconds, naming each that differs.
same() {
  local identical=0
  while IFS= read -r file; do
    if ! cmp -s <(normalised "$1/$file") <(normalised "$2/$file"); then
      echo "differs: $file"
      identical=1
    fi
  done < <(cd "$1" && find . -type f ! -name .matload-run ! -name report.html | sort)
  [[ "$(cd "$1" && find . -type f | sort)" == "$(cd "$2" && find . -type f | sort)" ]] || identical=1
  return $identical
}

# verdict ARGS... prints "yes" when `same ARGS` holds, else "NO".
verdict() { if same "$@"; then echo yes; else echo NO; fi; }

binaries=(new)
[[ -z "$old" ]] || binaries=(old new)
for name in cold warm; do
  for binary in "${binaries[@]}"; do
    sweep "$binary" "$name" "$([[ $binary == old ]] && echo "$old" || echo "$matload")"
  done
done
echo
for binary in "${binaries[@]}"; do
  echo "results store of $binary after both sweeps: $(du -m "$work/$binary/results.sqlite" | cut -f1) MB"
done

echo
echo "== reports"
ok=1
for binary in "${binaries[@]}"; do
  result=$(verdict "$work/$binary/cold/run" "$work/$binary/warm/run")
  echo "$binary: cold and warm reports identical but for date and seconds: $result"
  [[ $result == *yes ]] || ok=0
done
if [[ -n "$old" ]]; then
  for name in cold warm; do
    result=$(verdict "$work/old/$name/run" "$work/new/$name/run")
    echo "$name: old and new reports identical but for date and seconds: $result"
    [[ $result == *yes ]] || ok=0
  done
fi
[[ $ok == 1 ]]
