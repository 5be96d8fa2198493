#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 19, experiment 1 (knowledge ablation), on the device machine, from the repository root:
#   tests/bench/experiments/knowledge_ablation.sh BUILD_DIR [BUDGET] [PHASE1_BUDGET]
# Phase 1: the PHASE1 tasks are evolved one after the other in one project (its knowledge
#   accumulates), PHASE1_BUDGET evaluations each, seed 1; its knowledge is written out with
#   `crucible-cli kb export` ($OUT/kb.json).
# Phase 2: every TARGETS task (other shapes of the same operators, or neighbouring operators) is
#   evolved twice per seed with the same BUDGET and seed: cold (a fresh project) and warm (a fresh
#   project that first ran `crucible-cli kb import` of kb.json).
# knowledge_table.py then writes $OUT/knowledge-table.md: per target, the evaluations the cold and
# the warm run needed to reach 95% of the cold run's final best, median and min-max over seeds.
#
# Environment (and lib.sh's: OUT, PREVIOUS, DEADLINE_S, S_PER_EVAL, RUN_OVERHEAD_S, DRY_RUN):
#   PHASE1   task names or spec paths (default: softmax, layernorm, rmsnorm, rowsum at their large shapes)
#   TARGETS  entries NAME_OR_PATH or NAME_OR_PATH:AXIS=V,AXIS=V (that task at other axes, made with
#            reshape_task.py into $OUT/tasks; default: the PHASE1 operators at a neighbouring shape of
#            the same size, which keeps each evaluation's cost)
#   SEEDS    default "1 2 3"
#   RUN_ARGS more crucible-cli run options for every run
#   REACH    the share to reach (default 0.95); MEASURE final (REACH x the cold final best, the issue's
#            measure) or gain (the baseline + REACH x the cold run's gain over it); see knowledge_table.py
# Runs go seed by seed (cold then warm of every target); PREVIOUS=<an earlier OUT> keeps phase 1
# (its kb.json) and the runs already made.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
source "$HERE/lib.sh"

BUILD_DIR=${1:?usage: knowledge_ablation.sh BUILD_DIR [BUDGET] [PHASE1_BUDGET]}
BUDGET=${2:-30}
PHASE1_BUDGET=${3:-40}
PHASE1=${PHASE1:-"softmax_f32_8192x4096 layernorm_f32_8192x4096 rmsnorm_bf16_8192x8192 rowsum_f32_8192x8192"}
TARGETS=${TARGETS:-"softmax_f32_8192x4096:M=16384,N=2048 layernorm_f32_8192x4096:M=4096,N=8192 rmsnorm_bf16_8192x8192:M=16384,N=4096 rowsum_f32_8192x8192:M=16384,N=4096"}
SEEDS=${SEEDS:-"1 2 3"}
exp_setup knowledge-ablation "$BUILD_DIR"
exp_note "phase 1: $PHASE1 ($PHASE1_BUDGET evaluations each); phase 2: $TARGETS ($BUDGET evaluations per run); seeds: $SEEDS"
[[ -n "${PREVIOUS:-}" && -f "$PREVIOUS/kb.json" && "$PREVIOUS" != "$OUT" ]] && cp "$PREVIOUS/kb.json" "$OUT/kb.json"

# kb export and import, tried on two empty projects (no GPU needed): a build without them stops here.
if [[ "$DRY_RUN" != 1 ]]; then
  probe="$OUT/kb-probe"
  rm -rf "$probe" && mkdir -p "$probe"
  if ! { "$CLI" init "$probe/a.crucible" && "$CLI" kb export --project "$probe/a.crucible" --out "$probe/kb.json" &&
         "$CLI" init "$probe/b.crucible" && "$CLI" kb import --project "$probe/b.crucible" --in "$probe/kb.json"; } \
       > "$probe/log.txt" 2>&1; then
    exp_note "FATAL: this crucible-cli cannot 'kb export --out' / 'kb import --in': $(tail -n 2 "$probe/log.txt")"
    exit 2
  fi
  rm -rf "$probe"
fi

