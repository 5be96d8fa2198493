# SPDX-License-Identifier: GPL-3.0-or-later
"""Hardware profiles for the suite benchmark: which roof bounds each contender of a task.

suite_bench.py times the contenders; this module profiles them with Nsight Compute (ncu). For each
task, one ncu call runs a child (`suite_bench.py --profile-child TASK`) that builds the task's
inputs, our kernel, torch.compile's function (from inductor's cache, warm after the timed run) and,
for GEMMs, the library, warms each up, then launches each once inside the NVTX range
`crucible_profile` / `crucible_contender_<name>`. ncu profiles only the kernels inside that range
(--nvtx-include, --launch-count) and prints them as CSV (--csv --print-units base); this module
reads that CSV, sums each contender's kernels (DRAM bytes read + written, duration), averages its
throughputs weighted by duration, and classifies what bounds it:

  DRAM-bound      ncu's DRAM throughput >= 85% of the device's peak
  compute-bound   otherwise, SM throughput (the busiest SM unit: tensor, FMA, LSU...) >= 80% of peak
  latency/occupancy-bound   neither: too few bytes or instructions in flight

Nothing here needs torch or a GPU: suite_bench.py runs ncu and calls in; the tests feed recorded CSV.
"""
import csv
import os
import re
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

PROFILE_RANGE = "crucible_profile"           # the outer NVTX range ncu filters on
CONTENDER_RANGE = "crucible_contender_"      # + ours | compile | library: who launched the kernel
CONTENDER_PATTERN = re.compile(r"crucible_contender_(ours|compile|library)\b")

TIME = "gpu__time_duration.sum"
DRAM_READ = "dram__bytes_read.sum"
DRAM_WRITE = "dram__bytes_write.sum"
DRAM_PCT = "dram__throughput.avg.pct_of_peak_sustained_elapsed"
SM_PCT = "sm__throughput.avg.pct_of_peak_sustained_elapsed"
WARPS_PCT = "sm__warps_active.avg.pct_of_peak_sustained_active"   # achieved occupancy
DRAM_PEAK_PER_CYCLE = "dram__bytes.sum.peak_sustained"             # bytes per DRAM cycle
DRAM_CYCLES_PER_SECOND = "dram__cycles_elapsed.avg.per_second"
REQUIRED_METRICS = [TIME, DRAM_READ, DRAM_WRITE, DRAM_PCT, SM_PCT, WARPS_PCT]
# Another name of the same figure, asked for when ncu does not know the first (newer ncu's speed-of-light
# section reads the DRAM throughput as gpu__dram_throughput).
ALTERNATIVES = {DRAM_PCT: "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed"}
# The device's DRAM peak in bytes/s; should ncu not know them, the profile is taken again without.
PEAK_METRICS = [DRAM_PEAK_PER_CYCLE, DRAM_CYCLES_PER_SECOND]
# What bounds the occupancy (ncu's launch statistics and occupancy section): the theoretical occupancy,
# the blocks an SM can hold by each resource, the registers a thread and the shared-memory configuration
# the driver chose. Optional as the peak metrics are: a latency/occupancy-bound verdict is read with them.
THEORETICAL_PCT = "sm__maximum_warps_per_active_cycle_pct"
OCCUPANCY_LIMITS = {"launch__occupancy_limit_registers": "registers",
                    "launch__occupancy_limit_shared_mem": "shared memory",
                    "launch__occupancy_limit_warps": "threads",
                    "launch__occupancy_limit_blocks": "the block count"}
REGISTERS = "launch__registers_per_thread"
SHARED_CONFIG = "launch__shared_mem_config_size"
OCCUPANCY_METRICS = [THEORETICAL_PCT, *OCCUPANCY_LIMITS, REGISTERS, SHARED_CONFIG]
OPTIONAL_METRICS = PEAK_METRICS + OCCUPANCY_METRICS

DRAM_BOUND_PCT = 85.0
COMPUTE_BOUND_PCT = 80.0
KERNELS_PER_CONTENDER = 8      # --launch-count: at most this many kernels per contender are profiled
DEFAULT_TIMEOUT_S = 120


