#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The engine tests and the GUI-bridge tests (the engine controller and the run
# coordinator) under ThreadSanitizer: that is where the engine's threads (run
# loop, compile and evaluation workers), the controller's worker thread and the
# GUI thread meet (issue 14). Configures the `tsan` preset and builds only
# those two test executables and what they link, not the whole tree, so that CI
# (2 cores) can run it after the normal build. Any race report fails it.
#   packaging/tsan-tests.sh              (from anywhere; JOBS=N to override nproc)
#   TSAN_ENGINE_ONLY=1 packaging/tsan-tests.sh   the engine tests only (no Qt build)
# Qt is not built with TSan: ignore_noninstrumented_modules=1 leaves out the
# memory that Qt's own code allocates, frees and copies, and the few reports
# left inside Qt's header code are suppressed in packaging/tsan.supp, one
# reason each. Our code is checked in full.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
jobs="${JOBS:-$(nproc)}"
targets=(test_core_engine)
[ "${TSAN_ENGINE_ONLY:-0}" = 1 ] || targets+=(test_app_gui)
start=$(date +%s)
cmake --preset tsan >/dev/null
cmake --build --preset tsan --target "${targets[@]}" -j "$jobs"
built=$(date +%s)
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:ignore_noninstrumented_modules=1:suppressions=$root/packaging/tsan.supp${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
export QT_QPA_PLATFORM=offscreen
# TSan's shadow memory needs the classic address layout: kernels with more
# mmap randomisation bits (vm.mmap_rnd_bits > 28) make it abort at start.
# Run without ASLR where the container allows it.
run=()
if setarch "$(uname -m)" -R true 2>/dev/null; then run=(setarch "$(uname -m)" -R); fi
"${run[@]}" build/tsan/bin/test_core_engine
engine=$(date +%s)
if [ "${TSAN_ENGINE_ONLY:-0}" != 1 ]; then
  "${run[@]}" build/tsan/bin/test_app_gui --gtest_filter='EngineControllerTest.*:RunCoordinatorTest.*'
fi
echo "tsan tests: build $((built - start)) s, engine tests $((engine - built)) s," \
     "GUI-bridge tests $(($(date +%s) - engine)) s"
