# SPDX-License-Identifier: GPL-3.0-or-later
# Shared parts of the issue 19 experiment drivers (sourced, not run). Conventions
# of tests/bench/run-suite-on-device.sh: the headless build's folder first, results
# under $OUT, every log kept, a failing run reported and the others go on.
#
# Each run lives in $OUT/runs/<key>/: run.log (crucible-cli run), status.json
# (crucible-cli status --json), export.json (crucible-cli export --run, the
# candidates in id order), meta.json (what the table makers read: task, arm,
# seed, budget, exit code, seconds). A run whose meta.json exists is not run
# again, so PREVIOUS=DIR (an earlier call's $OUT) continues an experiment over
# several device calls.
#
# Environment common to the drivers:
#   OUT            results folder (default $PWD/<experiment>-out)
#   PREVIOUS       an earlier call's results folder: copied into $OUT first, its runs are kept
#   DEADLINE_S     start no run that is estimated to end later than this many seconds after the
#                  driver started (default 540: one device call may run 600)
#   S_PER_EVAL     estimated seconds per evaluation (default 1.5: on the H200 on 2026-12-02, runs of
#                  8-12 evaluations of softmax and rowsum took 12-23 s in all, start-up included)
#   RUN_OVERHEAD_S estimated seconds per run beside its evaluations (default 6: start-up, ceilings
#                  of a fresh project, the reference's compile and timing)
#   SANITIZE_TIMEOUT seconds per compute-sanitizer tool before a seal (default 30)
#   DRY_RUN=1      print the runs and their estimated time; run nothing (needs no GPU)
#   PACK=1         at the end, leave only $OUT.md (the table) and $OUT.tar.gz (everything else, project
#                  files left out unless KEEP_PROJECTS=1) beside $OUT: the device returns at most 8
#                  files, no deeper than $OUT/a/b/file. PREVIOUS may name such a .tar.gz.

exp_note() { echo "$*" | tee -a "$OUT/summary.txt"; }

# exp_setup NAME BUILD_DIR: the tools, $OUT, the GPU's identity and a clock sampler.
exp_setup() {
  local name=$1 build=$2
  OUT=${OUT:-$PWD/$name-out}
  DEADLINE_S=${DEADLINE_S:-540}
  S_PER_EVAL=${S_PER_EVAL:-1.5}
  RUN_OVERHEAD_S=${RUN_OVERHEAD_S:-6}
  SANITIZE_TIMEOUT=${SANITIZE_TIMEOUT:-30}
  DRY_RUN=${DRY_RUN:-0}
  EXP_STARTED=$SECONDS
  EXP_SKIPPED=0
  mkdir -p "$OUT/runs"
  if [[ "${PREVIOUS:-}" == *.tar.gz ]]; then   # a packed earlier call (PACK=1): unpacked beside $OUT
    local unpacked="$OUT.previous"
    rm -rf "$unpacked" && mkdir -p "$unpacked" && tar xzf "$PREVIOUS" -C "$unpacked" ||
      { echo "FATAL: cannot unpack PREVIOUS=$PREVIOUS" >&2; exit 2; }
    PREVIOUS=$(find "$unpacked" -mindepth 1 -maxdepth 1 -type d | head -n 1)
  fi
  if [[ -n "${PREVIOUS:-}" && "$PREVIOUS" != "$OUT" ]]; then
    [[ -d "$PREVIOUS/runs" ]] || { echo "FATAL: PREVIOUS=$PREVIOUS has no runs/ folder" >&2; exit 2; }
    cp -a "$PREVIOUS/runs/." "$OUT/runs/"
  fi
  : >> "$OUT/summary.txt"
  # The folder holds crucible-cli and crucible-worker, or a build folder holds them in bin/.
  if [[ -x "$build/bin/crucible-cli" ]]; then BIN="$build/bin"; else BIN="$build"; fi
  CLI="$BIN/crucible-cli"
  if [[ "$DRY_RUN" == 1 ]]; then
    exp_note "$name: DRY RUN (nothing is run; times are estimates at $S_PER_EVAL s/evaluation + $RUN_OVERHEAD_S s/run)"
    return 0
  fi
  local tool
  for tool in "$CLI" "$BIN/crucible-worker"; do
    if [[ ! -x "$tool" ]]; then
      exp_note "FATAL: $tool is missing or not executable (give the folder of a headless build)"
      exit 2
    fi
  done
  exp_note "$name $(date -u '+%Y-%m-%d %H:%M UTC')"
  "$CLI" version > "$OUT/version.txt" 2>&1 || exp_note "warning: crucible-cli version failed (see version.txt)"
  # The GPU the runs use: the first visible one.
  local gpu=${CUDA_VISIBLE_DEVICES:-0}
  gpu=${gpu%%,*}
  [[ "$gpu" =~ ^[0-9]+$ ]] || gpu=0
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader,nounits \
    -i "$gpu" > "$OUT/gpu.csv" 2>/dev/null || exp_note "warning: nvidia-smi gave no GPU identity"
  # SM and memory clocks every second while the runs go on (clocks.csv, appended across calls).
  nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem --format=csv,noheader,nounits -i "$gpu" -lms 1000 \
    >> "$OUT/clocks.csv" 2>/dev/null &
  EXP_SAMPLER=$!
  trap 'kill "$EXP_SAMPLER" 2>/dev/null' EXIT
}

