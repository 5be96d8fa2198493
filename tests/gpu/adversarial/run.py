#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Runs the adversarial corpus (corpus.py) through `crucible-cli eval` on the
GPU at hand and writes a results table: for every kernel the status and
reason the harness gave, whether that is what the corpus expects, and the
sanitizer's verdict where the corpus asks for one.

  run.py CRUCIBLE_CLI OUT.md [--task NAME] [--only NAME,...]

Exit status 0 when every kernel got the expected answer, 1 otherwise.
"""
import argparse
import datetime
import json
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import corpus  # noqa: E402


def run_eval(cli, task, kernel, extra, timeout):
    cmd = [cli, "eval", "--task", task, "--kernel", kernel, "--json", "--no-profile"] + extra
    start = time.time()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"status": "harness-timeout", "detail": f"crucible-cli eval did not return within {timeout} s"}, time.time() - start
    try:
        out = json.loads(p.stdout)
    except json.JSONDecodeError:
        out = {"status": f"exit {p.returncode}", "detail": (p.stdout + p.stderr)[-600:]}
    out["_stderr"] = p.stderr[-2000:]
    return out, time.time() - start


def reasons(out):
    text = out.get("detail", "")
    for t in out.get("trials", []):
        text += " | " + t.get("reason", "")
    return text


def sanitizer_verdict(out, want):
    """Whether the sanitizer part of an `eval --sanitize --json` answer is
    what the corpus wants ("clean", or the name of the tool that must report),
    and that part in words."""
    s = out.get("sanitizer")
    if not isinstance(s, dict):
        return False, "no sanitizer report in the output: " + out.get("detail", "")[:300]
    tools = sorted({f.get("tool", "?") for f in s.get("findings", [])})
    if not s.get("ran"):
        text = "did not run: " + s.get("unavailableReason", "")
    elif s.get("clean"):
        text = f"clean ({', '.join(s.get('tools', []))}; {s.get('seconds', 0):.0f} s)"
    else:
        first = s.get("findings", [{}])[0].get("message", "") if s.get("findings") else ""
        text = f"findings from {', '.join(tools)}: {first[:200]}"
    ok = bool(s.get("ran")) and (s.get("clean") if want == "clean" else (not s.get("clean") and want in tools))
    return ok, text


def write_table(path, task, sanitize_task, device, rows):
    failures = sum(1 for r in rows if not r[3])
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    with open(path, "w") as f:
        f.write(f"# Adversarial corpus on {device.get('gpu', '?')} ({task})\n\n")
        f.write(f"Run {now}; driver {device.get('driver', '?')}, CUDA {device.get('cuda', '?')}, "
                f"NVRTC {device.get('nvrtc', '?')}; `tests/gpu/adversarial/run.py` with the corpus in "
                f"`tests/gpu/adversarial/corpus.py`; sanitizers on {sanitize_task}. "
                f"{len(rows) - failures} of {len(rows)} answered as expected.\n\n")
        f.write("| kernel | behaviour | expected | got | speedup | as expected | reason given | sanitizer |\n")
        f.write("|---|---|---|---|---|---|---|---|\n")
        for e, status, why, ok, secs, san, speed in rows:
            clean = why.replace("|", "/").replace("\n", " ")[:500]
            sp = f"{speed:.2f}x" if speed else ""
            f.write(f"| {e['name']} | {e['what']} | {e['expect']} | {status} | {sp} | {'yes' if ok else 'NO'} | "
                    f"{clean} | {san.replace('|', '/')} |\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cli")
    ap.add_argument("out")
    ap.add_argument("--task", default="softmax_f32_8192x4096")
    ap.add_argument("--only", default="")
    ap.add_argument("--timeout", type=int, default=300)
    # The sanitizers slow kernels down by orders of magnitude: they run on the
    # task at a smaller shape (the corpus kernels take their sizes as scalars).
    ap.add_argument("--sanitize-task", default="softmax_f32_1024x1024")
    ap.add_argument("--sanitize-timeout", type=int, default=120)
    a = ap.parse_args()
    only = set(filter(None, a.only.split(",")))
    work = tempfile.mkdtemp(prefix="crucible-adversarial-")
    corpus.main(["corpus.py", "write", work])
    rows, failures, device = [], 0, {}
    for e in corpus.CORPUS:
        if only and e["name"] not in only:
            continue
        kernel = os.path.join(work, e["name"] + ".cu")
        out, secs = run_eval(a.cli, a.task, kernel, [], a.timeout)
        device = out.get("device", device)
        status = out.get("status", "?")
        why = reasons(out)
        ok = re.fullmatch(e["expect"], status) is not None and re.search(e["reason"], why) is not None
        san = ""
        if e.get("sanitize"):
            sout, ssecs = run_eval(a.cli, a.sanitize_task, kernel,
                                   ["--sanitize", "--seeds", "1", "--sanitize-timeout", str(a.sanitize_timeout)],
                                   a.sanitize_timeout * 4 + 60)
            # The tools' own reports, all in one file beside the table.
            with open(os.path.splitext(a.out)[0] + "-sanitizer-logs.txt", "a") as f:
                f.write(f"===== {e['name']} ({ssecs:.0f} s)\n")
                s = sout.get("sanitizer")
                f.write((s.get("log", "") or json.dumps(s)) if isinstance(s, dict) else json.dumps(sout)[:4000])
                f.write("\n")
            san_ok, san = sanitizer_verdict(sout, e["sanitize"])
            ok = ok and san_ok
            san = f"{'ok' if san_ok else 'UNEXPECTED'} ({ssecs:.0f} s): {san[:400]}"
        failures += 0 if ok else 1
        speed = out.get("timing", {}).get("speedup")
        rows.append((e, status, why, ok, secs, san, speed))
        write_table(a.out, a.task, a.sanitize_task, device, rows)   # after every kernel: a cut-off run keeps its rows
        print(f"{'ok ' if ok else 'BAD'} {e['name']}: {status} ({secs:.1f} s) {why[:200]} {san[:200]}", flush=True)
        sys.stdout.flush()
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
