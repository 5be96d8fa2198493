#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The recorded model replies' kernels on a real GPU: each kernel reply in
# tests/backends/llm/replies/ (and the parent edited by edit_unroll_shuffle.md)
# is validated and timed against the rowabsmax test task with crucible-cli eval.
#   tests/backends/llm/check-replays-on-device.sh BIN_DIR    (BIN_DIR holds crucible-cli and crucible-worker)
# Writes $OUT/replays.txt (one verdict line per kernel) and the eval outputs.
set -u
BIN=${1:?usage: $0 BIN_DIR}
OUT=${OUT:-$PWD/replay-out}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT/kernels"
python3 - "$HERE" "$OUT/kernels" <<'PY'
import json, re, sys, pathlib
here, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
header = (here / "llm_test_task.h").read_text()
(out / "task.json").write_text(re.search(r'kRowAbsMaxSpec = R"JSON\((.*?)\)JSON"', header, re.S).group(1))
def blocks(text):
    return re.findall(r"^```(\w*)[^\n]*\n(.*?)^```", text, re.S | re.M)
for reply in ["kernel_warp_per_row.md", "kernel_compile_error.md"]:
    b = dict((lang, body) for lang, body in blocks((here / "replies" / reply).read_text()))
    name = reply[:-3]
    (out / f"{name}.cu").write_text(b["cuda"])
    (out / f"{name}.launch.json").write_text(b["json"])
# The edit applied to the warp-per-row parent (exact match, as the proposer applies it).
parent = (out / "kernel_warp_per_row.cu").read_text()
edit = (here / "replies" / "edit_unroll_shuffle.md").read_text()
search, replace = re.search(r"<<<<<<< SEARCH\n(.*?)=======\n(.*?)>>>>>>> REPLACE", edit, re.S).groups()
assert parent.count(search) == 1
(out / "edit_unroll_shuffle.cu").write_text(parent.replace(search, replace))
(out / "edit_unroll_shuffle.launch.json").write_text((out / "kernel_warp_per_row.launch.json").read_text())
PY
: > "$OUT/replays.txt"
for k in kernel_warp_per_row edit_unroll_shuffle kernel_compile_error; do
  "$BIN/crucible-cli" eval --task "$OUT/kernels/task.json" --kernel "$OUT/kernels/$k.cu" \
      --launch "$OUT/kernels/$k.launch.json" --seeds 3 --no-profile > "$OUT/$k.txt" 2>&1
  echo "$k: exit $? ($(grep -m1 -iE 'valid|error|fail' "$OUT/$k.txt"))" | tee -a "$OUT/replays.txt"
done
