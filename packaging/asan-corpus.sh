#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The fuzz seed corpus (tests/fuzz/corpus) replayed under AddressSanitizer and
# UBSan: configures the `asan` preset and builds only the replay test and what
# it links (crucible_core), not the whole tree, so that CI (2 cores) can run it
# after the normal build and tests. Any sanitizer report fails it.
#   packaging/asan-corpus.sh            (from anywhere; JOBS=N to override nproc)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
jobs="${JOBS:-$(nproc)}"
start=$(date +%s)
cmake --preset asan >/dev/null
cmake --build --preset asan --target test_fuzz_corpus_replay -j "$jobs"
built=$(date +%s)
# A Debug build under ASan is several times slower than release: allow 10 s an input.
ASAN_OPTIONS="detect_leaks=1:abort_on_error=1" UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1" \
  CRUCIBLE_FUZZ_REPLAY_SECONDS="${CRUCIBLE_FUZZ_REPLAY_SECONDS:-10}" \
  build/asan/bin/test_fuzz_corpus_replay
echo "asan corpus replay: build $((built - start)) s, replay $(($(date +%s) - built)) s"
