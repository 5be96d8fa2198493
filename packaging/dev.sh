#!/usr/bin/env bash
# The README's two quick-start commands.
#   packaging/dev.sh open   install what is missing, build, open the workbench on the sample project
#   packaging/dev.sh test   install what is missing, build, run every test with ctest
# Both are idempotent: a second call with nothing changed only re-checks.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash packaging/install-deps.sh
jobs="$(nproc)"
cmake --preset default >/dev/null
cmake --build --preset default -j "$jobs"
case "${1:-}" in
  open)
    # Work on a copy: the bundled sample stays as it was recorded.
    mkdir -p build/default/projects
    project="build/default/projects/sample.crucible"
    if [ ! -f "$project" ]; then
      if [ -f resources/sample/sample.crucible ]; then
        cp resources/sample/sample.crucible "$project"
      else
        project="build/default/projects/new.crucible"
      fi
    fi
    exec build/default/bin/crucible "$project"
    ;;
  test)
    export QT_QPA_PLATFORM=offscreen
    bash packaging/asan-corpus.sh  # the fuzz seed corpus under ASan/UBSan (tests/fuzz/README.md)
    bash packaging/tsan-tests.sh   # the engine and GUI-bridge tests under ThreadSanitizer (issue 14)
    bash packaging/slurm-tests.sh  # the Slurm dispatcher against a private one-node cluster (issue 21)
    ctest --preset default -j "$jobs"
    ;;
  *)
    echo "usage: $0 open|test" >&2; exit 2 ;;
esac
