#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The suite benchmark of issue 5, on the device machine, from the repository root:
#   tests/bench/run-suite-on-device.sh [BUILD_DIR] [BUDGET] [MINUTES_PER_TASK]
# 1. evolves each suite task (the large shapes of resources/tasks) with the carried headless build:
#    crucible-cli run --project $OUT/suite.crucible --task FILE --budget BUDGET --minutes MINUTES_PER_TASK
# 2. exports the best valid kernel of every task (crucible-cli best --export $OUT/best)
# 3. benchmarks them against PyTorch eager, torch.compile and cuBLAS (tests/bench/suite_bench.py),
#    writing $OUT/suite-table.md; then profiles ours, torch.compile and (GEMMs) cuBLAS of every task
#    with ncu (tests/bench/suite_profile.py) for the table's "Hardware profile" and "What limits the
#    missed targets" sections, keeping ncu's CSV in $OUT/suite-table-ncu/.
# A task that fails is reported and the others go on; every log is kept in $OUT.
#
# Device time: the whole script must fit in about 9 minutes (one device command may run 10).
# Defaults: 10 tasks x (0.25 min of evolution + ~10 s of start-up) ~ 4.2 min; the bench ~ 1 min
# (torch import, 2 GiB copy, 50 interleaved samples per contender) plus torch.compile of every
# task (never skipped for time: max-autotune takes seconds per row operator, minutes per GEMM;
# split the suite over calls with SKIP_BENCH / KEEP_PROJECT when it does not fit). NO_COMPILE=1
# leaves torch.compile out (the table then lacks that column and issue 20's targets).
# Hardware profiles (PROFILE=1, the default; PROFILE=0 leaves them out): after all the timing, one ncu
# call per task (NCU, default /usr/local/cuda/bin/ncu; without it the table says "not run: no ncu").
# Each call starts a child that imports torch, compiles our kernel and takes torch.compile's kernels
# from inductor's cache (warm from the timed run), then ncu replays one launch per contender (at most 8
# kernels each) for 15 metrics (time, DRAM bytes and throughput, SM throughput, occupancy achieved and
# theoretical with the resources that set it): about 22 s per task (rmsnorm and transpose, 44 s together on the
# H200 on 2026-12-03; the table's header prints the time it took). A call is ended after PROFILE_TIMEOUT
# seconds (default 120; a GEMM whose max-autotune result is not in the cache may need longer), all of
# them together after PROFILE_BUDGET seconds (default 180; the tasks furthest behind torch.compile go
# first), and the table says which profile is missing and why.
# Environment: TASKS="name1 name2" restricts the suite; MINUTES_FOR="task=minutes ..." gives
# some tasks a different evolution time (large GEMMs: each evaluation times the slow baseline
# too); COMPILE_MODE (default max-autotune-no-cudagraphs); NO_COMPILE=1 skips torch.compile; FLUSH=clean empties the L2 by a read (suite_bench.py --flush); SAMPLES (default 50);
# SANITIZE_TIMEOUT seconds per sanitizer tool before a seal (default 30); PROFILE, NCU, PROFILE_TIMEOUT,
# PROFILE_BUDGET as above.
# Tasks outside resources/tasks (issue 16): SPECS="path/a.json path/b.json" evolves those spec files
# instead of the suite; TUNE_FOR="task=path/K ..." adds `--kernel path/K.cu --tune path/K.tune.json`
# to that task's run (a tunable user kernel); COMPILE_TARGET=0.9 adds the check "ours reaches 90%
# of torch.compile's speed" to the table's acceptance lines.
# To split the suite over two device calls: SKIP_BENCH=1 stops after the evolution; PROJECT=FILE
# with KEEP_PROJECT=1 continues a project an earlier call evolved; EXPECT_TASKS lists the tasks
# the table must hold (default: the tasks evolved in this call).
set -u

BUILD_DIR=${1:-build/headless}
BUDGET=${2:-60}
MINUTES_PER_TASK=${3:-0.25}
OUT=${OUT:-$PWD/bench-out}
COMPILE_MODE=${COMPILE_MODE:-max-autotune-no-cudagraphs}
SAMPLES=${SAMPLES:-50}
# Each compute-sanitizer tool before a seal may take this long (a tool that
# does not finish refuses the seal); short evolutions cannot wait minutes.
SANITIZE_TIMEOUT=${SANITIZE_TIMEOUT:-30}

CLI="$BUILD_DIR/bin/crucible-cli"
PROJECT=${PROJECT:-$OUT/suite.crucible}
EXPORT_DIR="$OUT/best"
mkdir -p "$OUT/logs"
SUMMARY="$OUT/summary.txt"
: > "$SUMMARY"

note() { echo "$*" | tee -a "$SUMMARY"; }

for tool in "$CLI" "$BUILD_DIR/bin/crucible-worker"; do
  if [[ ! -x "$tool" ]]; then
    note "FATAL: $tool is missing or not executable (carry a headless build: BUILD_DIR=$BUILD_DIR)"
    exit 2
  fi
done

# The suite: for each operator (the task name without its shape suffix), the spec with the largest shape.
suite_tasks() {
  python3 - <<'EOF'
import json, math, pathlib
largest = {}
for path in sorted(pathlib.Path("resources/tasks").glob("*.json")):
    spec = json.loads(path.read_text())
    operator = spec["name"].rsplit("_", 1)[0]
    size = math.prod(spec["axes"].values())
    if operator not in largest or size > largest[operator][0]:
        largest[operator] = (size, spec["name"])
print(" ".join(name for _, name in sorted(largest.values(), key=lambda v: v[1])))
EOF
}

