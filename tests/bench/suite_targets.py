# SPDX-License-Identifier: GPL-3.0-or-later
"""Issue 20's targets for the suite benchmark, computed from what suite_bench.py measured:
geometric means over the suite against eager, torch.compile and the library; the evolution's
evaluations per GPU-minute, read from the project the kernels came from; and the checks
(level with torch.compile on every task, geomean >= 1.15x, memory-bound >= 92% of the copy
bandwidth, bf16 GEMM >= 1.05x cuBLAS and the fused epilogue >= cuBLASLt, >= 120 evaluations
per GPU-minute on memory-bound tasks). No GPU or torch is needed here: suite_bench.py calls in.
"""
import math
import sqlite3

COMPILE_LEVEL = 1.00          # every task at least level with torch.compile
COMPILE_GEOMEAN = 1.15        # geometric mean over the suite against torch.compile
COPY_BW = 0.92                # memory-bound tasks: fraction of the copy bandwidth measured in the run
BF16_GEMM_VS_CUBLAS = 1.05    # bf16 GEMM at 8192^3 against cuBLAS
FUSED_VS_CUBLASLT = 1.00      # bf16 GEMM + bias + ReLU against cuBLASLt's fused epilogue
EVALUATIONS_PER_GPU_MINUTE = 120


def geomean(values):
    values = [v for v in values if v is not None and v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def suite_geomeans(results):
    """{'eager'|'compile'|'library': (geomean of other/ours, tasks counted)} over correct measured tasks."""
    out = {}
    for key in ("eager", "compile", "library"):
        ratios = [getattr(r, key + "_us") / r.ours_us for r in results
                  if not r.error and r.correct and r.ours_us and getattr(r, key + "_us")]
        out[key] = (geomean(ratios), len(ratios))
    return out


def geomean_lines(results):
    means = suite_geomeans(results)
    parts = []
    for key, label in (("eager", "PyTorch eager"), ("compile", "torch.compile"), ("library", "the library")):
        value, count = means[key]
        parts.append(f"× {label}: {'—' if value is None else f'{value:.3f}'} over {count} task(s)")
    return ["", "Geometric means over the suite (correct kernels only): " + "; ".join(parts) + "."]


def evolution_throughput(project, task_names):
    """{task: (evaluations, gpu_seconds, wall_seconds)} summed over the task's runs in a Crucible project."""
    db = sqlite3.connect(f"file:{project}?mode=ro", uri=True)
    try:
        rows = db.execute("SELECT t.name, SUM(r.evaluations_done), SUM(r.gpu_seconds_used), SUM(r.wall_seconds_used) "
                          "FROM runs r JOIN tasks t ON t.id = r.task_id GROUP BY t.name").fetchall()
    finally:
        db.close()
    wanted = set(task_names)
    return {name: (int(n or 0), float(g or 0), float(w or 0)) for name, n, g, w in rows if name in wanted}


def per_minute(count, seconds):
    return None if seconds <= 0 else count / (seconds / 60.0)


def throughput_lines(throughput):
    if not throughput:
        return []
    lines = ["", "## Evolution throughput (from the project)", "",
             "| task | evaluations | GPU s | wall s | per GPU-minute | per wall-minute |",
             "|---|--:|--:|--:|--:|--:|"]
    for name in sorted(throughput):
        n, gpu, wall = throughput[name]
        g, w = per_minute(n, gpu), per_minute(n, wall)
        lines.append(f"| {name} | {n} | {gpu:.1f} | {wall:.1f} | {'—' if g is None else f'{g:.0f}'} "
                     f"| {'—' if w is None else f'{w:.0f}'} |")
    lines += ["", "GPU s: the worker's evaluation time (validation, timing, profiles, seal checks) summed over "
              "the task's runs; wall s: the runs' wall time."]
    return lines


def target_checks(results, copy_gbs, throughput, is_memory_bound, achieved_gbs):
    """(passed, line) for each of issue 20's targets, from the measurements only."""
    checks = []
    measured = [r for r in results if not r.error and r.ours_us]
    for r in measured:
        name = r.case.name
        if r.compile_us is None:
            checks.append((False, f"{name}: torch.compile was not measured"))
        else:
            x = r.compile_us / r.ours_us
            checks.append((r.correct and x >= COMPILE_LEVEL,
                           f"{name}: level with torch.compile: {x:.3f}x ({r.ours_us:.1f} vs {r.compile_us:.1f} µs)"))
        if is_memory_bound(r.case):
            fraction = achieved_gbs(r) / copy_gbs
            checks.append((fraction >= COPY_BW, f"{name}: >= {COPY_BW:.0%} of copy bandwidth: {fraction:.1%}"))
        family = r.case.family
        if family in ("matmul", "matmul_bias_relu") and r.case.spec["inputs"][0]["dtype"] == "bf16":
            target = BF16_GEMM_VS_CUBLAS if family == "matmul" else FUSED_VS_CUBLASLT
            library = "cuBLAS" if family == "matmul" else "cuBLASLt's fused epilogue"
            if r.library_us is None:
                checks.append((False, f"{name}: {library} was not measured"))
            else:
                x = r.library_us / r.ours_us
                checks.append((r.correct and x >= target, f"{name}: >= {target:.2f}x {library}: {x:.3f}x"))
        if is_memory_bound(r.case) and throughput:
            if name not in throughput:
                checks.append((False, f"{name}: no run of it in the project, so no evaluations per GPU-minute"))
            else:
                n, gpu, _ = throughput[name]
                rate = per_minute(n, gpu)
                checks.append((rate is not None and rate >= EVALUATIONS_PER_GPU_MINUTE,
                               f"{name}: >= {EVALUATIONS_PER_GPU_MINUTE} evaluations per GPU-minute: "
                               f"{'—' if rate is None else f'{rate:.0f}'} ({n} in {gpu:.1f} s)"))
    value, count = suite_geomeans(results)["compile"]
    checks.append((value is not None and value >= COMPILE_GEOMEAN and count == len(measured),
                   f"geometric mean against torch.compile >= {COMPILE_GEOMEAN:.2f}x: "
                   f"{'—' if value is None else f'{value:.3f}x'} over {count} of {len(measured)} task(s)"))
    return checks


def target_lines(checks):
    passed = sum(ok for ok, _ in checks)
    lines = ["", "## Issue 20 targets, measured above", ""]
    lines += [f"- {'PASS' if ok else 'FAIL'} {text}" for ok, text in checks]
    lines += ["", f"**Issue 20: {passed} of {len(checks)} targets met.**", ""]
    return lines