# ----------------------------------------------------------------------------------------------
# ncu's CSV (the details page: one row per kernel and metric)

class NcuCsvError(ValueError):
    pass


SCALES = {"n": 1e-9, "u": 1e-6, "m": 1e-3, "": 1.0, "K": 1e3, "k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}
BASE_UNITS = {"byte", "second", "cycle", "hz", "inst", "warp", "block", "register", "thread"}


def unit_part_scale(text):
    """'Mbyte' -> 1e6, 'nsecond' -> 1e-9, 'Ghz' -> 1e9; None for a unit this reader does not know."""
    # Longest base first: ncu writes times as "ns"/"usecond"/"msecond" and rates as "byte/s".
    for base in sorted(BASE_UNITS | {"s"}, key=len, reverse=True):
        if text.lower().endswith(base):
            prefix = text[:len(text) - len(base)]
            return SCALES.get(prefix)
    return None


def unit_scale(unit):
    """The factor that turns a value in ncu's unit into base units (bytes, seconds, per second, %)."""
    unit = unit.strip()
    if unit in ("", "%"):
        return 1.0
    parts = unit.split("/")
    if len(parts) > 2:
        return None
    scale = unit_part_scale(parts[0])
    if scale is not None and len(parts) == 2:
        denominator = unit_part_scale(parts[1])
        scale = None if not denominator else scale / denominator
    return scale


def metric_value(text, unit):
    """ncu prints '268,435,456' or '1.23' (n/a when it has none); None when unreadable or unknown."""
    text = text.strip().replace(",", "")
    scale = unit_scale(unit)
    if scale is None or not text:
        return None
    try:
        return float(text) * scale
    except ValueError:
        return None


@dataclass
class KernelProfile:
    """One profiled kernel: its name, the contender whose NVTX range launched it, its metrics in base units."""
    id: int
    name: str
    contender: str
    metrics: dict = field(default_factory=dict)


def csv_header_index(lines):
    for i, line in enumerate(lines):
        if line.startswith('"ID",'):
            return i
    return None


def parse_ncu_csv(text):
    """Kernels in launch order from `ncu --csv --metrics ...` output (ncu's own ==PROF== lines and
    anything the application printed are skipped). Raises NcuCsvError when there is no CSV table."""
    lines = text.splitlines()
    start = csv_header_index(lines)
    if start is None:
        raise NcuCsvError("ncu printed no CSV table")
    body = [line for line in lines[start:] if line.startswith('"')]
    rows = list(csv.reader(body))
    header = rows[0]
    for column in ("ID", "Kernel Name", "Metric Name", "Metric Unit", "Metric Value"):
        if column not in header:
            raise NcuCsvError(f"ncu's CSV has no column '{column}' (columns: {', '.join(header)})")
    at = {name: header.index(name) for name in header}
    kernels = {}
    for row in rows[1:]:
        if len(row) != len(header) or not row[at["ID"]].strip().isdigit():
            continue
        kernel_id = int(row[at["ID"]])
        kernel = kernels.get(kernel_id)
        if kernel is None:
            found = CONTENDER_PATTERN.search(" ".join(row[i] for i, name in enumerate(header)
                                                      if not name.startswith("Metric ")))
            kernel = KernelProfile(kernel_id, row[at["Kernel Name"]], found.group(1) if found else "")
            kernels[kernel_id] = kernel
        value = metric_value(row[at["Metric Value"]], row[at["Metric Unit"]])
        if value is not None:
            kernel.metrics[row[at["Metric Name"]]] = value
    for kernel in kernels.values():
        for metric, alternative in ALTERNATIVES.items():
            if metric not in kernel.metrics and alternative in kernel.metrics:
                kernel.metrics[metric] = kernel.metrics[alternative]
    return [kernels[k] for k in sorted(kernels)]


# ----------------------------------------------------------------------------------------------
# One contender: its kernels together

@dataclass
class Profile:
    """A contender's kernels inside its range: bytes and time summed, throughputs weighted by time.
    A figure is None when some kernel lacks its metric."""
    kernels: list                     # kernel names, in launch order
    dram_read: float = None           # bytes
    dram_write: float = None
    seconds: float = None             # ncu's gpu__time_duration, summed
    dram_pct: float = None            # of the device's peak DRAM throughput
    sm_pct: float = None              # of the peak of the busiest SM unit
    warps_pct: float = None           # achieved occupancy: active warps of the maximum
    dram_peak_bps: float = None       # the device's DRAM peak per ncu, bytes/s
    occupancy: "Occupancy" = None     # of its longest kernel, when ncu gave the launch statistics

    @property
    def dram_bytes(self):
        return None if self.dram_read is None or self.dram_write is None else self.dram_read + self.dram_write


def summed(kernels, metric):
    values = [k.metrics.get(metric) for k in kernels]
    return None if not values or any(v is None for v in values) else sum(values)


def time_weighted(kernels, metric):
    pairs = [(k.metrics.get(TIME), k.metrics.get(metric)) for k in kernels]
    if not pairs or any(t is None or v is None for t, v in pairs):
        return None
    total = sum(t for t, _ in pairs)
    return sum(v for _, v in pairs) / len(pairs) if total <= 0 else sum(t * v for t, v in pairs) / total


def dram_peak(kernels):
    peaks = [k.metrics[DRAM_PEAK_PER_CYCLE] * k.metrics[DRAM_CYCLES_PER_SECOND] for k in kernels
             if DRAM_PEAK_PER_CYCLE in k.metrics and DRAM_CYCLES_PER_SECOND in k.metrics]
    return max(peaks) if peaks else None


@dataclass
class Occupancy:
    """What one kernel's launch lets an SM hold: the theoretical occupancy (% of the SM's warps), the
    resources that set it (those whose block limit is the lowest), registers a thread, the shared-memory
    configuration in bytes. A figure is None when ncu did not give it."""
    theoretical_pct: float = None
    limited_by: tuple = ()
    blocks: int = None               # blocks an SM can hold: the lowest limit
    registers: int = None
    shared_config: float = None

    def text(self):
        """'theoretical 100.0% (8 blocks an SM, limited by threads; 32 registers a thread, 164 KiB shared-memory
        configuration)'."""
        details = [f"{self.blocks} blocks an SM, limited by {' and '.join(self.limited_by)}"] if self.limited_by else []
        resources = ([] if self.registers is None else [f"{self.registers} registers a thread"]) + \
            ([] if self.shared_config is None else [f"{self.shared_config / 1024:.0f} KiB shared-memory configuration"])
        if resources:
            details.append(", ".join(resources))
        head = f"theoretical {pct(self.theoretical_pct)}"
        return head + (" (" + "; ".join(details) + ")" if details else "")


def occupancy_of(kernel):
    """The Occupancy of one kernel; None when ncu gave none of its figures."""
    m = kernel.metrics
    if not any(name in m for name in OCCUPANCY_METRICS):
        return None
    limits = {why: int(m[name]) for name, why in OCCUPANCY_LIMITS.items() if name in m}
    lowest = min(limits.values()) if limits else None
    return Occupancy(m.get(THEORETICAL_PCT), tuple(why for why, n in limits.items() if n == lowest), lowest,
                     None if REGISTERS not in m else int(m[REGISTERS]), m.get(SHARED_CONFIG))


def combine(kernels):
    longest = max(kernels, key=lambda k: k.metrics.get(TIME, 0.0), default=None)
    return Profile([short_name(k.name) for k in kernels], summed(kernels, DRAM_READ), summed(kernels, DRAM_WRITE),
                   summed(kernels, TIME), time_weighted(kernels, DRAM_PCT), time_weighted(kernels, SM_PCT),
                   time_weighted(kernels, WARPS_PCT), dram_peak(kernels),
                   occupancy_of(longest) if longest else None)


def profiles_by_contender(kernels):
    """{contender: Profile} over the kernels ncu attributed to a contender's range."""
    grouped = {}
    for k in kernels:
        if k.contender:
            grouped.setdefault(k.contender, []).append(k)
    return {name: combine(group) for name, group in grouped.items()}


def short_name(name):
    """'void triton_red_fused_0(float*, ...)' -> 'triton_red_fused_0'."""
    base = name.split("(")[0].strip()
    base = base.split(" ")[-1] if " " in base else base
    return base if len(base) <= 48 else base[:45] + "..."


# ----------------------------------------------------------------------------------------------
# What bounds a contender

def bound_by(p):
    """'DRAM-bound', 'compute-bound', 'latency/occupancy-bound' or 'unclassified' (figures missing)."""
    if p is None or p.dram_pct is None or p.sm_pct is None:
        return "unclassified"
    if p.dram_pct >= DRAM_BOUND_PCT:
        return "DRAM-bound"
    if p.sm_pct >= COMPUTE_BOUND_PCT:
        return "compute-bound"
    return "latency/occupancy-bound"


def rate(bytes_or_flops, time_us):
    return None if bytes_or_flops is None or not time_us else bytes_or_flops / (time_us * 1e-6)


def pct(value):
    return "—" if value is None else f"{value:.1f}%"


def bandwidth_text(bps):
    return "—" if bps is None else f"{bps / 1e12:.2f} TB/s" if bps >= 1e12 else f"{bps / 1e9:.0f} GB/s"


def describe(who, p, time_us, copy_gbs, peak_bps=None):
    """'ours moves 268 MB at 3.77 TB/s (89.7% of copy, 78.5% of peak); ncu: DRAM 91.0%, SM 35.2% of peak,
    warps active 80.1%: DRAM-bound' from the profile and the contender's timed median."""
    if p is None:
        return f"{who}: no profile"
    peak = p.dram_peak_bps or peak_bps
    bps = rate(p.dram_bytes, time_us)
    moved = "—" if p.dram_bytes is None else f"{p.dram_bytes / 1e6:.0f} MB"
    where = [f"{100 * bps / (copy_gbs * 1e9):.1f}% of copy" if bps and copy_gbs else None,
             f"{100 * bps / peak:.1f}% of peak" if bps and peak else None]
    where = ", ".join(w for w in where if w)
    kernels = "" if len(p.kernels) == 1 else f" in {len(p.kernels)} kernels"
    occupancy = "" if p.occupancy is None else f" of a {p.occupancy.text()}"
    return (f"{who} moves {moved}{kernels} at {bandwidth_text(bps)}" + (f" ({where})" if where else "") +
            f"; ncu: DRAM {pct(p.dram_pct)}, SM {pct(p.sm_pct)} of peak, warps active {pct(p.warps_pct)}"
            f"{occupancy}: {bound_by(p)}")


# ----------------------------------------------------------------------------------------------
# Running ncu

def find_ncu(explicit=None, cuda_home="/usr/local/cuda"):
    """The ncu executable: the one given, else on PATH, else CUDA_HOME/bin/ncu; None when there is none."""
    for candidate in ([explicit] if explicit else [shutil.which("ncu"), str(Path(cuda_home) / "bin" / "ncu")]):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def ncu_version(ncu):
    try:
        out = subprocess.run([ncu, "--version"], capture_output=True, text=True, timeout=60)
        found = re.search(r"Version\s+(\S+)", out.stdout)
        return found.group(1) if found else "?"
    except (OSError, subprocess.TimeoutExpired):
        return "?"


def ncu_command(ncu, log_path, metrics, contenders, child):
    """ncu around the child: only the kernels of the crucible_profile range, at most
    KERNELS_PER_CONTENDER per contender; the GPU's own clocks (as in the timed run, not ncu's base
    clock lock); caches flushed before each kernel, as the bench flushes L2 before each sample."""
    return [ncu, "--csv", "--print-units", "base", "--log-file", str(log_path), "--clock-control", "none",
            "--cache-control", "all", "--nvtx", "--nvtx-include", f"{PROFILE_RANGE}/",
            "--launch-count", str(KERNELS_PER_CONTENDER * contenders), "--metrics", ",".join(metrics)] + child


@dataclass
class ProfileRun:
    profiles: dict = field(default_factory=dict)   # contender -> Profile
    seconds: float = 0.0                           # wall time of the ncu call(s)
    note: str = ""                                 # what went wrong or was left out ("" when nothing)


def rejected_metrics(text, metrics):
    """(the requested metrics ncu's ==ERROR== lines name, whether any such line speaks of a metric)."""
    errors = [line for line in text.splitlines() if "==ERROR==" in line and "metric" in line.lower()]
    return [m for m in metrics if any(m in line for line in errors)], bool(errors)


def without_rejected(metrics, rejected):
    """The metrics less those rejected; a rejected one with an alternative name gets that instead."""
    kept = [m for m in metrics if m not in rejected]
    return kept + [ALTERNATIVES[m] for m in rejected if m in ALTERNATIVES and ALTERNATIVES[m] not in kept]


def run_once(command, log_path, timeout_s):
    """(exit code or 'timeout', ncu's log file, what ncu and the child printed). The child runs in
    its own process group, ended as a whole on time-out."""
    log_path.unlink(missing_ok=True)
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               start_new_session=True)
    try:
        output, _ = process.communicate(timeout=timeout_s)
        code = process.returncode
    except subprocess.TimeoutExpired:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        output, _ = process.communicate()
        code = "timeout"
    log_text = log_path.read_text(errors="replace") if log_path.exists() else ""
    return code, log_text, output or ""


