#!/bin/bash
# compare.sh [BUILD_DIR]: the family registry's before/after check. Takes
# snapshot.sh of the build's matload (default build/default) and diffs it
# with at-69e5565/, the snapshot of 69e5565, the commit that put each family
# in one folder (README.md). Exit 0 and "identical" when nothing differs. The support report
# in the snapshot depends on the ptxas it ran: CUDA 13.0 (V13.0.88).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../../build/default}
after=$(mktemp -d)
trap 'rm -rf "$after"' EXIT
"$here/snapshot.sh" "$build/matload" "$build/fake-cuda" "$after/snapshot" >/dev/null
diff -r "$here/at-69e5565" "$after/snapshot"
echo identical
