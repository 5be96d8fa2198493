#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""What the harness costs per evaluation, for two builds side by side in one
run (issue 12 allowed the adversarial harness at most 15% fewer evaluations
per GPU-minute than the one before it).

  harness_cost.py OUT.md NAME=CRUCIBLE_CLI [NAME=CRUCIBLE_CLI ...] [--tasks a,b] [--rounds N]

For each task, the task's own baseline kernel is evaluated (validated with the
default seeds, timed against the same baseline, no profile) by every build in
turn, N rounds, alternating, so that clock drift falls on all alike. The
figure is the worker's gpuSeconds for one evaluation; evaluations per
GPU-minute = 60 / gpuSeconds.
"""
import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile

MEMORY_BOUND = ["softmax_f32_8192x4096", "layernorm_f32_8192x4096", "rmsnorm_bf16_8192x8192",
                "rowsum_f32_8192x8192", "transpose_f32_8192x8192", "gelu_f32_67108864",
                "cross_entropy_f32_8192x32000"]


def baseline_source(tasks_dir, task):
    with open(os.path.join(tasks_dir, task + ".json")) as f:
        spec = json.load(f)
    src = spec["baseline"]["source"]
    return "\n".join(src) if isinstance(src, list) else src


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("builds", nargs="+")
    ap.add_argument("--tasks", default=",".join(MEMORY_BOUND))
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--tasks-dir", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../resources/tasks"))
    a = ap.parse_args()
    builds = [b.split("=", 1) for b in a.builds]
    work = tempfile.mkdtemp(prefix="crucible-harness-cost-")
    results = {}  # (task, build) -> [seconds]
    speedups = {}  # (task, build) -> [(speedup of the baseline against itself, timed samples)]
    device = {}
    for task in filter(None, a.tasks.split(",")):
        kernel = os.path.join(work, task + ".cu")
        with open(kernel, "w") as f:
            f.write(baseline_source(a.tasks_dir, task))
        for r in range(a.rounds):
            for name, cli in (builds if r % 2 == 0 else list(reversed(builds))):
                p = subprocess.run([cli, "eval", "--task", task, "--kernel", kernel, "--json", "--no-profile"],
                                   capture_output=True, text=True, timeout=600)
                try:
                    out = json.loads(p.stdout)
                except json.JSONDecodeError:
                    print(f"{task} {name}: no JSON ({p.returncode}): {p.stderr[-300:]}", flush=True)
                    continue
                device = out.get("device", device)
                results.setdefault((task, name), []).append(out.get("gpuSeconds", 0.0))
                timing = out.get("timing") or {}
                if timing.get("speedup"):
                    # The baseline is timed against itself: how far its speedup strays from 1 is the
                    # timing's noise, and how many samples it took is its cost.
                    speedups.setdefault((task, name), []).append((timing["speedup"], timing.get("samples", 0)))
                print(f"{task} {name}: {out.get('status')} {out.get('gpuSeconds', 0):.2f} s  {out.get('detail', '')[:300]}",
                      flush=True)
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    names = [n for n, _ in builds]
    with open(a.out, "w") as f:
        f.write(f"# Harness cost per evaluation on {device.get('gpu', '?')}\n\n")
        f.write(f"Run {now}; driver {device.get('driver', '?')}, CUDA {device.get('cuda', '?')}. "
                f"`tests/bench/harness_cost.py`, {a.rounds} rounds, builds alternating. Each figure is the "
                "median gpuSeconds of one `crucible-cli eval` of the task's baseline (3 validation seeds, "
                "timed against itself, no profile); evaluations per GPU-minute = 60 / that.\n\n")
        f.write("| task | " + " | ".join(f"{n}: s/eval | {n}: eval/GPU-min" for n in names) +
                (f" | {names[1]} vs {names[0]} (evaluations/min)" if len(names) == 2 else "") + " |\n")
        f.write("|---|" + "---|---|" * len(names) + ("---|" if len(names) == 2 else "") + "\n")
        per_build = {n: [] for n in names}
        for task in filter(None, a.tasks.split(",")):
            cells, med = [], {}
            for n in names:
                v = results.get((task, n), [])
                if v:
                    med[n] = statistics.median(v)
                    per_build[n].append(med[n])
                    cells.append(f"{med[n]:.2f} | {60 / med[n]:.1f}")
                else:
                    cells.append("- | -")
            ratio = ""
            if len(names) == 2 and all(n in med for n in names):
                ratio = f" | {med[names[0]] / med[names[1]]:.2f}x"
            elif len(names) == 2:
                ratio = " | -"
            f.write(f"| {task} | " + " | ".join(cells) + ratio + " |\n")
        if all(per_build[n] for n in names):
            gm = {n: statistics.geometric_mean(per_build[n]) for n in names}
            f.write("| geometric mean | " + " | ".join(f"{gm[n]:.2f} | {60 / gm[n]:.1f}" for n in names) +
                    (f" | {gm[names[0]] / gm[names[1]]:.2f}x" if len(names) == 2 else "") + " |\n")
        f.write("\nTiming precision: the baseline timed against itself, so its speedup should be 1; "
                "the largest |speedup - 1| over the rounds, and the median number of timed samples.\n\n")
        f.write("| task | " + " | ".join(f"{n}: max abs(speedup - 1) | {n}: samples" for n in names) + " |\n")
        f.write("|---|" + "---|---|" * len(names) + "\n")
        for task in filter(None, a.tasks.split(",")):
            cells = []
            for n in names:
                v = speedups.get((task, n), [])
                cells.append(f"{max(abs(x - 1) for x, _ in v):.2%} | {statistics.median(c for _, c in v):.0f}"
                             if v else "- | -")
            f.write(f"| {task} | " + " | ".join(cells) + " |\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