def profile_task(ncu, child, contenders, log_path, timeout_s):
    """Profiles one task's contenders in one ncu call, within timeout_s in all. Should ncu refuse a
    metric it does not know, the call is made again without it (the optional metrics, DRAM peak and
    occupancy, when its error names none of ours; a known alternative name instead where there is one), at most twice, and the
    note says so. Every failure is a note; the profiles collected are kept."""
    started = time.monotonic()
    result = ProfileRun()
    metrics, dropped = REQUIRED_METRICS + OPTIONAL_METRICS, []
    for attempt in range(3):
        left = max(1, int(timeout_s - (time.monotonic() - started)))
        code, log_text, printed = run_once(ncu_command(ncu, log_path, metrics, len(contenders), child),
                                           Path(log_path), left)
        rejected, metric_error = rejected_metrics(log_text + printed, metrics)
        if code == 0 or not metric_error or attempt == 2:
            break
        rejected = rejected or [m for m in OPTIONAL_METRICS if m in metrics]
        if not rejected:
            break
        dropped += rejected
        metrics = without_rejected(metrics, rejected)
    result.seconds = time.monotonic() - started
    problems = [f"ncu does not know {', '.join(dropped)}: profiled without"] if dropped else []
    if code == "timeout":
        problems.append(f"ncu timed out after {timeout_s} s")
    elif code != 0:
        tail = " | ".join(printed.strip().splitlines()[-3:])
        problems.append(f"ncu exited with {code}: {tail or 'no output'}")
    try:   # the table is in the log file; should this ncu print it to stdout instead, read that
        result.profiles = profiles_by_contender(parse_ncu_csv(log_text if csv_header_index(log_text.splitlines())
                                                              is not None else printed))
    except NcuCsvError as e:
        said = [line.strip() for line in (log_text + "\n" + printed).splitlines()
                if "==ERROR==" in line or "==WARNING==" in line]
        problems.append(f"{e}" + (f": {' '.join(said[:2])}" if said else ""))
    missing = [c for c in contenders if c not in result.profiles]
    if missing and (result.profiles or not problems):
        problems.append(f"no kernels profiled for {', '.join(missing)}")
    result.note = "; ".join(problems)
    return result


