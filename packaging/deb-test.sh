#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the Debian package from a build folder and checks it as an installer
# would (issue 22):
#   - the package holds the programs, the tasks, the sample, the desktop entry,
#     the icons, the AppStream metainfo and the man pages;
#   - the metainfo passes `appstreamcli validate`, the desktop entry
#     `desktop-file-validate`;
#   - apt can resolve its dependencies on this Debian (a simulated install);
#   - installed into a scratch root, `crucible --version`, `crucible-cli task
#     list` and `crucible-worker --version` run from the installed paths, and
#     crucible-cli finds the installed tasks and worker with no environment
#     variable set.
# The scratch root is removed at the end, whatever happens. Nothing is
# installed on the system.
#   usage: packaging/deb-test.sh BUILD_DIR
set -euo pipefail
build="$(cd "${1:?usage: $0 BUILD_DIR}" && pwd)"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
scratch="$(mktemp -d /tmp/crucible-deb-test.XXXXXX)"
trap 'rm -rf "$scratch"' EXIT
fail() { echo "deb-test: FAIL: $*" >&2; exit 1; }

app_id="io.github.crucible_kernels.Crucible"

# Build the package (cpack runs the install step into its own staging folder).
rm -rf "$build/packages"
(cd "$build" && cpack --config CPackConfig.cmake -G DEB >"$scratch/cpack.log" 2>&1) \
  || { cat "$scratch/cpack.log" >&2; fail "cpack could not build the package"; }
deb="$(ls "$build"/packages/crucible_*_amd64.deb 2>/dev/null | head -n 1)"
[ -n "$deb" ] || fail "cpack made no .deb in $build/packages"
echo "deb-test: built $(basename "$deb") ($(du -h "$deb" | cut -f1))"

# The package's contents.
dpkg-deb --contents "$deb" | awk '{print $6}' | sed 's|^\./|/|' >"$scratch/contents"
expect=(
  /usr/bin/crucible /usr/bin/crucible-cli /usr/bin/crucible-worker
  /usr/share/crucible/tasks/README.md /usr/share/crucible/sample/sample.crucible
  "/usr/share/applications/$app_id.desktop" "/usr/share/metainfo/$app_id.metainfo.xml"
  "/usr/share/mime/packages/$app_id.mime.xml"
  "/usr/share/icons/hicolor/scalable/apps/$app_id.svg"
  "/usr/share/icons/hicolor/48x48/apps/$app_id.png" "/usr/share/icons/hicolor/256x256/apps/$app_id.png"
  /usr/share/man/man1/crucible.1.gz /usr/share/man/man1/crucible-cli.1.gz /usr/share/man/man1/crucible-worker.1.gz
)
for f in "${expect[@]}"; do
  grep -qx -- "$f" "$scratch/contents" || fail "the package lacks $f"
done
task_count="$(grep -c '^/usr/share/crucible/tasks/[^/]*\.json$' "$scratch/contents" || true)"
[ "$task_count" -ge 1 ] || fail "the package holds no built-in task"

# Its dependencies: generated, and resolvable by apt on this system.
depends="$(dpkg-deb --field "$deb" Depends)"
[ -n "$depends" ] || fail "the package declares no dependencies"
for lib in libqt6widgets6 libqscintilla2-qt6 libsqlite3-0; do
  grep -q "$lib" <<<"$depends" || fail "Depends lacks $lib: $depends"
done
apt-get install --simulate -qq "$deb" >"$scratch/apt.log" 2>&1 \
  || { cat "$scratch/apt.log" >&2; fail "apt cannot resolve the package's dependencies"; }

# Install into the scratch root and validate the desktop files there.
dpkg-deb --extract "$deb" "$scratch/root"
appstreamcli validate --no-net "$scratch/root/usr/share/metainfo/$app_id.metainfo.xml" >"$scratch/as.log" 2>&1 \
  || { cat "$scratch/as.log" >&2; fail "appstreamcli validate refused the metainfo"; }
desktop-file-validate "$scratch/root/usr/share/applications/$app_id.desktop" \
  || fail "desktop-file-validate refused the desktop entry"

# Run the installed programs from their installed paths, with a clean environment.
bin="$scratch/root/usr/bin"
clean_env=(env -i PATH=/usr/bin:/bin HOME="$scratch" QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR="$scratch")
"${clean_env[@]}" "$bin/crucible" --version | grep -q "^crucible $(dpkg-deb --field "$deb" Version)" \
  || fail "the installed crucible does not report its version"
"${clean_env[@]}" "$bin/crucible-worker" --version | grep -q '^crucible-worker ' \
  || fail "the installed crucible-worker does not run"
"${clean_env[@]}" "$bin/crucible-cli" task list >"$scratch/tasks.log" 2>&1 \
  || { cat "$scratch/tasks.log" >&2; fail "the installed crucible-cli cannot list its tasks"; }
grep -q "built-in tasks in $scratch/root/usr/share/crucible/tasks" "$scratch/tasks.log" \
  || { cat "$scratch/tasks.log" >&2; fail "the installed crucible-cli did not take the installed tasks"; }
"${clean_env[@]}" "$bin/crucible-cli" version >"$scratch/version.log" 2>&1 || true
grep -q "worker: $bin/crucible-worker" "$scratch/version.log" \
  || { cat "$scratch/version.log" >&2; fail "the installed crucible-cli does not find the installed worker"; }
echo "deb-test: ok ($task_count tasks; Depends: $depends)"
