#!/usr/bin/env bash
# Holds cmake/build_commit.cmake to naming the commit a build is made from
# as the tree stands at that build (D11 of
# reports/robustness/attack-2026-11-27-second): in a scratch git repository
# it names a commit, then the same commit with -dirty after an edit, then
# the next commit; the header is not rewritten while the commit stays; and
# outside a checkout it says "unknown". Run by ctest as build_commit_test.
#   cmake/build_commit_test.sh SCRATCH_DIR
set -euo pipefail
script=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/build_commit.cmake
scratch=${1:?usage: build_commit_test.sh SCRATCH_DIR}
rm -rf "$scratch" && mkdir -p "$scratch/repo" "$scratch/plain"
repo=$scratch/repo header=$scratch/build_commit.h
# git looks for no checkout above the scratch directory (it may lie in one).
export GIT_CEILING_DIRECTORIES=$scratch
failures=0
expect_commit() {  # expect_commit WANT WHAT: the header names WANT
  cmake -DSOURCE_DIR="$1" -DOUTPUT="$header" -P "$script"
  if ! grep -qx "#define MATLOAD_GIT_COMMIT \"$2\"" "$header"; then
    echo "build_commit_test: $3: want $2, the header says: $(grep define "$header")"
    failures=$((failures + 1))
  fi
}
git_in() { git -C "$repo" -c user.name=t -c user.email=t@t "$@" >/dev/null; }

git_in init -q
echo one >"$repo/file" && git_in add file && git_in commit -q -m one
first=$(git -C "$repo" rev-parse HEAD)
expect_commit "$repo" "$first" "a clean tree"
before=$(stat -c %.9Y "$header")
sleep 1
expect_commit "$repo" "$first" "the same commit again"
[[ $(stat -c %.9Y "$header") == "$before" ]] ||
  { echo "build_commit_test: the header was rewritten though the commit stayed"; failures=$((failures + 1)); }
echo two >"$repo/file"
expect_commit "$repo" "$first-dirty" "an edited tree"
git_in commit -q -am two
expect_commit "$repo" "$(git -C "$repo" rev-parse HEAD)" "the next commit"
expect_commit "$scratch/plain" unknown "no checkout"
((failures == 0)) || exit 1
echo "build_commit_test: clean, dirty, next commit and no checkout each named as they stand"