# ----------------------------------------------------------------------------------------------
# The report's table: a row per task and profiled contender

PROFILE_HEADER = ("| task | contender | kernels | ncu µs | timed µs | DRAM MB | × minBytes | DRAM GB/s | % copy BW "
                  "| % DRAM peak | ncu DRAM % | ncu SM % | warps active % | theoretical % (limited by) | TFLOP/s "
                  "| % compute peak | bound by |\n"
                  "|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|")
CONTENDER_LABELS = {"ours": "ours", "compile": "torch.compile", "library": "library"}


def fmt(value, digits=1):
    return "—" if value is None else f"{value:.{digits}f}"


def theoretical_cell(occupancy):
    """'100.0 (threads)': the theoretical occupancy and the resources that set it."""
    if occupancy is None or occupancy.theoretical_pct is None:
        return "—"
    limited = f" ({', '.join(occupancy.limited_by)})" if occupancy.limited_by else ""
    return fmt(occupancy.theoretical_pct) + limited


def profile_row(r, contender, p, copy_gbs, dram_peak_fallback):
    time_us = {"ours": r.ours_us, "compile": r.compile_us, "library": r.library_us}[contender]
    label = CONTENDER_LABELS[contender]
    if p is None:
        return f"| {r.case.name} | {label} | — |" + " — |" * 13 + " no profile |"
    bps = rate(p.dram_bytes, time_us)
    peak = p.dram_peak_bps or dram_peak_fallback
    flops = getattr(r, "flops", None)
    compute_peak = getattr(r, "compute_peak", None)
    tflops = rate(flops, time_us) if compute_peak else None
    cells = [r.case.name, label, f"{len(p.kernels)}: {', '.join(p.kernels)}",
             fmt(None if p.seconds is None else p.seconds * 1e6), fmt(time_us),
             fmt(None if p.dram_bytes is None else p.dram_bytes / 1e6, 0),
             fmt(None if p.dram_bytes is None or not getattr(r, "min_bytes", None) else p.dram_bytes / r.min_bytes, 2),
             fmt(None if bps is None else bps / 1e9, 0),
             fmt(None if bps is None or not copy_gbs else 100 * bps / (copy_gbs * 1e9)),
             fmt(None if bps is None or not peak else 100 * bps / peak),
             fmt(p.dram_pct), fmt(p.sm_pct), fmt(p.warps_pct), theoretical_cell(p.occupancy),
             fmt(None if tflops is None else tflops / 1e12, 0),
             fmt(None if tflops is None or not compute_peak[1] else 100 * tflops / compute_peak[1]),
             bound_by(p)]
    return "| " + " | ".join(cells) + " |"


