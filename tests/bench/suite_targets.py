# SPDX-License-Identifier: GPL-3.0-or-later
"""Issue 20's targets for the suite benchmark, computed from what suite_bench.py measured:
geometric means over the suite against eager, torch.compile and the library; the evolution's
evaluations per GPU-minute, read from the project the kernels came from; and the checks
(level with torch.compile on every task, geomean >= 1.15x, memory-bound >= 92% of the copy
bandwidth, bf16 GEMM >= 1.05x cuBLAS and the fused epilogue >= cuBLASLt, >= 120 evaluations
per GPU-minute on memory-bound tasks); then, for every target missed, what limits it, read from
the timed medians and the ncu profiles (suite_profile.py), and the ceiling of the geomean target.
No GPU or torch is needed here: suite_bench.py calls in.
"""
import math
import os
import sqlite3
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import suite_profile  # noqa: E402  (the ncu profiles' classification)

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


def device_peaks(project, gpu_name):
    """{ceiling name: datasheet peak} of the device the project measured ("dram_bw" B/s, "bf16_tensor" and
    "fp32_fma" FLOP/s; from core's datasheet table, written into the project's ceilings by its first run).
    The rows of the GPU named, or of the only device there; {} when there are none or the project is older."""
    try:
        db = sqlite3.connect(f"file:{project}?mode=ro", uri=True)
    except sqlite3.OperationalError:
        return {}
    try:
        rows = db.execute("SELECT device, name, datasheet FROM ceilings").fetchall()
    except sqlite3.OperationalError:
        return {}
    finally:
        db.close()
    devices = {device for device, _, _ in rows}
    device = gpu_name if gpu_name in devices else next(iter(devices)) if len(devices) == 1 else None
    return {name: value for d, name, value in rows if d == device and value and value > 0}


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


class Check(tuple):
    """(passed, line) as the report prints it, with the task and the target it is about (for the
    section on what limits the missed targets); unpacks and compares as the plain pair."""

    def __new__(cls, passed, text, task=None, target=""):
        self = super().__new__(cls, (passed, text))
        self.task, self.target = task, target
        return self


def target_checks(results, copy_gbs, throughput, is_memory_bound, achieved_gbs):
    """A Check for each of issue 20's targets, from the measurements only."""
    checks = []
    measured = [r for r in results if not r.error and r.ours_us]
    for r in measured:
        name = r.case.name
        if r.compile_us is None:
            checks.append(Check(False, f"{name}: torch.compile was not measured", name, "no compile"))
        else:
            x = r.compile_us / r.ours_us
            checks.append(Check(r.correct and x >= COMPILE_LEVEL,
                                f"{name}: level with torch.compile: {x:.3f}x ({r.ours_us:.1f} vs {r.compile_us:.1f} µs)",
                                name, "compile"))
        if is_memory_bound(r.case):
            fraction = achieved_gbs(r) / copy_gbs
            checks.append(Check(fraction >= COPY_BW, f"{name}: >= {COPY_BW:.0%} of copy bandwidth: {fraction:.1%}",
                                name, "copy"))
        family = r.case.family
        if family in ("matmul", "matmul_bias_relu") and r.case.spec["inputs"][0]["dtype"] == "bf16":
            target = BF16_GEMM_VS_CUBLAS if family == "matmul" else FUSED_VS_CUBLASLT
            library = library_name(family)
            if r.library_us is None:
                checks.append(Check(False, f"{name}: {library} was not measured", name, "no library"))
            else:
                x = r.library_us / r.ours_us
                checks.append(Check(r.correct and x >= target, f"{name}: >= {target:.2f}x {library}: {x:.3f}x",
                                    name, "library"))
        if is_memory_bound(r.case) and throughput:
            if name not in throughput:
                checks.append(Check(False, f"{name}: no run of it in the project, so no evaluations per GPU-minute",
                                    name, "no throughput"))
            else:
                n, gpu, _ = throughput[name]
                rate = per_minute(n, gpu)
                checks.append(Check(rate is not None and rate >= EVALUATIONS_PER_GPU_MINUTE,
                                    f"{name}: >= {EVALUATIONS_PER_GPU_MINUTE} evaluations per GPU-minute: "
                                    f"{'—' if rate is None else f'{rate:.0f}'} ({n} in {gpu:.1f} s)",
                                    name, "throughput"))
    value, count = suite_geomeans(results)["compile"]
    checks.append(Check(value is not None and value >= COMPILE_GEOMEAN and count == len(measured),
                        f"geometric mean against torch.compile >= {COMPILE_GEOMEAN:.2f}x: "
                        f"{'—' if value is None else f'{value:.3f}x'} over {count} of {len(measured)} task(s)",
                        None, "geomean"))
    return checks


