#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Which carveout preferences keep the judge honest, and what each does to the
kernels' own times: every memory-bound task's baseline timed against itself,
under each preference the harness can ask the driver for
(backends/cuda/worker/shared_carveout.h), side by side in one run.

  carveout_sweep.py OUT.md CARVEOUT_SWEEP_BINARY [--preferences unset,least,0,7,16,100]
                    [--tasks a,b] [--rounds N]

Every (task, preference) evaluation runs in a fresh process
(build/headless/bin/carveout_sweep), since what ran before in a process moves
where its buffers lie; the preferences' order turns each round. A preference is
honest when every task's speedup against itself stays within 2% in every round
(the GPU test SelfTiming's bar). The table also gives each side's median time,
since the preference moves the kernels' own times too.
"""
import argparse
import datetime
import statistics
import subprocess
import sys

MEMORY_BOUND = ["softmax_f32_8192x4096", "layernorm_f32_8192x4096", "rmsnorm_bf16_8192x8192",
                "rowsum_f32_8192x8192", "transpose_f32_8192x8192", "gelu_f32_67108864",
                "cross_entropy_f32_8192x32000"]
HONEST_WITHIN = 0.02


def parse_fields(line):
    """'sweep a=1 b=x' -> ('sweep', {'a': '1', 'b': 'x'}); None for any other line."""
    words = line.split()
    if not words or words[0] not in ("sweep", "device"):
        return None
    fields = {}
    for w in words[1:]:
        key, sep, value = w.partition("=")
        if not sep:
            return None
        fields[key] = value
    return words[0], fields


def honest(speedups):
    return bool(speedups) and all(abs(s - 1) <= HONEST_WITHIN for s in speedups)


def render(samples, failures, device, tasks, preferences, rounds, now):
    """samples: {(task, preference): [fields of one 'sweep' line]}; failures: {(task, preference): [why]}."""
    out = [f"# Carveout preference against self-timing on {device.get('gpu', '?').replace('_', ' ')}\n",
           f"Run {now}; driver {device.get('driver', '?')}, SM {device.get('sm_mhz', '?')} MHz, memory "
           f"{device.get('mem_mhz', '?')} MHz. `tests/bench/carveout_sweep.py`, {rounds} round(s), each "
           "evaluation in a fresh process, the preferences' order turning each round. A cell: the speedup "
           "of the task's baseline against itself that strays most from 1 over the rounds, then the "
           "median candidate / reference time in us. Honest: every task within "
           f"{HONEST_WITHIN:.0%} in every round.\n",
           "| task | " + " | ".join(preferences) + " |",
           "|---|" + "---|" * len(preferences)]
    for task in tasks:
        cells = []
        for p in preferences:
            rows = samples.get((task, p), [])
            if not rows:
                cells.append("failed: " + "; ".join(failures.get((task, p), ["no result"]))[:120])
                continue
            sp = [float(r["speedup"]) for r in rows]
            worst = max(sp, key=lambda s: abs(s - 1))
            cand = statistics.median(float(r["candidate_us"]) for r in rows)
            ref = statistics.median(float(r["reference_us"]) for r in rows)
            mark = "" if honest(sp) else "**"
            cells.append(f"{mark}{worst:.3f}{mark} ({cand:.1f} / {ref:.1f})")
        out.append(f"| {task} | " + " | ".join(cells) + " |")
    verdict = []
    for p in preferences:
        ok = all(honest([float(r["speedup"]) for r in samples.get((t, p), [])]) for t in tasks)
        verdict.append("yes" if ok else "no")
    out.append("| honest | " + " | ".join(verdict) + " |")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("binary")
    ap.add_argument("--preferences", default="unset,least,0,7,16,100")
    ap.add_argument("--tasks", default=",".join(MEMORY_BOUND))
    ap.add_argument("--rounds", type=int, default=2)
    a = ap.parse_args()
    tasks = [t for t in a.tasks.split(",") if t]
    preferences = [p for p in a.preferences.split(",") if p]
    samples, failures, device = {}, {}, {}
    for r in range(a.rounds):
        turn = r % len(preferences)
        order = preferences[turn:] + preferences[:turn]
        for task in tasks:
            for p in order:
                proc = subprocess.run([a.binary, p, task], capture_output=True, text=True, timeout=300)
                got = False
                for line in proc.stdout.splitlines():
                    parsed = parse_fields(line)
                    if not parsed:
                        continue
                    kind, fields = parsed
                    if kind == "device":
                        device = fields
                    else:
                        samples.setdefault((task, p), []).append(fields)
                        got = True
                        print(f"{task} {p}: speedup {fields.get('speedup')} ({fields.get('candidate_us')} / "
                              f"{fields.get('reference_us')} us)", flush=True)
                if not got:
                    why = (proc.stderr.strip().splitlines() or [f"exit {proc.returncode}"])[-1]
                    failures.setdefault((task, p), []).append(why)
                    print(f"{task} {p}: {why}", flush=True)
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    with open(a.out, "w") as f:
        f.write(render(samples, failures, device, tasks, preferences, a.rounds, now))
    return 0 if samples else 1


if __name__ == "__main__":
    sys.exit(main())
