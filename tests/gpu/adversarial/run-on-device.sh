#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The harness checks of issue 12 on a GPU machine, from the repository root:
#   tests/gpu/adversarial/run-on-device.sh BIN_DIR [OLD_BIN_DIR]
# BIN_DIR holds crucible-cli, crucible-worker and the test binaries of a
# headless build (a carried, stripped copy will do). Writes to $OUT (or /tmp):
#   harness-host.log, harness-gpu.log, sanitize-gpu.log  the test binaries' output
#   adversarial.md                                      the corpus table (run.py)
#   harness-cost.md                                     with OLD_BIN_DIR: s/evaluation, old against new
set -uo pipefail
bin=$(cd "$1" && pwd)
old=${2:-}
out=${OUT:-/tmp}
export CRUCIBLE_TASKS_DIR=$PWD/resources/tasks PYTHONUNBUFFERED=1
# The GPU tests name the worker by the absolute path of the build they came from.
mkdir -p /work/main/build/headless 2>/dev/null && [ -e /work/main/build/headless/bin ] || ln -sfn "$bin" /work/main/build/headless/bin
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv
echo "compute-sanitizer: $(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>&1)"
"$bin/harness_host_tests" >"$out/harness-host.log" 2>&1; tail -1 "$out/harness-host.log"
timeout 240 "$bin/gpu_tests" --gtest_filter="${GPU_FILTER:-Harness*:HarnessRuntime*:Validation*:Timing*}" >"$out/harness-gpu.log" 2>&1
grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|tests ran" "$out/harness-gpu.log"
timeout 300 "$bin/sanitize_gpu_tests" >"$out/sanitize-gpu.log" 2>&1
grep -E "^\[  (PASSED|FAILED) |^\[  FAILED|tests ran" "$out/sanitize-gpu.log"
timeout "${ADVERSARIAL_SECONDS:-330}" python3 tests/gpu/adversarial/run.py "$bin/crucible-cli" "$out/adversarial.md" ${ONLY:+--only "$ONLY"}
if [ -n "$old" ]; then
  timeout "${COST_SECONDS:-200}" python3 tests/bench/harness_cost.py "$out/harness-cost.md" "before=$old/crucible-cli" "after=$bin/crucible-cli" --rounds 2 ${COST_TASKS:+--tasks "$COST_TASKS"}
fi
nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu --format=csv