def library_name(family):
    return "cuBLAS" if family == "matmul" else "cuBLASLt's fused epilogue"


def target_lines(checks):
    passed = sum(ok for ok, _ in checks)
    lines = ["", "## Issue 20 targets, measured above", ""]
    lines += [f"- {'PASS' if ok else 'FAIL'} {text}" for ok, text in checks]
    lines += ["", f"**Issue 20: {passed} of {len(checks)} targets met.**", ""]
    return lines


# ----------------------------------------------------------------------------------------------
# What limits the missed targets: one line per FAIL, from the timed medians and the ncu profiles
# (suite_profile.py) only. A result here carries, beside the timings, `profiles` ({contender:
# suite_profile.Profile}), `min_bytes` and `flops` (the task's formulas) and `compute_peak`
# ((label, FLOP/s or None) for a GEMM, None otherwise).

SAME_BYTES = 0.02             # byte counts within 2% of each other are "the same"
NEAR_ROOF = 0.80              # torch.compile at >= 80% of copy bandwidth: near the roof


def profile_of(r, contender):
    return (getattr(r, "profiles", None) or {}).get(contender)


def contender_time(r, contender):
    return {"ours": r.ours_us, "compile": r.compile_us, "library": r.library_us}[contender]


def time_split(po, pc, ours_us, other_us, other):
    """ours' time / the other's = (ours' DRAM bytes / theirs) x (their bandwidth / ours)."""
    if not (po and pc and po.dram_bytes and pc.dram_bytes and ours_us and other_us):
        return ""
    bytes_ratio = po.dram_bytes / pc.dram_bytes
    bandwidth_ratio = (ours_us / other_us) / bytes_ratio
    if abs(bytes_ratio - 1) < SAME_BYTES:
        moved = f"the same DRAM bytes (within {SAME_BYTES:.0%})"
    else:
        moved = f"{abs(bytes_ratio - 1):.1%} {'more' if bytes_ratio > 1 else 'fewer'} DRAM bytes than {other}"
    return (f"ours moves {moved}; time ratio {ours_us / other_us:.3f} = DRAM bytes ratio {bytes_ratio:.3f} "
            f"× {other}'s DRAM GB/s / ours {bandwidth_ratio:.3f}")


def comparison(po, pc, other):
    """The rule-based reading of two classified profiles."""
    bo, bc = suite_profile.bound_by(po), suite_profile.bound_by(pc)
    if bo == "unclassified" or bc == "unclassified":
        return "not classified: a profile lacks ncu's throughput figures"
    if bo == bc == "DRAM-bound":
        return "both at the DRAM roof"
    if bo == bc:
        return (f"both {bo} (ncu SM {suite_profile.pct(po.sm_pct)} vs {suite_profile.pct(pc.sm_pct)}, DRAM "
                f"{suite_profile.pct(po.dram_pct)} vs {suite_profile.pct(pc.dram_pct)}, warps active "
                f"{suite_profile.pct(po.warps_pct)} vs {suite_profile.pct(pc.warps_pct)} of peak, ours first)")
    text = f"ours is {bo}, {other} is {bc}"
    if bo == "latency/occupancy-bound" and po.warps_pct is not None and pc.warps_pct is not None:
        lower = "ours" if po.warps_pct < pc.warps_pct else other
        text += (f"; lower occupancy: {lower} (warps active {po.warps_pct:.1f}% for ours, "
                 f"{pc.warps_pct:.1f}% for {other})")
    return text


def copy_fraction(r, time_us, copy_gbs):
    if not time_us or not getattr(r, "min_bytes", None):
        return None
    return r.min_bytes / (time_us * 1e-6) / (copy_gbs * 1e9)


