#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs Crucible's GPU tests (ctest label "gpu") on a machine with an NVIDIA GPU.
#
#   tests/gpu/run-on-device.sh [BUILD_DIR]     (default build/gpu)
#
# Uses the build folder as it is when it already holds the test binaries (a
# build carried from another machine), else configures and builds the headless
# targets it needs. Prints the GPU, its clocks before and after, and a summary
# of the figures the tests measured. With $OUT set, the full log goes there.
# CRUCIBLE_GPU_TESTS=REGEX runs only the matching tests (ctest -R).
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
build=${1:-build/gpu}
log=${OUT:-/tmp}/gpu-tests.log

clocks() {
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw,utilization.gpu \
    --format=csv 2>&1
}
echo "== GPU"
nvidia-smi 2>&1 | head -20
echo "== clocks before"
clocks

if [ ! -x "$build/bin/gpu_tests" ] || [ ! -x "$build/bin/crucible-worker" ]; then
  echo "== building (no carried build in $build)"
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCRUCIBLE_GUI=OFF || exit 1
  cmake --build "$build" --target crucible-worker crucible-cli gpu_tests host_checks_tests -j"$(nproc)" || exit 1
fi

# CTest files and the test binaries name the absolute paths of the machine the
# build was made on; make that path lead here when it does not exist.
built_root=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt")
if [ -n "$built_root" ] && [ "$built_root" != "$root" ] && [ ! -e "$built_root" ]; then
  mkdir -p "$(dirname "$built_root")" && ln -s "$root" "$built_root"
  echo "== linked $built_root -> $root (the carried build's source path)"
fi
# The test binaries also name the build folder they were built in (the worker
# executable's path); a build carried to another folder is found there too.
built_dir=$(sed -n 's/^CMAKE_CACHEFILE_DIR:INTERNAL=//p' "$build/CMakeCache.txt")
if [ -n "$built_dir" ] && [ ! -e "$built_dir" ]; then
  mkdir -p "$(dirname "$built_dir")" && ln -s "$(cd "$build" && pwd)" "$built_dir"
  echo "== linked $built_dir -> $build (the carried build's own folder)"
fi
export CRUCIBLE_TASKS_DIR=$root/resources/tasks

echo "== worker self-test"
"$build/bin/crucible-worker" --self-test

echo "== ctest -L gpu"
start=$(date +%s)
# The whole output (passing tests print what they measured) goes to the log;
# the console gets ctest's summary and any failure.
ctest --test-dir "$build" -L gpu ${CRUCIBLE_GPU_TESTS:+-R "$CRUCIBLE_GPU_TESTS"} -V --output-on-failure --timeout 600 >"$log" 2>&1
status=$?
grep -E '^ *[0-9]+/[0-9]+ Test|tests passed|Failure|FAILED|^Expected|Actual|Which is' "$log"
echo "== ctest finished in $(( $(date +%s) - start )) s with status $status"

echo "== clocks after"
clocks
echo "== figures measured (from $log)"
grep -oE '\[ (timing|ceiling|dram|device|profile|metric) .*' "$log" | sort -u

if [ -x "$build/bin/crucible-cli" ]; then
  echo "== crucible-cli eval (a float4 GELU against the task's baseline)"
  "$build/bin/crucible-cli" eval --task gelu_f32_67108864 --kernel tests/gpu/kernels/gelu_vec4.cu \
    --grid 'ceil_div(N, 1024)' --block 256
  echo "crucible-cli eval exit status $?"
fi
exit $status
