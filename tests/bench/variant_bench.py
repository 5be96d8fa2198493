#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Several kernels of one task side by side with PyTorch, in one process (the variant bench).

Reads a folder of exported kernels (<task>@<label>.cu + .json, as tests/bench/template_variants.cpp or
`crucible-cli best --export` write them), groups them by task and, for each task, checks every kernel
against PyTorch and times all of them interleaved with PyTorch eager and the library (cuBLAS) with the
suite benchmark's method (CUDA events, L2 flush before every sample, rotating order). Prints one table
per task: what a gene or a parameter is worth, measured in one run rather than across runs.

  variant_bench.py --kernels DIR [--samples 30] [--only task1,task2] [--copy] [--accuracy]
                   [--compile [MODE]] [--both-builds]

--both-builds times every kernel a second time, built the other way from the worker (a separate compilation
through nvJitLink for sm_90, whole-program for sm_90a), labelled so: what the worker's choice of compile is worth
(results/2026-12-03-h200-whole-program.md).

--compile adds torch.compile of the eager function (mode max-autotune-no-cudagraphs unless MODE is
given) as a contender and an "x compile" column: issue 20's targets are against it.
`template-variants TASK.json OUT --sweep=NAMES` writes a task's starting points and their one-step
neighbours along the named genes and parameters, ready for this bench.

--copy measures the 2 GiB device-to-device copy (the "% copy BW" roof) and, for a memory-bound task, times a
torch copy of the task's minBytes with its kernels: "% same-size copy" is that copy's time over the kernel's,
what launch and ramp-up leave of the roof at the task's size; "% same-size read" the same for a kernel that
only reads those bytes (suite_bench.same_size_read), the roof of a task that mostly reads.

