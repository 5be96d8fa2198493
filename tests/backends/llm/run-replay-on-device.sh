#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 15's replay run with real evaluation, and issue 17's fork from the CLI,
# on a GPU machine:
#   tests/backends/llm/run-replay-on-device.sh BIN_DIR
# 1. starts replay_server.py on loopback (the recorded replies, chosen by what is asked);
# 2. crucible-cli run --proposer llm on the rowabsmax task (a family no template knows), with
#    the real worker: the replayed kernels compile, validate, are timed and profiled;
# 3. lists the run's candidates with parents, statuses and figures (the lineage), `runs` (the
#    model accounting) and checks that the key set in the environment is in no file written;
# 4. forks the fastest warp-per-row candidate with a hand edit (8 rows per block instead of 4,
#    its launch rule changed to match) through crucible-cli fork, and shows it joined the lineage.
# Writes $OUT/replay-run.txt (everything above) and $OUT/replay.crucible.
set -uo pipefail
BIN=${1:?usage: $0 BIN_DIR}
OUT=${OUT:-$PWD/replay-out}
HERE=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/crucible-replay.XXXXXX)
mkdir -p "$OUT"
report="$OUT/replay-run.txt"
project="$work/replay.crucible"
export CRUCIBLE_REPLAY_KEY="replay-secret-$(date +%s%N)"   # must appear in no file the project writes

python3 "$HERE/replay_server.py" "$work/port" "$work/requests.jsonl" &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do [[ -s "$work/port" ]] && break; sleep 0.1; done
port=$(cat "$work/port")

python3 - "$HERE/llm_test_task.h" "$work/task.json" <<'PY'
import re, sys, pathlib
header = pathlib.Path(sys.argv[1]).read_text()
pathlib.Path(sys.argv[2]).write_text(re.search(r'kRowAbsMaxSpec = R"JSON\((.*?)\)JSON"', header, re.S).group(1))
PY
cat > "$work/settings.json" <<EOF
{"api": "openai", "endpoint": "http://127.0.0.1:$port/v1", "apiKeyEnv": "CRUCIBLE_REPLAY_KEY",
 "models": [{"name": "replay-model", "priceInPerMTok": 3.0, "priceOutPerMTok": 15.0}],
 "concurrency": 2, "repairTurns": 2, "timeoutSeconds": 30}
EOF

{
  echo "== $(date -u '+%Y-%m-%d %H:%M UTC'); $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader 2>&1)"
  echo "== crucible-cli run --proposer llm (replay server on 127.0.0.1:$port)"
  timeout --signal=INT --kill-after=20 240 "$BIN/crucible-cli" run --project "$project" --task "$work/task.json" \
    --proposer llm --llm-settings "$work/settings.json" --budget 14 --minutes 2 2>&1 | tail -n 25
  echo "exit ${PIPESTATUS[0]}"
  echo "== crucible-cli runs"
  "$BIN/crucible-cli" runs --project "$project" 2>&1
  echo "== requests served (choice per request)"
  python3 -c "
import collections, json, re, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
print(len(rows), 'requests:', dict(collections.Counter(re.sub(r' \\d+$', '', r['choice']) for r in rows)))
print('Authorization header sent on every request:', all(r['authorization_sent'] for r in rows))
" "$work/requests.jsonl"
  echo "== the lineage (candidates of run 1)"
  python3 - "$project" <<'PY'
import json, sqlite3, sys
db = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
parents = {}
for child, parent in db.execute("SELECT child_id, parent_id FROM lineage ORDER BY child_id, position"):
    parents.setdefault(child, []).append(parent)
print("id | parents | proposer | status | median µs | speedup | regs | detail")
for cid, proposer, status, median, speedup, regs, detail in db.execute(
        "SELECT id, proposer, status, median_us, speedup, registers, status_detail FROM candidates ORDER BY id"):
    print(f"{cid} | {parents.get(cid, [])} | {proposer} | {status} | {median:.2f} | {speedup:.2f} | {regs} | "
          f"{detail.splitlines()[0][:90] if detail else ''}")
PY
} > "$report" 2>&1

# 4. The fork: the fastest valid warp-per-row candidate, edited by hand to 8 rows per block.
python3 - "$project" "$work" >> "$report" 2>&1 <<'PY'
import json, sqlite3, sys, pathlib
db = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
work = pathlib.Path(sys.argv[2])
row = db.execute("""SELECT c.id, s.source, c.launch_json, c.median_us FROM candidates c
                    JOIN candidate_sources s ON s.candidate_id = c.id
                    WHERE c.status = 'valid' AND s.source LIKE '%blockIdx.x * 4 + threadIdx.x / 32%'
                    ORDER BY c.median_us LIMIT 1""").fetchone()
if row is None:
    print("== fork: no valid warp-per-row candidate to fork")
    sys.exit(0)
cid, source, launch, median = row
edited = source.replace("blockIdx.x * 4 + threadIdx.x / 32", "blockIdx.x * 8 + threadIdx.x / 32")
rule = json.loads(launch)
rule["grid"] = ["ceil_div(M, 8)", "1", "1"]
rule["block"] = ["256", "1", "1"]
(work / "edited.cu").write_text(edited)
(work / "edited.launch.json").write_text(json.dumps(rule))
(work / "fork-parent").write_text(str(cid))
print(f"== fork of candidate #{cid} ({median:.2f} µs): 8 rows per 256-thread block instead of 4 per 128")
PY
if [[ -f "$work/fork-parent" ]]; then
  {
    "$BIN/crucible-cli" fork --project "$project" --candidate "$(cat "$work/fork-parent")" --kernel "$work/edited.cu" \
      --launch "$work/edited.launch.json" --note "8 rows per block: fewer blocks, same loads" 2>&1
    echo "fork exit $?"
    python3 - "$project" <<'PY'
import sqlite3, sys
db = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
for cid, proposer, status, median, speedup, parent in db.execute(
        """SELECT c.id, c.proposer, c.status, c.median_us, c.speedup, l.parent_id FROM candidates c
           LEFT JOIN lineage l ON l.child_id = c.id WHERE c.proposer = 'user'"""):
    print(f"user candidate #{cid}: parent #{parent}, {status}, {median:.2f} µs, {speedup:.2f}x the reference")
PY
  } >> "$report" 2>&1
fi

{
  echo "== the key in files written"
  hits=$(grep -rl --binary-files=text "$CRUCIBLE_REPLAY_KEY" "$work" 2>/dev/null | grep -v requests.jsonl || true)
  if [[ -z "$hits" ]]; then echo "the key appears in no file under the run's folder"; else echo "KEY FOUND IN: $hits"; fi
} >> "$report" 2>&1
cp "$project" "$OUT/replay.crucible"
cat "$report"
