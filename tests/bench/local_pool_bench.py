#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Candidates evaluated per GPU-minute: the engine with one worker against the
local pool (one worker per visible GPU), read from the two runs' project files.

tests/bench/local_pool_bench.sh runs `crucible-cli run` twice and calls this
with each project, its log and the GPUs it was given:

  local_pool_bench.py --run alone:PROJECT:LOG:GPUS --run pool:PROJECT:LOG:GPUS
                      [--title TEXT] [--out TABLE.md] [--smi NVIDIA_SMI_CSV]

Everything counted comes from the project (python3's sqlite3 module; no
sqlite3 command needed): the run's evaluations, wall and GPU seconds, the
candidates by status, the seals, and the device each timing names (the
per-result fingerprint). The pool's worker count comes from the run's log
("evaluating on: N GPU worker(s)"), else the GPUs it was given.

Exit status: 0 when the pool evaluated at least as many candidates per wall
minute as the engine alone, 1 when it did not, 2 when a run cannot be read.
"""
import argparse
import datetime
import json
import re
import sqlite3
import statistics
import sys
from pathlib import Path

# Statuses of candidates the engine finished with (the reference excluded).
EVALUATED = ("valid", "invalid", "faulted", "timed-out", "resource-error", "compile-failed")
ON_GPU = ("valid", "invalid", "faulted", "timed-out", "resource-error")


class BenchError(Exception):
    pass


def read_run(project):
    """The latest run of a project file: its counters, candidates and the devices its timings name."""
    path = Path(project)
    if not path.is_file():
        raise BenchError(f"{project}: no project file (did the run start?)")
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error as e:
        raise BenchError(f"{project}: cannot open: {e}") from e
    try:
        row = db.execute(
            "SELECT id, status, evaluations_done, wall_seconds_used, gpu_seconds_used, best_speedup "
            "FROM runs ORDER BY id DESC LIMIT 1").fetchone()
        if row is None:
            raise BenchError(f"{project}: holds no run")
        run_id, status, evaluations, wall, gpu, best = row
        by_status = dict(db.execute(
            "SELECT status, COUNT(*) FROM candidates WHERE run_id = ? GROUP BY status", (run_id,)).fetchall())
        devices, hosts, clocks, unrecorded = {}, set(), [], 0
        for (timing_json,) in db.execute(
                "SELECT timing_json FROM candidates WHERE run_id = ? AND timing_json IS NOT NULL "
                "AND status != 'reference'", (run_id,)):
            timing = json.loads(timing_json)
            device = timing.get("device")
            if not device or not device.get("gpu"):
                unrecorded += 1
            else:
                key = (device["gpu"], device.get("arch", ""), device.get("driver", ""), device.get("smCount", 0))
                devices[key] = devices.get(key, 0) + 1
                hosts.add(device.get("host", ""))
            clock = timing.get("smClockMHz")
            if isinstance(clock, (int, float)) and clock > 0:
                clocks.append(clock)
        seals = db.execute("SELECT COUNT(*) FROM seals WHERE run_id = ?", (run_id,)).fetchone()[0]
    except sqlite3.Error as e:
        raise BenchError(f"{project}: not a readable Crucible project: {e}") from e
    finally:
        db.close()
    return {
        "run": run_id, "status": status, "evaluations": evaluations, "wall_s": wall, "gpu_s": gpu,
        "best": best, "by_status": by_status, "devices": devices, "hosts": hosts,
        "sm_clock_mhz": statistics.median(clocks) if clocks else None, "unrecorded": unrecorded,
        "seals": seals,
    }


def workers_from_log(log):
    """N of the log's "evaluating on: N GPU worker(s)" line, or None."""
    try:
        text = Path(log).read_text(errors="replace")
    except OSError:
        return None
    m = re.search(r"evaluating on: (\d+) GPU worker\(s\)", text)
    return int(m.group(1)) if m else None


def rates(r, workers):
    """Evaluations per wall minute, per GPU-minute held (workers x wall) and per GPU-minute used."""
    wall_min = r["wall_s"] / 60 if r["wall_s"] and r["wall_s"] > 0 else None
    gpu_min = r["gpu_s"] / 60 if r["gpu_s"] and r["gpu_s"] > 0 else None
    n = r["evaluations"]
    return {
        "per_wall_min": n / wall_min if wall_min else None,
        "per_gpu_min_held": n / (wall_min * workers) if wall_min and workers else None,
        "per_gpu_min_used": n / gpu_min if gpu_min else None,
    }


def fmt(v, digits=1):
    return "n/a" if v is None else f"{v:.{digits}f}"


