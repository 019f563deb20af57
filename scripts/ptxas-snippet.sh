#!/usr/bin/env bash
# Assembles one PTX snippet with ptxas and prints ptxas's messages and its
# exit status, for the reproducers of reports/spec-errata.md:
#   scripts/ptxas-snippet.sh [--ptxas PTXAS] VERSION TARGET 'BODY'
# BODY is the body of a kernel with no parameters: the snippet's own
# declarations and instructions (it declares every register it uses). The
# kernel file's temporary path is printed as k.ptx. PTXAS defaults to
# $MATLOAD_PTXAS, else the toolkit's ptxas.
set -uo pipefail
ptxas=${MATLOAD_PTXAS:-${CUDA_HOME:-/usr/local/cuda}/bin/ptxas}
if [[ ${1:-} == --ptxas ]]; then
  ptxas=${2:?--ptxas needs a path}
  shift 2
fi
if [[ $# -ne 3 ]]; then
  echo "usage: ptxas-snippet.sh [--ptxas PTXAS] VERSION TARGET 'BODY'" >&2
  exit 2
fi
version=$1 target=$2 body=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '.version %s\n.target %s\n.address_size 64\n.visible .entry k()\n{\n%s\nret;\n}\n' \
  "$version" "$target" "$body" >"$work/k.ptx"
"$ptxas" -arch="$target" "$work/k.ptx" -o "$work/k.cubin" >"$work/out" 2>&1
status=$?
sed "s|$work/||g" "$work/out"
echo "ptxas exit $status"
exit "$status"
