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
#                  ptxas (a 13.5 one, through MATLOAD_REAL_PTXAS, speaks 9.5):
#                  real with the two variables below set so
#   real           every run is the real ptxas's
#   crash-after-version
#                  a module of .version 99.9 is refused as the real ptxas
#                  refuses it, and then the fake dies of SIGSEGV, as ptxas
#                  12.0.140 does; other modules go to the real ptxas
#   crash-on-untyped-m16n16k8
#                  a run with a module holding a wmma.load.a of shape
#                  .m16n16k8 without its type dies of SIGSEGV, as ptxas
#                  12.3.52 to 12.3.107 do on sm_80 and later; other runs are
#                  real (a crash the batch checker must trace to its form)
#   crash-once-on-untyped-m16n16k8
#                  as crash-on-untyped-m16n16k8, but only every other such
#                  run (counted in $MATLOAD_FAKE_PTXAS_STATE): a crash that
#                  does not come again, which is no verdict
#   reword         every run is real, with "Unknown modifier" reworded
#                  "Unknown qualifier" on stderr
#   internal-symbol
#                  every run is real, with each "Unknown modifier '.x'"
#                  naming '__cuda_.x' instead (a misdiagnosis to judge)
#
# Two more variables make a fake toolkit of another release, for the
# tests of toolkits of other releases (harness/compile/ptx_dialect_test.cc):
#   MATLOAD_FAKE_PTXAS_RELEASE=12.4.131
#                  --version names this release instead of the real one
#   MATLOAD_FAKE_PTXAS_SPEAKS=8.4
#                  a module declaring a newer .version is rejected as ptxas
#                  rejects one ("Unsupported .version 9.0; current version is
#                  '8.4'"); SPEAKS=silent rejects .version 99.9 without
#                  saying which version it speaks
set -u

real="${MATLOAD_REAL_PTXAS:-${MATLOAD_PTXAS:-/usr/local/cuda/bin/ptxas}}"
if [[ "$(readlink -f "$real")" == "$(readlink -f "$0")" ]]; then real=/usr/local/cuda/bin/ptxas; fi
mode="${MATLOAD_FAKE_PTXAS:-}"
if [[ "$mode" == ahead ]]; then
  : "${MATLOAD_FAKE_PTXAS_RELEASE:=13.6.1}" "${MATLOAD_FAKE_PTXAS_SPEAKS:=9.6}"
fi

informational=0
inputs=()
output=""
previous=""
for argument in "$@"; do
  case "$argument" in
    --version | --help) informational=1 ;;
    *.ptx) inputs+=("$argument") ;;
  esac
  if [[ "$previous" == "-o" ]]; then output="$argument"; fi
  previous="$argument"
done
input=""
if ((${#inputs[@]} > 0)); then input="${inputs[-1]}"; fi

# long_line prints 100 KB of one line.
long_line() { head -c 102400 /dev/zero | tr '\0' 'x'; echo; }

# newer A B says whether PTX ISA version A is newer than B (MAJOR.MINOR).
newer() { (( ${1%.*} > ${2%.*} || (${1%.*} == ${2%.*} && ${1#*.} > ${2#*.}) )); }

if [[ "$mode" == "hang-version" && " $* " == *" --version "* ]]; then exec sleep 1000; fi
if [[ "$informational" == 1 && -n "${MATLOAD_FAKE_PTXAS_RELEASE:-}" ]]; then
  release="$MATLOAD_FAKE_PTXAS_RELEASE"
  "$real" "$@" | sed -E "s/release [0-9]+\.[0-9]+, V[0-9]+\.[0-9]+\.[0-9]+/release ${release%.*}, V$release/"
  exit "${PIPESTATUS[0]}"
fi
if [[ "$informational" == 1 && "$mode" != "long-line" ]]; then exec "$real" "$@"; fi
if [[ -n "${MATLOAD_FAKE_PTXAS_SPEAKS:-}" ]]; then
  for file in "${inputs[@]}"; do
    declared="$(sed -n 's/^\.version \([0-9]*\.[0-9]*\).*/\1/p' "$file" | head -1)"
    if [[ "$MATLOAD_FAKE_PTXAS_SPEAKS" == silent && "$declared" == 99.9 ]]; then
      echo "ptxas $file, line 1; fatal   : Unsupported .version $declared" >&2
      exit 255
    elif [[ "$MATLOAD_FAKE_PTXAS_SPEAKS" != silent ]] && newer "$declared" "$MATLOAD_FAKE_PTXAS_SPEAKS"; then
      echo "ptxas $file, line 1; fatal   : Unsupported .version $declared; current version is '$MATLOAD_FAKE_PTXAS_SPEAKS'" >&2
      echo "ptxas fatal   : Ptx assembly aborted due to errors" >&2
      exit 255
    fi
  done
fi

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
  reject-ldmatrix | reject-ldmatrix-bytes)
    lines="$(grep -n 'ldmatrix' "$input" | cut -d: -f1)"
    if [[ -z "$lines" ]]; then exec "$real" "$@"; fi
    message="fake rejection of ldmatrix"
    if [[ "$mode" == reject-ldmatrix-bytes ]]; then message=$'fake rejection \xff\xfe of\tldmatrix \e[2J'; fi
    for line in $lines; do echo "ptxas $input, line $line; error   : $message" >&2; done
    exit 255
    ;;
  real | ahead)
    exec "$real" "$@"
    ;;
  crash-on-untyped-m16n16k8 | crash-once-on-untyped-m16n16k8)
    if awk '/^wmma\.load\.a\./ && /\.m16n16k8/ && !/\.(tf32|f16|bf16|f32|f64|s8|u8|s4|u4|b1)[ .]/ { found = 1 }
            END { exit !found }' "${inputs[@]}"; then
      if [[ "$mode" == crash-once-on-untyped-m16n16k8 ]]; then
        state="${MATLOAD_FAKE_PTXAS_STATE:?crash-once-on-untyped-m16n16k8 needs MATLOAD_FAKE_PTXAS_STATE}"
        echo x >>"$state"
        (($(wc -l <"$state") % 2 == 1)) && kill -SEGV $$
      else
        kill -SEGV $$
      fi
    fi
    exec "$real" "$@"
    ;;
  crash-after-version)
    if [[ -n "$input" ]] && grep -q '^\.version 99\.9' "$input"; then
      "$real" "$@"
      kill -SEGV $$
    fi
    exec "$real" "$@"
    ;;
  reword)
    "$real" "$@" 2> >(sed 's/Unknown modifier/Unknown qualifier/' >&2)
    ;;
  internal-symbol)
    "$real" "$@" 2> >(sed "s/Unknown modifier '/Unknown modifier '__cuda_/" >&2)
    ;;
  *)
    echo "fake_ptxas.sh: MATLOAD_FAKE_PTXAS='$mode' names no mode" >&2
    exit 2
    ;;
esac
