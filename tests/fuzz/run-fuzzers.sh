#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs the libFuzzer targets one after another, each for SECONDS (default 300),
# starting from the seeds in tests/fuzz/corpus/<target>/. New inputs go to
# build/fuzz/work/<target>/ (not the repository); a crash is written to
# build/fuzz/artifacts/<target>/ and stops that target's run. Build first:
#   cmake --preset fuzz && cmake --build --preset fuzz
# Usage: tests/fuzz/run-fuzzers.sh [SECONDS] [TARGET...]
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
seconds="${1:-300}"
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(task_spec expression kernel_abi project_open knowledge_import cubin_image operator_task tunable_kernel model_reply)
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"
# Seconds one input may take before libFuzzer calls it a hang. The proposer
# targets need more under ASan: a row-wise task's first seeds and proposals
# enumerate its legal genomes (up to 1.6 s here; a GEMM task's, 0.6 s since the
# gene rules skip whole gene combinations), and a tune space with no legal point
# is searched to its bound (kMaxLegalPointWork: 10-20 s under ASan).
input_timeout() {
  case "$1" in
    operator_task) echo 15 ;;
    tunable_kernel) echo 30 ;;
    *) echo 5 ;;
  esac
}
status=0
for target in "${targets[@]}"; do
  exe="$root/build/fuzz/bin/fuzz_$target"
  [ -x "$exe" ] || { echo "missing $exe: build the fuzz preset first" >&2; exit 2; }
  work="$root/build/fuzz/work/$target"
  artifacts="$root/build/fuzz/artifacts/$target"
  mkdir -p "$work" "$artifacts"
  log="$root/build/fuzz/$target.log"
  echo "== fuzz_$target for ${seconds}s (log: $log)"
  "$exe" -max_len=65536 -rss_limit_mb=2048 -timeout="$(input_timeout "$target")" -max_total_time="$seconds" -print_final_stats=1 \
         -artifact_prefix="$artifacts/" "$work" "$root/tests/fuzz/corpus/$target" >"$log" 2>&1
  rc=$?
  grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb|^Done|SUMMARY|ERROR" "$log" | sed 's/^/   /'
  [ $rc -eq 0 ] || { echo "   fuzz_$target exited $rc; artifacts in $artifacts" >&2; status=1; }
done
exit $status