# The phase 2 specs: as named, or reshaped into $OUT/tasks.
TARGET_SPECS=()
for entry in $TARGETS; do
  if [[ "$entry" == *:* ]]; then
    spec=$(python3 "$HERE/reshape_task.py" "$(exp_spec "${entry%%:*}")" "${entry#*:}" "$OUT/tasks") ||
      { exp_note "FATAL: cannot reshape '$entry'"; exit 2; }
  else
    spec=$(exp_spec "$entry")
  fi
  [[ -f "$spec" ]] || { exp_note "FATAL: no task spec for '$entry'"; exit 2; }
  TARGET_SPECS+=("$spec")
done
for task in $PHASE1; do
  [[ -f "$(exp_spec "$task")" ]] || { exp_note "FATAL: no task spec for '$task'"; exit 2; }
done

# Phase 1: one project, knowledge accumulating over its tasks.
PROJECT_A="$OUT/phase1.crucible"
failed=0
if [[ -f "$OUT/kb.json" ]]; then
  exp_note "phase 1: kb.json exists (from PREVIOUS or an earlier call): kept"
else
  for task in $PHASE1; do
    spec=$(exp_spec "$task")
    key="phase1.$(basename "$spec" .json)"
    # shellcheck disable=SC2086
    exp_run "$key" "$spec" 1 "$PHASE1_BUDGET" "$PROJECT_A" phase1 ${RUN_ARGS:-}
    case $? in
      1) failed=$((failed + 1)) ;;
      2) exp_usage_stop "$key"; exit 2 ;;
      3) exp_finish; exit 3 ;;   # no knowledge base without phase 1
    esac
  done
  if [[ "$DRY_RUN" != 1 ]]; then
    "$CLI" kb export --project "$PROJECT_A" --out "$OUT/kb.json" > "$OUT/kb-export.txt" 2>&1 ||
      { exp_note "FATAL: kb export failed: $(tail -n 3 "$OUT/kb-export.txt")"; exit 1; }
    "$CLI" kb list --project "$PROJECT_A" --json > "$OUT/kb-phase1.json" 2>/dev/null
    exp_note "phase 1 knowledge: $(cat "$OUT/kb-export.txt")"
  fi
fi

# Phase 2: cold and warm per target and seed.
for seed in $SEEDS; do
  for spec in "${TARGET_SPECS[@]}"; do
    name=$(basename "$spec" .json)
    for arm in cold warm; do
      key="$name.$arm.s$seed"
      project="$OUT/runs/$key/project.crucible"
      if [[ "$arm" == warm && "$DRY_RUN" != 1 && ! -f "$OUT/runs/$key/meta.json" ]]; then
        mkdir -p "$OUT/runs/$key"
        rm -f "$project"*
        { "$CLI" init "$project" && "$CLI" kb import --project "$project" --in "$OUT/kb.json" &&
          "$CLI" kb list --project "$project" --json > "$OUT/runs/$key/kb-imported.json"; } \
          > "$OUT/runs/$key/kb-import.txt" 2>&1 ||
          { exp_note "run $key: kb import FAILED: $(tail -n 2 "$OUT/runs/$key/kb-import.txt")"; failed=$((failed + 1)); continue; }
      fi
      # shellcheck disable=SC2086
      exp_run "$key" "$spec" "$seed" "$BUDGET" "$project" "$arm" ${RUN_ARGS:-}
      case $? in
        1) failed=$((failed + 1)) ;;
        2) exp_usage_stop "$key"; exit 2 ;;
        3) break 3 ;;
      esac
      [[ "${KEEP_PROJECTS:-0}" == 1 ]] || rm -f "$project"*
    done
  done
done
exp_finish
[[ "$DRY_RUN" == 1 ]] && exit 0

python3 "$HERE/knowledge_table.py" --results "$OUT" --out "$OUT/knowledge-table.md" --curves "$OUT/curves.csv" \
  --reach "${REACH:-0.95}" --measure "${MEASURE:-final}"
rc=$?
if ((failed > 0)); then
  exp_note "$failed run(s) failed (see summary.txt)"
  ((rc == 0)) && rc=1
fi
exp_pack knowledge-table.md
exit $rc
