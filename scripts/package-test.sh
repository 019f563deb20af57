#!/usr/bin/env bash
# Builds matload's packages (CPack: the .deb and the .tar.gz, into
# BUILD_DIR/packages), unpacks each into a scratch root (dpkg-deb -x: no root
# needed) and runs the installed matload from a directory with no source
# tree: --version must name the release and the commit the build tree's
# binary names, the manual page must be there when help2man is, and the
# installed binary must judge a support sweep (the fake ptxas,
# harness/testing/fake_ptxas.sh) with the registry built into it, recording
# that registry's digest. Run by ctest as package_test and by scripts/test.sh.
#   scripts/package-test.sh BUILD_DIR SCRATCH_DIR
set -euo pipefail
source_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(realpath "${1:?usage: package-test.sh BUILD_DIR SCRATCH_DIR}")
scratch=${2:?usage: package-test.sh BUILD_DIR SCRATCH_DIR}
rm -rf "$scratch" && mkdir -p "$scratch/deb" "$scratch/tgz" "$scratch/elsewhere"
scratch=$(realpath "$scratch")
failures=0
fail() {
  echo "package-test: $*"
  failures=$((failures + 1))
}

rm -rf "$build/packages"
(cd "$build" && cpack -G "DEB;TGZ" >"$scratch/cpack.log") || { cat "$scratch/cpack.log"; exit 1; }
deb=$(ls "$build"/packages/matload_*.deb)
tgz=$(ls "$build"/packages/matload-*.tar.gz)
dpkg-deb -x "$deb" "$scratch/deb"
tar -xzf "$tgz" -C "$scratch/tgz"
echo "package-test: built $(basename "$deb") and $(basename "$tgz")"
dpkg-deb -f "$deb" Depends | grep -q libsqlite3 || fail "the .deb depends on no SQLite: $(dpkg-deb -f "$deb" Depends)"

release=$(sed -n 's/^project(matload VERSION \([0-9.]*\) .*/\1/p' "$source_dir/CMakeLists.txt")
built_commit=$("$build/matload" --version | sed -n 's/^commit //p')
installed=$scratch/deb/usr/bin/matload
from_tgz=$(find "$scratch/tgz" -path '*/bin/matload' -type f)
[[ -x $from_tgz ]] || fail "the .tar.gz holds no bin/matload"
for binary in "$installed" "$from_tgz"; do
  version=$(cd "$scratch/elsewhere" && env -u MATLOAD_SOURCE_DIR "$binary" --version)
  grep -q "^matload $release (" <<<"$version" || fail "$binary --version names no release $release: $version"
  grep -qx "release $release" <<<"$version" || fail "$binary --version has no 'release $release' line"
  grep -qx "commit $built_commit" <<<"$version" || fail "$binary --version does not name commit $built_commit: $version"
done
for file in share/matload/scripts/fetch-cuda-tools.sh share/matload/slurm/submit.sh share/matload/slurm/shard.sbatch \
  share/matload/slurm/merge.sbatch share/matload/systemd/matload-soak.service share/matload/systemd/matload-soak.timer \
  share/doc/matload/README.md share/doc/matload/docs/slurm.md share/doc/matload/docs/soak.md; do
  [[ -e $scratch/deb/usr/$file ]] || fail "the .deb has no /usr/$file"
done
if command -v help2man >/dev/null; then
  grep -q -- '--registry' "$scratch/deb/usr/share/man/man1/matload.1" ||
    fail "the .deb's manual page (/usr/share/man/man1/matload.1) is missing or names no --registry"
fi

# The soak's systemd units parse, with the unit's matload the installed one.
if command -v systemd-analyze >/dev/null; then
  mkdir -p "$scratch/systemd"
  sed "s|/usr/bin/matload|$installed|g" "$scratch/deb/usr/share/matload/systemd/matload-soak.service" \
    >"$scratch/systemd/matload-soak.service"
  cp "$scratch/deb/usr/share/matload/systemd/matload-soak.timer" "$scratch/systemd/"
  systemd-analyze verify "$scratch/systemd/matload-soak.timer" "$scratch/systemd/matload-soak.service" \
    >"$scratch/systemd.log" 2>&1 || fail "the soak's systemd units do not verify: $(cat "$scratch/systemd.log")"
else
  echo "package-test: systemd-analyze is not installed, so the soak's systemd units were not verified"
fi

# The installed binary judges with its built-in registry, with no source tree.
db=$scratch/results.sqlite
(cd "$scratch/elsewhere" && env -u MATLOAD_SOURCE_DIR MATLOAD_FAKE_PTXAS=real MATLOAD_DB="$db" "$installed" support \
  --target sm_90 --include 'sm_90.ldmatrix.sync.aligned.m8n8.x1.*' --ptxas "$source_dir/harness/testing/fake_ptxas.sh" \
  --out "$scratch/run" >"$scratch/support.log" 2>&1) || fail "support from the package failed: $(cat "$scratch/support.log")"
digest=$(sha256sum "$source_dir/corpora/known_discrepancies.json" | cut -d' ' -f1)
MATLOAD_DB="$db" "$installed" runs --json | grep -q "\"registry_digest\": \"$digest\"" ||
  fail "the run does not record the built-in registry's digest $digest: $(MATLOAD_DB="$db" "$installed" runs --json)"

((failures == 0)) || exit 1
echo "package-test: the .deb and the .tar.gz install, name release $release and commit $built_commit, and judge" \
  "with the built-in registry from a directory with no source tree"
