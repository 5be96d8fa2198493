#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 19, experiment 2 (search ablation), on the device machine, from the repository root:
#   tests/bench/experiments/search_ablation.sh BUILD_DIR [BUDGET]
# For every task x search x seed: one run in a fresh project (no knowledge, no tuning cache and no
# measured configurations carried between runs), `crucible-cli run --search S --seed N --budget
# BUDGET`, the same evaluation budget for every search. Then search_table.py writes
# $OUT/search-table.md: per task and search the median and min-max over seeds of the final best
# speedup over the task's baseline, whether MAP-Elites is ahead of hill climbing, and the
# best-so-far curves (curves.csv).
#
# Environment (and lib.sh's: OUT, PREVIOUS, DEADLINE_S, S_PER_EVAL, RUN_OVERHEAD_S, DRY_RUN):
#   TASKS       task names (resources/tasks) or spec paths (default: the six fastest memory-bound
#               suite tasks at their large shapes)
#   SEARCHES    default "map-elites hill-climb random"
#   SEEDS       default "1 2 3"
#   RUN_ARGS    more crucible-cli run options for every run (for example "--batch 4")
#   KEEP_PROJECTS=1 keeps each run's project file (dropped by default: 54 projects weigh on what
#               comes back from the device)
# Runs go seed by seed (every task and search of seed 1 first), so a call the deadline cuts short
# still holds whole seeds; PREVIOUS=<that OUT> adds the rest in a later call.
# Device time: tasks x searches x seeds x (RUN_OVERHEAD_S + BUDGET x S_PER_EVAL); DRY_RUN=1 prints it.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
source "$HERE/lib.sh"

BUILD_DIR=${1:?usage: search_ablation.sh BUILD_DIR [BUDGET]}
BUDGET=${2:-30}
TASKS=${TASKS:-"softmax_f32_8192x4096 layernorm_f32_8192x4096 rmsnorm_bf16_8192x8192 rowsum_f32_8192x8192 transpose_f32_8192x8192 gelu_f32_67108864"}
SEARCHES=${SEARCHES:-"map-elites hill-climb random"}
SEEDS=${SEEDS:-"1 2 3"}
exp_setup search-ablation "$BUILD_DIR"
exp_note "budget $BUDGET evaluations per run; tasks: $TASKS; searches: $SEARCHES; seeds: $SEEDS"

if ! exp_cli_accepts run search; then
  exp_note "FATAL: this crucible-cli has no 'run --search map-elites|hill-climb|random' option" \
           "(RunSettings::search exists in core; the run command must set it)"
  exit 2
fi
for task in $TASKS; do
  [[ -f "$(exp_spec "$task")" ]] || { exp_note "FATAL: no task spec for '$task'"; exit 2; }
done

failed=0
for seed in $SEEDS; do
  for task in $TASKS; do
    spec=$(exp_spec "$task")
    name=$(basename "$spec" .json)
    for search in $SEARCHES; do
      key="$name.$search.s$seed"
      # shellcheck disable=SC2086  # RUN_ARGS is whole words
      exp_run "$key" "$spec" "$seed" "$BUDGET" "$OUT/runs/$key/project.crucible" "$search" \
        --search "$search" ${RUN_ARGS:-}
      case $? in
        1) failed=$((failed + 1)) ;;
        2) exp_usage_stop "$key"; exit 2 ;;
        3) break 3 ;;   # the deadline: later runs would not fit either
      esac
      # What the table needs is in export.json and status.json; the project is dropped unless asked.
      [[ "${KEEP_PROJECTS:-0}" == 1 ]] || rm -f "$OUT/runs/$key/project.crucible"*
    done
  done
done
exp_finish
[[ "$DRY_RUN" == 1 ]] && exit 0

python3 "$HERE/search_table.py" --results "$OUT" --out "$OUT/search-table.md" --curves "$OUT/curves.csv"
rc=$?
if ((failed > 0)); then
  exp_note "$failed run(s) failed (see summary.txt)"
  ((rc == 0)) && rc=1
fi
exp_pack search-table.md
exit $rc