spec_path() {   # the spec file of a task name: from SPECS when given, else resources/tasks
  local path
  for path in ${SPECS:-}; do
    [[ "$(basename "$path" .json)" == "$1" ]] && { echo "$path"; return; }
  done
  echo "resources/tasks/$1.json"
}
kernel_args() {   # --kernel/--tune for a task named in TUNE_FOR
  local entry
  for entry in ${TUNE_FOR:-}; do
    [[ "${entry%%=*}" == "$1" ]] && { echo "--kernel ${entry#*=}.cu --tune ${entry#*=}.tune.json"; return; }
  done
}
if [[ -n "${SPECS:-}" ]]; then
  # shellcheck disable=SC2086
  TASK_LIST=${TASKS:-$(for path in $SPECS; do basename "$path" .json; done | tr '\n' ' ')}
else
  TASK_LIST=${TASKS:-$(suite_tasks)}
fi
if [[ -z "$TASK_LIST" ]]; then
  note "FATAL: no suite tasks found under resources/tasks"
  exit 2
fi

note "suite benchmark $(date -u '+%Y-%m-%d %H:%M UTC'): budget $BUDGET evaluations / $MINUTES_PER_TASK min per task"
note "tasks: $TASK_LIST"
"$CLI" version > "$OUT/logs/version.log" 2>&1 || note "warning: crucible-cli version failed (see logs/version.log)"

# 1. Evolution, one task at a time; a hard timeout keeps a stuck run from eating the device time.
minutes_for() {
  local entry
  for entry in ${MINUTES_FOR:-}; do
    [[ "${entry%%=*}" == "$1" ]] && { echo "${entry#*=}"; return; }
  done
  echo "$MINUTES_PER_TASK"
}
[[ "${KEEP_PROJECT:-0}" == 1 ]] || rm -f "$PROJECT"
FAILED_RUNS=()
for task in $TASK_LIST; do
  spec=$(spec_path "$task")
  log="$OUT/logs/run-$task.log"
  if [[ ! -f "$spec" ]]; then
    note "run $task: FAILED: no spec $spec"
    FAILED_RUNS+=("$task")
    continue
  fi
  started=$SECONDS
  minutes=$(minutes_for "$task")
  run_timeout=$(python3 -c "print(int(float('$minutes') * 60 + 60))")
  # shellcheck disable=SC2046  # kernel_args is empty or whole words
  timeout --signal=INT --kill-after=20 "$run_timeout" \
    "$CLI" run --project "$PROJECT" --task "$spec" --budget "$BUDGET" --minutes "$minutes" \
      --sanitize-timeout "$SANITIZE_TIMEOUT" $(kernel_args "$task") > "$log" 2>&1
  rc=$?
  if [[ $rc -eq 0 ]]; then
    note "run $task: ok in $((SECONDS - started)) s: $(tail -n 1 "$log")"
  else
    note "run $task: FAILED (exit $rc) after $((SECONDS - started)) s; last lines of $log:"
    tail -n 5 "$log" | sed 's/^/    /' | tee -a "$SUMMARY"
    FAILED_RUNS+=("$task")
  fi
done

if [[ "${SKIP_BENCH:-0}" == 1 ]]; then
  note "evolution done; the bench is left to a later call (SKIP_BENCH=1)"
  exit 0
fi

# 2. The best valid kernel of every task. Exit 1 means some task has none: still export the rest.
"$CLI" best --project "$PROJECT" --export "$EXPORT_DIR" > "$OUT/best.txt" 2> "$OUT/logs/best.log"
rc=$?
tee -a "$SUMMARY" < "$OUT/best.txt"
if [[ $rc -ne 0 && $rc -ne 1 ]]; then
  note "best: FAILED (exit $rc): $(tail -n 3 "$OUT/logs/best.log")"
fi

# 3. The benchmark table. --expect lists the whole suite, so a task without a kernel is a FAIL line.
# shellcheck disable=SC2086  # unquoted on purpose: word splitting normalises the list's whitespace
EXPECTED=$(echo ${EXPECT_TASKS:-$TASK_LIST} | tr ' ' ',')
BENCH_ARGS=(--kernels "$EXPORT_DIR" --out "$OUT/suite-table.md" --samples "$SAMPLES"
            --expect "$EXPECTED" --compile-mode "$COMPILE_MODE" --project "$PROJECT")
[[ "${NO_COMPILE:-0}" == 1 ]] && BENCH_ARGS+=(--no-compile)
[[ -n "${FLUSH:-}" ]] && BENCH_ARGS+=(--flush "$FLUSH")
[[ -n "${COMPILE_TARGET:-}" ]] && BENCH_ARGS+=(--compile-target "$COMPILE_TARGET")
if [[ "${PROFILE:-1}" == 1 ]]; then
  NCU=${NCU:-/usr/local/cuda/bin/ncu}
  BENCH_ARGS+=(--profile --ncu "$NCU" --profile-timeout "${PROFILE_TIMEOUT:-120}"
               --profile-budget "${PROFILE_BUDGET:-180}")
  [[ -x "$NCU" ]] || note "warning: no ncu at $NCU: the table will say the hardware profiles were not run"
fi
started=$SECONDS
python3 tests/bench/suite_bench.py "${BENCH_ARGS[@]}" > "$OUT/logs/bench.log" 2> "$OUT/logs/bench.err"
rc=$?
note "bench: exit $rc after $((SECONDS - started)) s (0: every acceptance check passed, 1: some failed, else an error)"
if [[ -f "$OUT/suite-table.md" ]]; then
  cat "$OUT/suite-table.md"
else
  note "bench: no table written; last lines of logs/bench.err:"
  tail -n 20 "$OUT/logs/bench.err" | tee -a "$SUMMARY"
fi
[[ ${#FAILED_RUNS[@]} -gt 0 ]] && note "runs that failed: ${FAILED_RUNS[*]}"
exit $rc
