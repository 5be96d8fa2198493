# SPDX-License-Identifier: GPL-3.0-or-later
"""What the issue 19 table makers share: reading the runs a driver recorded (lib.sh: runs/<key>/
meta.json, status.json, export.json), best-so-far curves, medians and spreads, and the header that
says when, on what GPU, driver and clocks the figures were measured."""
import csv
import datetime
import json
import statistics
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

# Candidate statuses that are not an evaluation's result (core/model/enums.cpp).
NOT_EVALUATED = {"proposed", "awaiting-review", "rejected", "reference", "compiled"}


@dataclass
class RunRecord:
    key: str
    task: str
    arm: str
    seed: int
    budget: int
    rc: int
    seconds: int
    status: dict = field(default_factory=dict)   # crucible-cli status --run --json, [] -> {}
    candidates: list = field(default_factory=list)   # crucible-cli export --run, id order

    @property
    def run_status(self):
        return self.status.get("status", "missing")

    @property
    def ok(self):
        """The run ended as the engine intended (its budget, its time, or an exhausted space)."""
        return self.rc == 0 and self.run_status == "finished"

    @property
    def curve(self):
        return best_so_far(self.candidates)

    @property
    def evaluations(self):
        return len(self.curve)

    @property
    def final_best(self):
        """The engine's best speedup over the run's reference (its own record), else the curve's end."""
        if "best_speedup" in self.status:
            return float(self.status["best_speedup"])
        return self.curve[-1] if self.curve else 0.0

    @property
    def finish_reason(self):
        for line in reversed(self.status.get("log", [])):
            text = line.get("text", "")
            if text.startswith("run finished: ") or text.startswith("run failed: "):
                return text.split(": ", 1)[1]
        return ""


def evaluated(candidates):
    """The candidates that took an evaluation, in the order the engine committed them (id order)."""
    rows = sorted(candidates, key=lambda c: c["id"])
    return [c for c in rows if c.get("status") not in NOT_EVALUATED
            and not str(c.get("status_detail", "")).startswith("duplicate:")]


def best_so_far(candidates):
    """best[i]: the best valid fitness among the first i+1 evaluations (0 while none is valid)."""
    best, out = 0.0, []
    for c in evaluated(candidates):
        if c.get("status") == "valid" and c.get("fitness") is not None:
            best = max(best, float(c["fitness"]))
        out.append(best)
    return out


def evaluations_to_reach(curve, target):
    """1-based count of evaluations until curve reaches target; None when it never does."""
    for i, value in enumerate(curve):
        if value >= target:
            return i + 1
    return None


def load_json(path, default):
    try:
        return json.loads(Path(path).read_text())
    except (OSError, ValueError):
        return default


def load_runs(results):
    """Every run a driver recorded under results/runs, sorted by key."""
    runs = []
    for meta_path in sorted(Path(results, "runs").glob("*/meta.json")):
        meta = load_json(meta_path, None)
        if not meta:
            continue
        status = load_json(meta_path.with_name("status.json"), [])
        status = status[0] if isinstance(status, list) and status else status if isinstance(status, dict) else {}
        candidates = load_json(meta_path.with_name("export.json"), [])
        runs.append(RunRecord(meta["key"], meta["task"], meta["arm"], int(meta["seed"]), int(meta["budget"]),
                              int(meta["rc"]), int(meta.get("seconds", 0)), status,
                              candidates if isinstance(candidates, list) else []))
    return runs


def spread(values):
    """(median, min, max) of the values, None when there are none."""
    values = [v for v in values if v is not None]
    if not values:
        return None
    return statistics.median(values), min(values), max(values)


def fmt_spread(s, digits=3, suffix=""):
    if s is None:
        return "—"
    median, low, high = s
    if low == high:
        return f"{median:.{digits}f}{suffix}"
    return f"{median:.{digits}f}{suffix} [{low:.{digits}f}–{high:.{digits}f}]"


def percent(x):
    return f"{x * 100:+.1f}%"


# ----------------------------------------------------------------------------------------------
# Where and when: the GPU as the driver recorded it (gpu.csv, clocks.csv), else nvidia-smi now.

def nvidia_smi_now(query):
    try:
        out = subprocess.run(["nvidia-smi", f"--query-gpu={query}", "--format=csv,noheader,nounits"],
                             capture_output=True, text=True, timeout=30)
        return out.stdout.strip().splitlines()[0] if out.returncode == 0 and out.stdout.strip() else None
    except (OSError, subprocess.TimeoutExpired):
        return None


def gpu_identity(results):
    """(name, driver, max SM MHz, max memory MHz) or None."""
    text = None
    try:
        text = Path(results, "gpu.csv").read_text().strip().splitlines()[0]
    except (OSError, IndexError):
        text = nvidia_smi_now("name,driver_version,clocks.max.sm,clocks.max.mem")
    if not text:
        return None
    parts = [p.strip() for p in text.split(",")]
    return tuple(parts) if len(parts) == 4 else None


def clock_summary(results):
    """'SM a / b / c MHz (min / median / max), memory ...' over clocks.csv's samples, or None."""
    sm, mem = [], []
    try:
        with open(Path(results, "clocks.csv"), newline="") as f:
            for row in csv.reader(f):
                try:
                    sm.append(float(row[1]))
                    mem.append(float(row[2]))
                except (IndexError, ValueError):
                    continue
    except OSError:
        return None
    if not sm:
        return None
    return (f"SM {min(sm):.0f} / {statistics.median(sm):.0f} / {max(sm):.0f} MHz, memory {min(mem):.0f} / "
            f"{statistics.median(mem):.0f} / {max(mem):.0f} MHz (min / median / max of {len(sm)} samples, "
            "one a second while the runs went on)")


def header_lines(title, results, runs, extra=()):
    identity = gpu_identity(results)
    version = ""
    try:
        version = Path(results, "version.txt").read_text().strip().splitlines()[0]
    except (OSError, IndexError):
        pass
    budgets = sorted({r.budget for r in runs})
    seeds = sorted({r.seed for r in runs})
    lines = [f"# {title}", "",
             f"- date: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')} "
             "(table written; the runs' own times are in summary.txt)",
             (f"- GPU: {identity[0]}, driver {identity[1]}, max clocks SM {identity[2]} MHz / memory "
              f"{identity[3]} MHz" if identity else "- GPU: unknown (no gpu.csv and no nvidia-smi)"),
             f"- clocks during the runs: {clock_summary(results) or 'not sampled'}",
             f"- crucible: {version or 'version not recorded'}",
             f"- budgets (evaluations per run): {', '.join(map(str, budgets)) or '—'}; "
             f"seeds: {', '.join(map(str, seeds)) or '—'}; runs: {len(runs)} "
             f"({sum(not r.ok for r in runs)} did not finish cleanly)"]
    lines += list(extra)
    return lines + [""]


def failed_run_lines(runs, heading="Runs that did not finish cleanly:"):
    """The runs that did not finish cleanly, for under a table ([] when none)."""
    failed = [r for r in runs if not r.ok]
    if not failed:
        return []
    return ([heading, ""] +
            [f"- {r.key}: exit {r.rc}, status {r.run_status}: {r.finish_reason or 'no reason recorded'}"
             for r in failed] + [""])


def write_curves(runs, path, arm_header):
    """Every run's best-so-far curve as CSV: task, arm (named arm_header), seed, evaluation, best."""
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["task", arm_header, "seed", "evaluation", "best"])
        for r in runs:
            for i, best in enumerate(r.curve):
                w.writerow([r.task, r.arm, r.seed, i + 1, f"{best:.6f}"])
