#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 19, experiment 3 (seal and continue), on the device machine, from the repository root:
#   tests/bench/experiments/seal_and_continue.sh BUILD_DIR [BUDGET] [SEAL_BUDGET]
# For every task, in a project of its own ($OUT/seal-<task>.crucible):
#   1. runs of SEAL_BUDGET evaluations (seeds 1, 2, ...) until the task has a seal, at most
#      MAX_ROUNDS of them;
#   2. one run of BUDGET evaluations that starts from that seal (sealStart from-seal, the default on
#      a sealed task: the seal is the run's reference and its kernel enters the archive).
# seal_table.py then writes $OUT/seal-table.md: whether the continuing run beat the seal and by how
# much, whether it sealed again, or why not (its finish reason, what it measured).
#
# Environment (and lib.sh's: OUT, PREVIOUS, DEADLINE_S, S_PER_EVAL, RUN_OVERHEAD_S, DRY_RUN):
#   TASKS          task names or spec paths (default: softmax and layernorm at their large shapes;
#                  rowsum did not seal in 2 x 12 evaluations on the H200: its best was 1.009x)
#   MAX_ROUNDS     phase 1 runs at most (default 3)
#   CONTINUE_SEED  the continuing run's seed (default 101: not one of phase 1's)
#   RUN_ARGS       more crucible-cli run options for every run
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
source "$HERE/lib.sh"

BUILD_DIR=${1:?usage: seal_and_continue.sh BUILD_DIR [BUDGET] [SEAL_BUDGET]}
BUDGET=${2:-30}
SEAL_BUDGET=${3:-30}
TASKS=${TASKS:-"softmax_f32_8192x4096 layernorm_f32_8192x4096"}
MAX_ROUNDS=${MAX_ROUNDS:-3}
CONTINUE_SEED=${CONTINUE_SEED:-101}
exp_setup seal-and-continue "$BUILD_DIR"
exp_note "tasks: $TASKS; phase 1: up to $MAX_ROUNDS run(s) of $SEAL_BUDGET evaluations until sealed; then $BUDGET evaluations from the seal (seed $CONTINUE_SEED)"
for task in $TASKS; do
  [[ -f "$(exp_spec "$task")" ]] || { exp_note "FATAL: no task spec for '$task'"; exit 2; }
  name=$(basename "$(exp_spec "$task")" .json)
  if [[ -n "${PREVIOUS:-}" && "$PREVIOUS" != "$OUT" && -f "$PREVIOUS/seal-$name.crucible" ]]; then
    cp "$PREVIOUS/seal-$name.crucible" "$OUT/"
  fi
done

# seals FILE PROJECT: the project's seals as JSON; prints how many.
seals() {
  "$CLI" seal list --project "$2" --json > "$1" 2> "$1.err" || echo "[]" > "$1"
  python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$1" 2>/dev/null || echo 0
}

failed=0
for task in $TASKS; do
  spec=$(exp_spec "$task")
  name=$(basename "$spec" .json)
  project="$OUT/seal-$name.crucible"
  sealed=0
  for ((round = 1; round <= MAX_ROUNDS; round++)); do
    if [[ "$DRY_RUN" != 1 && -f "$project" ]] && (($(seals "$OUT/seals-$name.json" "$project") > 0)); then
      sealed=1
      break
    fi
    key="$name.evolve.r$round"
    # shellcheck disable=SC2086
    exp_run "$key" "$spec" "$round" "$SEAL_BUDGET" "$project" evolve ${RUN_ARGS:-}
    case $? in
      1) failed=$((failed + 1)) ;;
      2) exp_usage_stop "$key"; exit 2 ;;
      3) break 2 ;;
    esac
  done
  if [[ "$DRY_RUN" != 1 && $sealed == 0 && -f "$project" ]] && (($(seals "$OUT/seals-$name.json" "$project") > 0)); then
    sealed=1
  fi
  if [[ "$DRY_RUN" != 1 && $sealed == 0 ]]; then
    exp_note "$name: no seal after $MAX_ROUNDS run(s) of $SEAL_BUDGET evaluations: nothing to continue from"
    continue
  fi
  key="$name.continue"
  if [[ "$DRY_RUN" != 1 && ! -f "$OUT/runs/$key/meta.json" ]]; then
    mkdir -p "$OUT/runs/$key"
    cp "$OUT/seals-$name.json" "$OUT/runs/$key/seals-before.json"
  fi
  # shellcheck disable=SC2086
  exp_run "$key" "$spec" "$CONTINUE_SEED" "$BUDGET" "$project" continue ${RUN_ARGS:-}
  case $? in
    1) failed=$((failed + 1)) ;;
    2) exp_usage_stop "$key"; exit 2 ;;
    3) break ;;
  esac
  [[ "$DRY_RUN" == 1 ]] || seals "$OUT/runs/$key/seals-after.json" "$project" > /dev/null
done
exp_finish
[[ "$DRY_RUN" == 1 ]] && exit 0

python3 "$HERE/seal_table.py" --results "$OUT" --out "$OUT/seal-table.md"
rc=$?
if ((failed > 0)); then
  exp_note "$failed run(s) failed (see summary.txt)"
  ((rc == 0)) && rc=1
fi
exp_pack seal-table.md
exit $rc