def describe_compute(who, p, r, time_us):
    """'ours reaches 612 TFLOP/s (61.9% of the bf16 tensor-core peak, 989 TFLOP/s); ncu: ...: compute-bound'."""
    flops = getattr(r, "flops", None)
    tflops = None if not flops or not time_us else flops / (time_us * 1e-6) / 1e12
    label, peak = r.compute_peak if getattr(r, "compute_peak", None) else ("compute", None)
    text = f"{who} reaches {'—' if tflops is None else f'{tflops:.0f}'} TFLOP/s"
    if tflops is not None and peak:
        text += f" ({100 * tflops * 1e12 / peak:.1f}% of the {label} peak, {peak / 1e12:.0f} TFLOP/s)"
    if p is None:
        return text + "; no profile"
    return (text + f"; ncu: SM {suite_profile.pct(p.sm_pct)}, DRAM {suite_profile.pct(p.dram_pct)} of peak, "
            f"warps active {suite_profile.pct(p.warps_pct)}: {suite_profile.bound_by(p)}")


def sentences(parts):
    """The parts of a line as sentences: 'ours ...' -> 'Ours ...' (torch.compile keeps its spelling)."""
    return ". ".join(p[:1].upper() + p[1:] if p.startswith(("ours", "both")) else p for p in parts) + "."


def compile_limit(r, copy_gbs, dram_peak):
    po, pc = profile_of(r, "ours"), profile_of(r, "compile")
    x = r.compile_us / r.ours_us
    parts = [f"{r.case.name}: {x:.3f}x torch.compile ({r.ours_us:.1f} vs {r.compile_us:.1f} µs)"
             + ("; ours is NOT correct" if not r.correct else "")]
    parts.append(suite_profile.describe("ours", po, r.ours_us, copy_gbs, dram_peak))
    parts.append(suite_profile.describe("torch.compile", pc, r.compile_us, copy_gbs, dram_peak))
    if po and pc:
        parts.append(comparison(po, pc, "torch.compile"))
        split = time_split(po, pc, r.ours_us, r.compile_us, "torch.compile")
        if split:
            parts.append(split)
    return sentences(parts)


def copy_limit(r, copy_gbs, dram_peak):
    po = profile_of(r, "ours")
    fraction = copy_fraction(r, r.ours_us, copy_gbs)
    shown = "—" if fraction is None else f"{fraction:.1%}"
    parts = [f"{r.case.name}: {shown} of copy bandwidth (minBytes / our time)",
             suite_profile.describe("ours", po, r.ours_us, copy_gbs, dram_peak)]
    if po and po.dram_bytes and getattr(r, "min_bytes", None):
        parts.append(f"ours moves {po.dram_bytes / r.min_bytes:.3f}x the task's minBytes")
    compile_fraction = copy_fraction(r, r.compile_us, copy_gbs)
    if compile_fraction is not None:
        parts.append(f"torch.compile reaches {compile_fraction:.1%} of copy bandwidth on the same minBytes")
    read_fraction = copy_fraction(r, getattr(r, "same_read_us", None), copy_gbs)
    if read_fraction is not None:
        parts.append(f"a kernel that only reads the same bytes reaches {read_fraction:.1%} at this size")
    return sentences(parts)


def power_reading(r):
    """What nvidia-smi's samples said of power while the task was timed (all its contenders interleaved,
    so the same for each); '' without samples. ncu's profiles run at locked clocks and cannot show it."""
    power = getattr(r, "power", None)
    if not power:
        return ""
    watts, capped = power
    clock = getattr(r, "sm_mhz", None)
    return (f"While it was timed the GPU drew {watts:.0f} W (median) and the power cap held the clocks back in "
            f"{capped:.0%} of the samples" + (f" (median SM clock {clock:.0f} MHz)" if clock else ""))


def library_limit(r, text):
    po, pl = profile_of(r, "ours"), profile_of(r, "library")
    library = library_name(r.case.family)
    parts = [text, describe_compute("ours", po, r, r.ours_us), describe_compute(library, pl, r, r.library_us)]
    if po and pl:
        parts.append(comparison(po, pl, library))
    power = power_reading(r)
    if power:
        parts.append(power)
    return sentences(parts)


