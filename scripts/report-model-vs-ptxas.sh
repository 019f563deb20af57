#!/usr/bin/env bash
# Runs the tests that hold the instruction model against ptxas and writes
# their results to reports/model-vs-ptxas/ptxas-<version>.md, with the
# command, the tool versions, the machine and the date.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/build.sh" >/dev/null
export MATLOAD_SOURCE_DIR="$root"
ptxas=${MATLOAD_PTXAS:-${CUDA_HOME:-/usr/local/cuda}/bin/ptxas}
version=$("$ptxas" --version | sed -n 's/.*, V\([0-9.]*\).*/\1/p')
out="$root/reports/model-vs-ptxas/ptxas-$version.md"
mkdir -p "$(dirname "$out")"
bin="$root/build/default/harness"
forms=$("$bin/judge/model_vs_ptxas_test" --gtest_filter='ModelVsPtxasTest.*' | grep '^sm_')
classes=$("$bin/compile/register_class_vs_ptxas_test" | grep -P '^sm_\d+[af]?\t')
"$bin/judge/spec_examples_test" >/dev/null
"$bin/judge/model_vs_ptxas_test" --gtest_filter='TargetTableVsPtxasTest.*' >/dev/null
{
  echo "# The instruction model against ptxas $version"
  echo
  echo "- Made by: \`scripts/report-model-vs-ptxas.sh\` on $(date -u +%Y-%m-%d) ($(git -C "$root" rev-parse --short HEAD))"
  echo "- Tools: ptxas $version ($ptxas), $(clang++-14 --version | head -1)"
  echo "- Machine: $(nproc) cores, $(uname -m), no GPU; PTX ISA 9.0 throughout"
  echo "- Every test named below passed in the same run: \`model_vs_ptxas_test\`, \`spec_examples_test\`,"
  echo "  \`register_class_vs_ptxas_test\`."
  echo
  echo "## Every enumerated form, per target"
  echo
  echo "Legal forms are every qualifier set the model accepts, in every operand style (address"
  echo "register width, offset, stride register or immediate), each spelled twice: in the spec's"
  echo "order and with its qualifiers rotated by one (ptxas takes any order except where the table"
  echo "pins it: wmma's .a/.b/.c and tcgen05's .red right after the mnemonic, .dst_fmt before"
  echo ".src_fmt). Near-miss forms are one qualifier"
  echo "or operand away from a legal form and illegal by the model. Every disagreement is one of"
  echo "the known discrepancies below; 'matching reason' counts the forms both reject where"
  echo "ptxas's message maps to one of the model's reason codes (harness/compile/diagnostic_classifier.cc)."
  echo
  echo "| target | legal spellings | near-miss | rejected by both | for a matching reason | known discrepancies |"
  echo "| --- | ---: | ---: | ---: | ---: | --- |"
  echo "$forms" | sed -E 's/^([^:]+): ([0-9]+) legal spellings and ([0-9]+) near-miss forms; ([0-9]+) rejected by both, ([0-9]+) of them for a matching reason; known discrepancies: ?(.*)$/| \1 | \2 | \3 | \4 | \5 | \6 |/'
  echo
  echo "Every legal form is accepted by ptxas on all ten targets; all disagreements are forms the"
  echo "spec makes illegal and ptxas accepts."
  echo
  echo "## Known discrepancies (corpora/known_discrepancies.json)"
  echo
  python3 - "$root/corpora/known_discrepancies.json" <<'PY'
import json, sys
for entry in json.load(open(sys.argv[1]))["discrepancies"]:
    print(f"### {entry['id']}\n")
    print(f"- {entry['judgement']}")
    print(f"- Model rule: `{entry['rule']}`; measured on {', '.join(entry['toolchains'])}: {entry['toolchain_message']}")
    print(f"- Example: `{entry['example']}`\n")
PY
  echo "## Register classes, measured"
  echo
  echo "The PTX sections say only '32-bit registers' or 'a vector that can hold the fragment'."
  echo "Each register type was declared in turn for the operand marked \$:"
  echo
  echo "| target | form | accepted register types |"
  echo "| --- | --- | --- |"
  echo "$classes" | awk -F'\t' '{printf "| %s | `%s` | %s |\n", $1, $2, substr($3, 9)}'
} >"$out"
echo "wrote $out"