# exp_spec NAME_OR_PATH: a task spec file (a path, or resources/tasks/NAME.json).
exp_spec() {
  if [[ -f "$1" ]]; then echo "$1"; else echo "resources/tasks/$1.json"; fi
}

# exp_task_name SPEC: the task's name in the spec file.
exp_task_name() {
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["name"])' "$1"
}

# exp_estimate BUDGET: estimated seconds of one run.
exp_estimate() {
  python3 -c "import sys; print(int(float('$RUN_OVERHEAD_S') + int('$1') * float('$S_PER_EVAL') + 0.5))"
}

# exp_time_left: seconds until the deadline.
exp_time_left() { echo $((DEADLINE_S - (SECONDS - EXP_STARTED))); }

# exp_cli_accepts COMMAND OPTION: whether `crucible-cli COMMAND --help` lists --OPTION (a build
# whose COMMAND has no --help lists nothing: the option counts as missing).
exp_cli_accepts() {
  [[ "$DRY_RUN" == 1 ]] && return 0
  "$CLI" "$1" --help 2>&1 | grep -q -- "--$2\b"
}

# exp_run KEY SPEC SEED BUDGET PROJECT ARM [crucible-cli run options...]
# One run in its own folder; a run already recorded (meta.json) is skipped. Returns 0 when it was
# run or recorded before, 1 when it failed, 2 when crucible-cli refused it (bad usage or no usable
# GPU: every later run would fail the same way), 3 when the deadline leaves no time for it.
exp_run() {
  local key=$1 spec=$2 seed=$3 budget=$4 project=$5 arm=$6
  shift 6
  local dir="$OUT/runs/$key"
  if [[ -f "$dir/meta.json" ]]; then
    exp_note "run $key: recorded before, kept"
    return 0
  fi
  local estimate left
  estimate=$(exp_estimate "$budget")
  if [[ "$DRY_RUN" == 1 ]]; then
    exp_note "would run $key (~${estimate} s): crucible-cli run --project $project --task $spec --seed $seed --budget $budget $*"
    EXP_PLANNED_S=$((${EXP_PLANNED_S:-0} + estimate))
    return 0
  fi
  left=$(exp_time_left)
  if ((estimate > left)); then
    exp_note "run $key: left out: ~${estimate} s estimated, ${left} s left before DEADLINE_S=$DEADLINE_S"
    EXP_SKIPPED=$((EXP_SKIPPED + 1))
    return 3
  fi
  mkdir -p "$dir"
  # The engine stops itself at twice the estimate (--minutes); the hard timeout is the backstop.
  local minutes hard started rc run
  minutes=$(python3 -c "print(round(max(1.0, 2 * $estimate) / 60, 2))")
  hard=$((2 * estimate + 45))
  ((hard > left)) && hard=$left
  started=$SECONDS
  timeout --signal=INT --kill-after=20 "$hard" \
    "$CLI" run --project "$project" --task "$spec" --seed "$seed" --budget "$budget" --minutes "$minutes" \
      --sanitize-timeout "$SANITIZE_TIMEOUT" "$@" > "$dir/run.log" 2>&1
  rc=$?
  local seconds=$((SECONDS - started))
  "$CLI" status --project "$project" --json > "$dir/status-all.json" 2> "$dir/status.err"
  # The run just made is the project's last one.
  run=$(python3 - "$dir/status-all.json" <<'EOF'
import json, sys
try:
    runs = json.load(open(sys.argv[1]))
    runs = runs if isinstance(runs, list) else runs.get("runs", [runs])
    print(max(r["run"] for r in runs))
except Exception:
    print(0)
EOF
)
  if [[ "$run" != 0 ]]; then
    "$CLI" status --project "$project" --run "$run" --json --log 40 > "$dir/status.json" 2>> "$dir/status.err"
    "$CLI" export --project "$project" --run "$run" --format json --out "$dir/export.json" 2> "$dir/export.err"
  fi
  python3 - "$dir/meta.json" "$key" "$(exp_task_name "$spec")" "$arm" "$seed" "$budget" "$rc" "$seconds" \
    "$run" "$project" <<'EOF'
import json, sys
path, key, task, arm, seed, budget, rc, seconds, run, project = sys.argv[1:]
json.dump({"key": key, "task": task, "arm": arm, "seed": int(seed), "budget": int(budget), "rc": int(rc),
           "seconds": int(seconds), "run": int(run), "project": project}, open(path, "w"))
EOF
  if [[ $rc -eq 0 ]]; then
    exp_note "run $key: ok in ${seconds} s: $(tail -n 1 "$dir/run.log")"
    return 0
  fi
  exp_note "run $key: FAILED (exit $rc) after ${seconds} s; last lines of runs/$key/run.log:"
  tail -n 5 "$dir/run.log" | sed 's/^/    /' | tee -a "$OUT/summary.txt"
  # 2: bad usage, 3: no usable GPU (crucible-cli's exit codes): every later run would fail alike,
  # and this one is not recorded, so that a later call (PREVIOUS) tries it again.
  if [[ $rc -eq 2 || $rc -eq 3 ]]; then
    mv "$dir/meta.json" "$dir/refused.json"
    return 2
  fi
  return 1
}