--accuracy adds each contender's error against the same reference evaluated in fp64 (max and RMS of
|out - ref64| over the first output): how close to exact a kernel is, next to cuBLAS's own error.
"""
import argparse
import dataclasses
import json
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import suite_bench as sb  # noqa: E402


# The contender label of the copy moving the task's minBytes (--copy, memory-bound tasks).
SAME_COPY = "same-size copy"
# ... and of the kernel that only reads them (suite_bench.same_size_read).
SAME_READ = "same-size read"


def other_build_name(case):
    """What --both-builds adds next to a kernel: the build the worker does not use for its target."""
    arch = sb.target_arch(case.source, sb.DRY_RUN_CAPABILITY)
    return "whole-program" if sb.links_with_nvjitlink(arch) else "PTX + nvJitLink"


def load_variants(directory, both_builds=False):
    groups = defaultdict(list)
    for meta_path in sorted(Path(directory).glob("*.json")):
        meta = json.loads(meta_path.read_text())
        maps = sb.parse_tensor_maps(meta.get("launch", {}).get("tensorMaps", []), meta["spec"], meta["task"])
        case = sb.KernelCase(meta["task"], meta["spec"], meta_path.with_suffix(".cu").read_text(), meta["entry"],
                             meta["grid"], meta["block"], meta.get("smem", "0"), str(meta.get("candidate")), maps)
        genome = meta.get("genome", {})
        params = " ".join(f"{k}={v}" for k, v in genome.get("params", {}).items())
        groups[meta["task"]].append((case, meta.get("architecture", "?"), params))
        if both_builds:
            other = dataclasses.replace(case, origin=f"{case.origin} ({other_build_name(case)})", other_build=True)
            groups[meta["task"]].append((other, meta.get("architecture", "?"), params))
    return groups


def bench_group(task, variants, driver, nvrtc, flush, samples, accuracy=False, compile_mode=None, same_copy=False):
    case0 = variants[0][0]
    ref = sb.reference_for(case0)
    generator = sb.torch.Generator(device="cuda").manual_seed(1234)
    inputs = [sb.make_input(p, generator) for p in sb.input_plans(case0.spec)]
    expected = [t.clone() for t in sb.as_tuple((ref.exact or ref.eager)(*inputs))]
    contenders, notes, outputs = {"eager": lambda: ref.eager(*inputs)}, {}, {}
    if ref.library is not None:
        contenders["library"] = lambda: ref.library(*inputs)
    if compile_mode is not None:
        compiled = compile_torch(ref.eager, inputs, compile_mode, notes)
        if compiled is not None:
            contenders["compile"] = lambda: compiled(*inputs)
    if same_copy:
        roofs = {SAME_COPY: sb.same_size_copy(case0), SAME_READ: sb.same_size_read(case0, driver, nvrtc)}
        contenders.update({label: roof for label, roof in roofs.items() if roof is not None})
    for case, _, _ in variants:
        try:
            outs = [sb.make_output(p) for p in sb.output_plans(case.spec)]
            kernel = sb.OurKernel(driver, nvrtc, case, inputs, outs)
            kernel()
            sb.torch.cuda.synchronize()
            why = sb.check_outputs(case, outs, expected)
            if why:
                notes[case.origin] = f"WRONG: {why}"
                continue
            contenders[case.origin], outputs[case.origin] = kernel, outs
        except Exception as e:  # noqa: BLE001 - one bad variant must not stop the others
            notes[case.origin] = f"FAILED: {type(e).__name__}: {sb.first_line(e)}"
    errors = {}
    if accuracy:
        reference64 = sb.reference_in_fp64(ref, inputs)
        for label, fn in contenders.items():
            if label in (SAME_COPY, SAME_READ):
                continue
            outs = outputs.get(label) or list(sb.as_tuple(fn()))
            errors[label] = sb.fp64_errors(outs, reference64)
        del reference64
    medians = sb.time_interleaved(contenders, samples, flush)
    for label, outs in outputs.items():  # after many launches: races show here
        why = sb.check_outputs(case0, outs, expected)
        if why:
            notes[label] = f"WRONG after timing: {why}"
    return medians, notes, errors


def compile_torch(fn, inputs, mode, notes):
    """torch.compile of the eager function after its first (compiling) call; None, with a note, if it failed."""
    try:
        compiled = sb.torch.compile(fn, mode=mode, dynamic=False)
        compiled(*inputs)
        sb.torch.cuda.synchronize()
        return compiled
    except Exception as e:  # noqa: BLE001 - a compiler failure is reported, the variants still run
        notes["compile"] = f"torch.compile({mode}) FAILED: {type(e).__name__}: {sb.first_line(e)}"
        return None


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kernels", required=True, help="folder of <task>@<label>.cu/.json kernels")
    parser.add_argument("--samples", type=int, default=30)
    parser.add_argument("--flush", choices=sb.FLUSH_MODES, default="write", help="how the L2 is emptied (suite_bench.L2Flush)")
    parser.add_argument("--only", default="", help="comma-separated task names")
    parser.add_argument("--copy", action="store_true",
                        help="also measure the device-to-device copy bandwidth, and time a copy of each memory-bound "
                             "task's minBytes and a read-only kernel over them beside its kernels (the %% same-size "
                             "copy and read columns)")
    parser.add_argument("--accuracy", action="store_true", help="also report each contender's error against fp64")
    parser.add_argument("--both-builds", action="store_true",
                        help="also time every kernel built the other way: PTX + nvJitLink where the worker compiles "
                             "whole-program (sm_90), whole-program where it links with nvJitLink (sm_90a)")
    parser.add_argument("--compile", nargs="?", const="max-autotune-no-cudagraphs", default=None, metavar="MODE",
                        help="also time torch.compile (default mode max-autotune-no-cudagraphs)")
    args = parser.parse_args(argv)
    groups = load_variants(args.kernels, args.both_builds)
    only = {t for t in args.only.split(",") if t}
    if only:
        groups = {t: v for t, v in groups.items() if t in only}
    if not groups:
        print("variant_bench: no kernels to time", file=sys.stderr)
        return 2
    if sb.torch is None or not sb.torch.cuda.is_available():
        print("variant_bench: needs PyTorch with a CUDA GPU", file=sys.stderr)
        return 2
    sb.torch.backends.cuda.matmul.allow_tf32 = False
    sb.torch.set_float32_matmul_precision("highest")
    sb.torch.zeros(1, device="cuda")
    driver, nvrtc, flush = sb.Driver(), sb.Nvrtc(), sb.L2Flush(args.flush)
    copy_gbs = sb.copy_bandwidth(30)[0] if args.copy else None
    if copy_gbs:
        print(f"device-to-device copy: {copy_gbs:.0f} GB/s")
    sampler = sb.ClockSampler()
    for task, variants in groups.items():
        started = sb.datetime.datetime.now()
        medians, notes, errors = bench_group(task, variants, driver, nvrtc, flush, args.samples, args.accuracy,
                                             args.compile, same_copy=args.copy)
        window = (started, sb.datetime.datetime.now())
        sm_mhz, power = sampler.sm_median_during(window), sampler.power_during(window)
        eager = medians["eager"]
        spec = variants[0][0].spec
        min_bytes = sb.eval_expression(spec["minBytes"], variants[0][0].axes) if "minBytes" in spec else None
        print(f"\n## {task} ({args.samples} samples; eager {eager:.1f} us"
              + (f", library {medians['library']:.1f} us" if "library" in medians else "")
              + (f", torch.compile {medians['compile']:.1f} us" if "compile" in medians else "")
              + (f", a copy of the same bytes {medians[SAME_COPY]:.1f} us" if SAME_COPY in medians else "")
              + (f", a read of them {medians[SAME_READ]:.1f} us" if SAME_READ in medians else "")
              + (f"; median SM clock {sm_mhz:.0f} MHz (nvidia-smi, sampled mostly between kernels)" if sm_mhz else "")
              + (f"; power {sb.power_text(power)}" if power else "") + ")\n")
        if errors:
            print("Error against the reference in fp64, max / RMS: "
                  + "; ".join(f"{label} {e[0]:.3g} / {e[1]:.3g}" for label, e in errors.items()) + "\n")
        if "compile" in notes:
            print(notes["compile"] + "\n")
        print("| kernel | us | x eager | x compile | x library | % copy BW | % same-size copy | % same-size read "
              "| architecture | parameters |")
        print("|---|--:|--:|--:|--:|--:|--:|--:|---|---|")
        for case, arch, params in variants:
            label = case.origin
            if label not in medians:
                dashes = " | ".join(["—"] * 7)
                print(f"| {label} | {dashes} | {arch} | {params} ({notes.get(label, '?')}) |")
                continue
            us = medians[label]
            lib = f"{medians['library'] / us:.3f}" if "library" in medians else "—"
            comp = f"{medians['compile'] / us:.3f}" if "compile" in medians else "—"
            bw = f"{min_bytes / (us * 1e-6) / 1e9 / copy_gbs * 100:.1f}" if copy_gbs and min_bytes else "—"
            same = f"{medians[SAME_COPY] / us * 100:.1f}" if SAME_COPY in medians else "—"
            read = f"{medians[SAME_READ] / us * 100:.1f}" if SAME_READ in medians else "—"
            note = f" ({notes[label]})" if label in notes else ""
            print(f"| {label} | {us:.1f} | {eager / us:.3f} | {comp} | {lib} | {bw} | {same} | {read} | {arch} "
                  f"| {params}{note} |")
        sys.stdout.flush()
        sb.torch.cuda.empty_cache()
    sampler.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