def profile_table_lines(results, copy_gbs, dram_peak_fallback=None):
    """'## Hardware profile (ncu)': empty when no task was profiled."""
    profiled = [r for r in results if getattr(r, "profiles", None) or getattr(r, "profile_note", "")]
    if not profiled:
        return []
    lines = ["", "## Hardware profile (ncu)", "", PROFILE_HEADER]
    for r in profiled:
        timed = ["ours"] + (["compile"] if r.compile_us is not None else []) + \
            (["library"] if getattr(r, "compute_peak", None) and r.library_us is not None else [])
        for contender in timed + [c for c in (r.profiles or {}) if c not in timed]:
            lines.append(profile_row(r, contender, (r.profiles or {}).get(contender), copy_gbs, dram_peak_fallback))
    lines += ["", "One launch of each contender under ncu (caches flushed before each kernel, the GPU's own clocks). "
              "kernels: those its NVTX range launched. ncu µs: their summed duration; timed µs: the contender's median "
              "in the table above. DRAM MB: bytes read + written as ncu counted them (for a contender of several "
              "kernels, a kernel's reads of the previous one's output count here even where the timed run finds them "
              "in L2); × minBytes: that over the "
              "task's minimum; DRAM GB/s: those bytes / the timed median, as % of the copy bandwidth measured in "
              "this run and of the device's DRAM peak (ncu's, else the project's datasheet). ncu DRAM % / SM %: "
              "throughput of peak over the kernels' time; warps active: achieved occupancy; theoretical: the most "
              "warps an SM could hold at the launch of the contender's longest kernel, and the resources (registers, "
              "shared memory, threads, the block count) whose block limit sets it. TFLOP/s (GEMMs): the "
              "task's flops / the timed median, against the project's datasheet peak. Bound by: DRAM-bound at ncu "
              f"DRAM >= {DRAM_BOUND_PCT:.0f}%, else compute-bound at SM >= {COMPUTE_BOUND_PCT:.0f}%, else "
              "latency/occupancy-bound."]
    notes = [f"- {r.case.name}: {r.profile_note}" for r in profiled if getattr(r, "profile_note", "")]
    return lines + ([""] + notes if notes else [])