# exp_usage_stop KEY: the message when crucible-cli refused a run (exp_run returned 2).
exp_usage_stop() {
  exp_note "FATAL: crucible-cli refused run $1 (bad usage or no usable GPU, see runs/$1/run.log): stopping"
}

# exp_finish: the dry run's total, or how many runs the deadline left out.
exp_finish() {
  if [[ "$DRY_RUN" == 1 ]]; then
    exp_note "dry run: ~${EXP_PLANNED_S:-0} s estimated in all (DEADLINE_S=$DEADLINE_S per call)"
  elif ((EXP_SKIPPED > 0)); then
    exp_note "$EXP_SKIPPED run(s) left out by the deadline: call again with PREVIOUS=<this OUT> to add them"
  fi
}

# exp_pack TABLE: with PACK=1, $OUT becomes $OUT.md (TABLE, a file in $OUT) and $OUT.tar.gz.
exp_pack() {
  [[ "${PACK:-0}" == 1 && "$DRY_RUN" != 1 ]] || return 0
  kill "$EXP_SAMPLER" 2>/dev/null
  [[ -f "$OUT/$1" ]] && cp "$OUT/$1" "$OUT.md"
  [[ "${KEEP_PROJECTS:-0}" == 1 ]] || find "$OUT" -name '*.crucible*' -delete
  rm -rf "$OUT.previous"
  tar czf "$OUT.tar.gz" -C "$(dirname "$OUT")" "$(basename "$OUT")" && rm -rf "$OUT"
}