def describe_devices(r):
    if not r["devices"]:
        return "no timing recorded its device" if r["unrecorded"] else "no timed candidate"
    parts = []
    for (gpu, arch, driver, sms), count in sorted(r["devices"].items()):
        inside = ", ".join(x for x in (arch, f"{sms} SMs" if sms else "", f"driver {driver}" if driver else "") if x)
        parts.append(f"{gpu} ({inside}) x{count}")
    text = "; ".join(parts)
    if r["unrecorded"]:
        text += f"; {r['unrecorded']} unrecorded"
    return text


def table(runs, title, smi_lines):
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    out = [f"# {title}", "", f"Date: {now}", ""]
    if smi_lines:
        out += ["GPUs of this machine (nvidia-smi: index, name, driver, SM clock now / max MHz, memory clock MHz):", ""]
        out += [f"- {line}" for line in smi_lines]
    else:
        out += ["GPUs of this machine: nvidia-smi gave nothing (the per-result fingerprints below still say)."]
    out += ["",
            "| configuration | workers | run status | evaluations | on GPU | valid | seals | wall min | GPU s used "
            "| evals / wall min | evals / GPU-min held | evals / GPU-min used | median SM clock MHz | timed on (per result) |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for label, r, workers, rate in runs:
        on_gpu = sum(r["by_status"].get(s, 0) for s in ON_GPU)
        out.append(
            f"| {label} | {workers if workers else 'n/a'} | {r['status']} | {r['evaluations']} | {on_gpu} "
            f"| {r['by_status'].get('valid', 0)} | {r['seals']} | {fmt(r['wall_s'] / 60, 2)} | {fmt(r['gpu_s'])} "
            f"| {fmt(rate['per_wall_min'])} | {fmt(rate['per_gpu_min_held'])} | {fmt(rate['per_gpu_min_used'])} "
            f"| {fmt(r['sm_clock_mhz'], 0)} | {describe_devices(r)} |")
    out += ["",
            "evaluations: candidates the run committed (compile failures included; the reference not); "
            "on GPU: those that reached a worker. GPU-min held: workers x the run's wall minutes; "
            "GPU-min used: the device time the project records for its evaluations, extended validations and "
            "sanitizers."]
    return out


def verdict(runs):
    by_label = {label: rate for label, _, _, rate in runs}
    alone, pool = by_label.get("alone"), by_label.get("pool")
    if not alone or not pool or alone["per_wall_min"] is None or pool["per_wall_min"] is None:
        return 1, "acceptance: cannot compare (a run recorded no evaluations or no wall time)"
    ok = pool["per_wall_min"] >= alone["per_wall_min"]
    return (0 if ok else 1), (
        f"acceptance (the pool evaluates at least as many candidates per minute as the engine alone): "
        f"{'PASS' if ok else 'FAIL'}: pool {pool['per_wall_min']:.1f} vs alone {alone['per_wall_min']:.1f} "
        f"evaluations per wall minute")


def parse_run_arg(text):
    label, _, rest = text.partition(":")
    parts = rest.rsplit(":", 2)
    if not label or len(parts) != 3:
        raise argparse.ArgumentTypeError(f"--run {text!r}: expected LABEL:PROJECT:LOG:GPUS")
    project, log, gpus = parts
    try:
        gpu_count = int(gpus)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--run {text!r}: GPUS must be a whole number") from None
    return label, project, log, gpu_count


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--run", action="append", type=parse_run_arg, required=True,
                   help="LABEL:PROJECT:LOG:GPUS, once per configuration (labels 'alone' and 'pool' are compared)")
    p.add_argument("--title", default="Local pool against the engine alone")
    p.add_argument("--out", help="also write the table here")
    p.add_argument("--smi", help="nvidia-smi --query-gpu CSV output (one GPU a line) for the header")
    a = p.parse_args(argv)

    runs = []
    try:
        for label, project, log, gpus in a.run:
            r = read_run(project)
            workers = workers_from_log(log) or gpus
            runs.append((label, r, workers, rates(r, workers)))
    except BenchError as e:
        print(f"local_pool_bench: {e}", file=sys.stderr)
        return 2
    smi_lines = []
    if a.smi:
        try:
            smi_lines = [line.strip() for line in Path(a.smi).read_text().splitlines() if line.strip()]
        except OSError:
            smi_lines = []
    lines = table(runs, a.title, smi_lines)
    status, line = verdict(runs)
    lines += ["", line, ""]
    text = "\n".join(lines)
    print(text)
    if a.out:
        Path(a.out).write_text(text)
    return status


if __name__ == "__main__":
    sys.exit(main())
