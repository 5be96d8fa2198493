#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks PyTorch extensions exported by `crucible-cli best --export DIR --format torch` (issue 22).

For every DIR/<task>.json it imports DIR/<task>.py (the best kernel) and DIR/<task>_baseline.py
(the task's baseline, the reference the kernel was validated against); both build with the
device's PyTorch through torch.utils.cpp_extension.load. It draws fresh inputs from the task's
distributions with a seed of its own (not one Crucible validated with), runs both, compares every
output within the task's tolerances (|a - b| <= atol + rtol * |b|), and checks that the extension
refuses a tensor of the wrong shape, dtype and layout. Prints one line per task and a summary;
exits 1 if any task fails.

    python3 tests/gpu/interop/check_torch_extension.py DIR [--seed N]
"""
import argparse
import importlib.util
import json
import math
import sys
from pathlib import Path

import torch

DTYPES = {"f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16, "f64": torch.float64,
          "i32": torch.int32, "i64": torch.int64}


def axis_value(expr, axes):
    """An integer expression over the task's axes (core/task/expression.h: + - * / % ceil_div min max)."""
    env = dict(axes)
    env.update({"ceil_div": lambda a, b: -(-a // b), "min": min, "max": max})
    return int(eval(str(expr).replace("/", "//"), {"__builtins__": {}}, env))


def shape_of(tensor, axes):
    return [axis_value(d, axes) for d in tensor["shape"]]


def draw(tensor, axes, generator):
    d = tensor.get("distribution", {"kind": "normal", "mean": 0.0, "stddev": 1.0})
    shape, dtype = shape_of(tensor, axes), DTYPES[tensor["dtype"]]
    if d["kind"] == "normal":
        x = torch.randn(shape, generator=generator, device="cuda", dtype=torch.float64) * d["stddev"] + d["mean"]
    elif d["kind"] == "uniform":
        x = torch.rand(shape, generator=generator, device="cuda", dtype=torch.float64) * (d["high"] - d["low"]) + d["low"]
    elif d["kind"] == "randint":
        return torch.randint(axis_value(d["low"], axes), axis_value(d["high"], axes), shape, generator=generator,
                             device="cuda", dtype=dtype)
    else:
        raise ValueError(f"unknown distribution {d['kind']!r}")
    return x.to(dtype)


def load(path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def refuses(run, inputs, name, bad):
    args = dict(inputs)
    args[name] = bad
    try:
        run(**args)
    except RuntimeError:
        return True
    return False


def check(directory, record_path, seed):
    record = json.loads(record_path.read_text())
    spec, task = record["spec"], record["task"]
    best, baseline = load(directory / f"{task}.py"), load(directory / f"{task}_baseline.py")
    generator = torch.Generator(device="cuda").manual_seed(seed)
    axes = spec["axes"]
    inputs = {best.INPUTS[i]: draw(t, axes, generator) for i, t in enumerate(spec["inputs"])}
    names = [t["name"] for t in spec["inputs"]]
    kwargs = {p: inputs[n] for p, n in zip(best.run.__code__.co_varnames, names)}
    got, want = best.run(**kwargs), baseline.run(**kwargs)
    torch.cuda.synchronize()
    worst = []
    for out in spec["outputs"]:
        tol = spec["tolerances"].get(out["name"], {"rtol": 1e-5, "atol": 1e-6})
        a, b = got[out["name"]].double(), want[out["name"]].double()
        excess = ((a - b).abs() - (tol["atol"] + tol["rtol"] * b.abs())).max().item()
        finite = bool(torch.isfinite(a).all().item()) or not bool(torch.isfinite(b).all().item())
        worst.append((out["name"], excess, finite))
    ok = all(excess <= 0 and finite for _, excess, finite in worst)
    # The extension launches only what Crucible validated: another shape, dtype or layout is refused.
    first = next(iter(kwargs))
    x = kwargs[first]
    refusals = [refuses(best.run, kwargs, first, x.reshape(-1)[: max(1, x.numel() - 1)].clone()),
                refuses(best.run, kwargs, first, x.to(torch.float64 if x.dtype != torch.float64 else torch.float32))]
    if x.dim() >= 2 and x.shape[-1] > 1 and x.shape[-2] > 1:
        # Same shape and values, column-major: not contiguous.
        refusals.append(refuses(best.run, kwargs, first, x.transpose(-1, -2).contiguous().transpose(-1, -2)))
    ok = ok and all(refusals)
    detail = ", ".join(f"{n}: worst excess over tolerance {e:.3g}{'' if f else ' (non-finite)'}" for n, e, f in worst)
    print(f"{'ok  ' if ok else 'FAIL'} {task}: {detail}; refusals {sum(refusals)}/{len(refusals)}")
    return ok


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("directory", type=Path)
    parser.add_argument("--seed", type=int, default=20261201)
    args = parser.parse_args()
    sys.path.insert(0, str(args.directory))
    records = sorted(args.directory.glob("*.json"))
    if not records:
        print(f"no exported kernel in {args.directory}", file=sys.stderr)
        return 2
    print(f"torch {torch.__version__}, CUDA {torch.version.cuda}, {torch.cuda.get_device_name()}")
    results = [check(args.directory, r, args.seed) for r in records]
    print(f"{sum(results)}/{len(results)} exported extensions match their task's baseline")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
