#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Candidates evaluated per GPU-minute (issue 21's acceptance on the H200): the engine with one
# worker against the local pool (one worker per visible GPU), side by side, from the repository root:
#   tests/bench/local_pool_bench.sh [BUILD_DIR] [TASK_SPEC] [BUDGET] [MINUTES]
# 1. "alone": crucible-cli run with CUDA_VISIBLE_DEVICES set to the first visible GPU (one worker);
# 2. "pool":  the same run with every visible GPU (the local dispatcher starts one worker per GPU
#    of the first GPU's model; its "evaluating on: N GPU worker(s)" line says how many);
# each into its own fresh project under $OUT, then tests/bench/local_pool_bench.py reads both
# projects (python3's sqlite3 module) and prints a Markdown table ($OUT/local-pool-table.md):
# date, the machine's GPUs with driver and clocks (nvidia-smi), and per configuration the
# evaluations, wall and GPU seconds, evaluations per wall minute, per GPU-minute held (workers x
# wall) and per GPU-minute used, and the GPU each result's fingerprint names.
# The crucible-cli selects the pool or one worker by CUDA_VISIBLE_DEVICES alone (no option).
# On a one-GPU machine both configurations have one worker: the table then shows that going
# through the pool costs nothing; with N GPUs the pool should evaluate about N times as many
# candidates per wall minute.
#
# Defaults: softmax_f32_8192x4096, a budget of 100000 evaluations (so MINUTES bounds the run),
# 2 minutes per configuration; about 2 x (2 min + ~30 s of start-up) ~ 5 min of device time.
# Environment: OUT (default $PWD/bench-out), SANITIZE_TIMEOUT seconds per compute-sanitizer tool
# before a seal (default 30), ORDER ("alone pool" or "pool alone", default "alone pool").
# Exit status: that of local_pool_bench.py (0: the pool kept up with the engine alone, 1: it did
# not, 2: a run could not be read), or 2 when a tool is missing.
set -u

BUILD_DIR=${1:-build/headless}
SPEC=${2:-resources/tasks/softmax_f32_8192x4096.json}
BUDGET=${3:-100000}
MINUTES=${4:-2}
OUT=${OUT:-$PWD/bench-out}
SANITIZE_TIMEOUT=${SANITIZE_TIMEOUT:-30}
ORDER=${ORDER:-alone pool}
CLI="$BUILD_DIR/bin/crucible-cli"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

for tool in "$CLI" "$BUILD_DIR/bin/crucible-worker"; do
  if [[ ! -x "$tool" ]]; then
    echo "FATAL: $tool is missing or not executable (carry a headless build: BUILD_DIR=$BUILD_DIR)" >&2
    exit 2
  fi
done
if [[ ! -f "$SPEC" ]]; then
  echo "FATAL: no task spec $SPEC" >&2
  exit 2
fi
if ! python3 -c 'import sqlite3' 2>/dev/null; then
  echo "FATAL: python3 with its sqlite3 module is needed to read the projects" >&2
  exit 2
fi
mkdir -p "$OUT"

# The GPUs this process may use, as CUDA_VISIBLE_DEVICES entries: the variable's own list when set
# (indices or UUIDs), else every GPU nvidia-smi lists.
if [[ -n "${CUDA_VISIBLE_DEVICES:-}" ]]; then
  VISIBLE="$CUDA_VISIBLE_DEVICES"
else
  VISIBLE=$(nvidia-smi --query-gpu=index --format=csv,noheader 2>/dev/null | tr -d ' ' | paste -sd, -)
fi
if [[ -z "$VISIBLE" ]]; then
  echo "FATAL: no GPU visible (CUDA_VISIBLE_DEVICES is empty and nvidia-smi lists none)" >&2
  exit 2
fi
FIRST=${VISIBLE%%,*}
GPUS=$(awk -F, '{print NF}' <<< "$VISIBLE")
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.max.sm,clocks.mem \
  --format=csv,noheader > "$OUT/nvidia-smi.csv" 2>/dev/null || : > "$OUT/nvidia-smi.csv"

# One configuration: a fresh project, a hard timeout so a stuck run cannot eat the device time.
run_one() {
  local label="$1" devices="$2"
  local project="$OUT/$label.crucible" log="$OUT/$label.log"
  rm -f "$project" "$project-wal" "$project-shm"
  local limit started rc
  limit=$(python3 -c "print(int(float('$MINUTES') * 60 + 120))")
  started=$SECONDS
  CUDA_VISIBLE_DEVICES="$devices" timeout --signal=INT --kill-after=30 "$limit" \
    "$CLI" run --project "$project" --task "$SPEC" --budget "$BUDGET" --minutes "$MINUTES" \
      --sanitize-timeout "$SANITIZE_TIMEOUT" > "$log" 2>&1
  rc=$?
  echo "$label (CUDA_VISIBLE_DEVICES=$devices): exit $rc after $((SECONDS - started)) s: $(tail -n 1 "$log")"
}

echo "local pool bench $(date -u '+%Y-%m-%d %H:%M UTC'): $SPEC, budget $BUDGET evaluations, $MINUTES min each;" \
     "visible GPUs: $VISIBLE"
for label in $ORDER; do
  case "$label" in
    alone) run_one alone "$FIRST" ;;
    pool) run_one pool "$VISIBLE" ;;
    *) echo "FATAL: ORDER names '$label'; only 'alone' and 'pool' exist" >&2; exit 2 ;;
  esac
done

python3 "$HERE/local_pool_bench.py" \
  --title "Local pool against the engine alone: $(basename "$SPEC" .json), budget $BUDGET, $MINUTES min each" \
  --run "alone:$OUT/alone.crucible:$OUT/alone.log:1" \
  --run "pool:$OUT/pool.crucible:$OUT/pool.log:$GPUS" \
  --smi "$OUT/nvidia-smi.csv" --out "$OUT/local-pool-table.md"
