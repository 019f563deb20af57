#!/usr/bin/env bash
# Checks that the C++ lines a change touches are formatted as .clang-format
# says (clang-format-14), and prints the diff that would fix them. The
# change is the working tree against the merge base with origin/main, so a
# branch is held to what it changed, committed or not. Where there is no
# origin/main (a clone without that remote), it is against the merge base
# with the local main branch (a helper's worktree beside the lead's main:
# after a merge of main, only the branch's own lines count), and on main
# itself or without one, against HEAD~: the last commit and what is not yet
# committed. Only the
# lines changed are checked, so that old code is reformatted only when it is
# edited anyway and merges stay small.
#   scripts/check-format.sh          check
#   scripts/check-format.sh --fix    format the changed lines in place
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if git rev-parse --verify --quiet origin/main >/dev/null; then
  base=$(git merge-base HEAD origin/main)
  against="the merge base with origin/main"
elif git rev-parse --verify --quiet refs/heads/main >/dev/null && [[ $(git rev-parse HEAD) != $(git rev-parse main) ]]; then
  base=$(git merge-base HEAD main)
  against="the merge base with main (no origin/main)"
else
  base=$(git rev-parse HEAD~)
  against="HEAD~ (no origin/main, or on main itself)"
fi
diff=$(git diff -U0 --no-color "$base" -- '*.cc' '*.h')
if [[ -z $diff ]]; then
  echo "check-format: no C++ changed against $against"
  exit 0
fi
if [[ ${1:-} == --fix ]]; then
  clang-format-diff-14 -p1 -i <<<"$diff"
  exit 0
fi
fixes=$(clang-format-diff-14 -p1 <<<"$diff")
if [[ -n $fixes ]]; then
  echo "$fixes"
  echo "check-format: lines changed against $against are not formatted (.clang-format);" \
    "scripts/check-format.sh --fix formats them" >&2
  exit 1
fi
echo "check-format: the C++ lines changed against $against are formatted"