def throughput_limit(r, throughput):
    n, gpu, _ = throughput[r.case.name]
    if n <= 0:
        return f"{r.case.name}: no evaluations in {gpu:.1f} GPU-s"
    each_ms = 1000.0 * gpu / n
    return (f"{r.case.name}: {n} evaluations in {gpu:.1f} GPU-s = {each_ms:.0f} ms of worker GPU time each, against a "
            f"kernel time of {r.ours_us:.1f} µs: the cost is the evaluation (validation, timing, profile, seal "
            "checks), which the kernels' hardware profiles do not measure")


def geomean_ceiling(results, copy_gbs, is_memory_bound):
    """(highest geomean against torch.compile if ours moved every memory-bound task's minBytes at 100%
    of the copy bandwidth and the other tasks stayed as timed, [(task, compile's fraction of copy)],
    number of other tasks); None without a memory-bound task. Tasks as in suite_geomeans."""
    counted = [r for r in results if not r.error and r.correct and r.ours_us and r.compile_us]
    ratios, fractions = [], []
    for r in counted:
        best_us = r.ours_us
        if is_memory_bound(r.case) and getattr(r, "min_bytes", None):
            roof_us = r.min_bytes / (copy_gbs * 1e9) * 1e6
            best_us = min(best_us, roof_us)
            fractions.append((r.case.name, roof_us / r.compile_us))
        ratios.append(r.compile_us / best_us)
    if not fractions:
        return None
    return geomean(ratios), fractions, len(counted) - len(fractions)


def ceiling_lines(results, copy_gbs, is_memory_bound):
    found = geomean_ceiling(results, copy_gbs, is_memory_bound)
    if found is None:
        return ["- geometric mean: no memory-bound task measured against torch.compile, so no ceiling to compute"]
    ceiling, fractions, others = found
    low = min(fractions, key=lambda f: f[1])
    near = all(f >= NEAR_ROOF for _, f in fractions)
    text = (f"- geometric mean: on the {len(fractions)} memory-bound task(s) torch.compile already reaches "
            f"{low[1]:.1%} ({low[0]}) to {max(f for _, f in fractions):.1%} of the copy bandwidth "
            f"({'all' if near else 'not all'} at >= {NEAR_ROOF:.0%}). With ours moving each one's minBytes at 100% "
            f"of the copy bandwidth and the {others} other task(s) as timed, the geomean against torch.compile "
            f"would be at most {ceiling:.3f}x")
    if ceiling >= COMPILE_GEOMEAN:
        text += f": {COMPILE_GEOMEAN:.2f}x is within that ceiling."
    elif others:
        needed = (COMPILE_GEOMEAN / ceiling) ** ((len(fractions) + others) / others)
        text += (f": below {COMPILE_GEOMEAN:.2f}x even at the copy roof; the {others} other task(s) would each "
                 f"need {needed:.2f}x more (geometric mean) on top.")
    else:
        text += f": {COMPILE_GEOMEAN:.2f}x cannot be reached on this suite."
    return [text]


def limit_lines(checks, results, copy_gbs, throughput, is_memory_bound, profile_status, dram_peak=None):
    """'## What limits the missed targets': a line per FAIL check, from measured figures only."""
    failed = [c for c in checks if not c[0]]
    if not failed:
        return []
    by_name = {r.case.name: r for r in results}
    lines = ["## What limits the missed targets", "",
             f"Hardware profiles: {profile_status}. Classification: DRAM-bound at ncu DRAM throughput >= "
             f"{suite_profile.DRAM_BOUND_PCT:.0f}% of peak, else compute-bound at SM throughput >= "
             f"{suite_profile.COMPUTE_BOUND_PCT:.0f}%, else latency/occupancy-bound. GB/s: DRAM bytes ncu counted / "
             "the contender's timed median.", ""]
    for check in failed:
        r = by_name.get(check.task)
        target = check.target
        if target == "geomean":
            lines += ceiling_lines(results, copy_gbs, is_memory_bound)
        elif r is None or target.startswith("no "):
            lines.append(f"- {check[1]}: no figures to read a limit from")
        elif target == "compile":
            lines.append("- " + compile_limit(r, copy_gbs, dram_peak))
        elif target == "copy":
            lines.append("- " + copy_limit(r, copy_gbs, dram_peak))
        elif target == "library":
            lines.append("- " + library_limit(r, check[1]))
        elif target == "throughput":
            lines.append("- " + throughput_limit(r, throughput))
        else:
            lines.append(f"- {check[1]}")
    return lines + [""]
