#!/usr/bin/env bash
# fake_ptxas.sh: a ptxas that fails on purpose, for the tests that check
# matload's compile oracles tell a broken compiler from a verdict
# (harness/compile/fake_ptxas_test.cc, harness/cli/matload_cli_test.cc). It is for
# injecting faults only; the real path is tested with the real ptxas.
#
# MATLOAD_FAKE_PTXAS picks the fault. Where a mode needs real behaviour it
# runs the real ptxas: $MATLOAD_REAL_PTXAS, else $MATLOAD_PTXAS (which
# ctest sets), else /usr/local/cuda/bin/ptxas. --version and --help are
# answered by the real ptxas in every mode but hang-version, so that
# Ptxas::Open succeeds and the fault meets the module runs.
#
#   crash          a module run dies of SIGSEGV
#   hang           a module run starts a child that sleeps, and waits for it
#   hang-version   --version hangs
#   silent         a module run exits 0, prints nothing and writes no cubin
#   garbage        a module run prints bytes in no known format and exits 255
#   long-line      every run is real, with a 100 KB line added to stdout and
#                  to stderr
#   extra-line     every run is real, with one loader warning added to stderr
#   reject         a module run is rejected with a message in ptxas's format
#                  (exit 255): a real rejection, of everything
#   accept-all     a module run exits 0 and writes an ELF header as its cubin
#   reject-ldmatrix
#                  a module with ldmatrix lines is rejected with an error in
#                  ptxas's format on each of them; others go to the real ptxas
#                  (wrong verdicts a sweep must count as disagreements)
#   reject-ldmatrix-bytes
#                  as reject-ldmatrix, with a message holding bytes that are
#                  not UTF-8, a tab and a terminal's escape sequence
#   ahead          a ptxas newer than matload's tables: --version says
#                  release 13.6, V13.6.1, and a module of .version 99.9 is
#                  refused as speaking PTX 9.6; other modules go to the real
#                  ptxas (a 13.5 one, through MATLOAD_REAL_PTXAS, speaks 9.5)
set -u

real="${MATLOAD_REAL_PTXAS:-${MATLOAD_PTXAS:-/usr/local/cuda/bin/ptxas}}"
if [[ "$(readlink -f "$real")" == "$(readlink -f "$0")" ]]; then real=/usr/local/cuda/bin/ptxas; fi
mode="${MATLOAD_FAKE_PTXAS:-}"

informational=0
input=""
output=""
previous=""
for argument in "$@"; do
  case "$argument" in
    --version | --help) informational=1 ;;
    *.ptx) input="$argument" ;;
  esac
  if [[ "$previous" == "-o" ]]; then output="$argument"; fi
  previous="$argument"
done

# long_line prints 100 KB of one line.
long_line() { head -c 102400 /dev/zero | tr '\0' 'x'; echo; }

if [[ "$mode" == "hang-version" && " $* " == *" --version "* ]]; then exec sleep 1000; fi
if [[ "$mode" == "ahead" && " $* " == *" --version "* ]]; then
  "$real" --version | sed -E 's/release [0-9.]+, V[0-9.]+/release 13.6, V13.6.1/'
  exit "${PIPESTATUS[0]}"
fi
if [[ "$informational" == 1 && "$mode" != "long-line" ]]; then exec "$real" "$@"; fi

case "$mode" in
  crash)
    kill -SEGV $$
    ;;
  hang)
    sleep 1000 &
    echo "$!" >"${MATLOAD_FAKE_PTXAS_CHILD_PID_FILE:-/dev/null}"
    wait
    ;;
  silent)
    exit 0
    ;;
  garbage)
    printf '\x01\x02 not a diagnostic \xff\xfe\n%%%% ???\n' >&2
    exit 255
    ;;
  long-line)
    "$real" "$@"
    status=$?
    long_line
    { printf 'ptxas warning : '; long_line; } >&2
    exit "$status"
    ;;
  extra-line)
    echo "ERROR: ld.so: object 'libmatload_fake.so' from LD_PRELOAD cannot be preloaded (cannot open shared object file): ignored." >&2
    exec "$real" "$@"
    ;;
  reject)
    echo "ptxas fatal   : Unresolved extern function 'matload_fake_rejection'" >&2
    exit 255
    ;;
  accept-all)
    if [[ -n "$output" ]]; then printf '\x7fELF' >"$output"; fi
    exit 0
    ;;
  ahead)
    if [[ -n "$input" ]] && grep -q '^\.version 99\.9' "$input"; then
      echo "ptxas $input, line 1; fatal   : Unsupported .version 99.9; current version is '9.6'" >&2
      echo "ptxas fatal   : Ptx assembly aborted due to errors" >&2
      exit 255
    fi
    exec "$real" "$@"
    ;;
  reject-ldmatrix | reject-ldmatrix-bytes)
    lines="$(grep -n 'ldmatrix' "$input" | cut -d: -f1)"
    if [[ -z "$lines" ]]; then exec "$real" "$@"; fi
    message="fake rejection of ldmatrix"
    if [[ "$mode" == reject-ldmatrix-bytes ]]; then message=$'fake rejection \xff\xfe of\tldmatrix \e[2J'; fi
    for line in $lines; do echo "ptxas $input, line $line; error   : $message" >&2; done
    exit 255
    ;;
  *)
    echo "fake_ptxas.sh: MATLOAD_FAKE_PTXAS='$mode' names no mode" >&2
    exit 2
    ;;
esac
