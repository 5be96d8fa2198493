#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Crucible suite benchmark: our best kernels against PyTorch on one GPU, side by side.

For every kernel exported by `crucible-cli best --export DIR` (DIR/<task>.cu + DIR/<task>.json),
or for the spec baselines of a task folder (--tasks-dir, to test this script on its own), it:
  - draws the inputs as the task spec says, with torch;
  - compiles the .cu with NVRTC and launches it with the CUDA driver API (both through ctypes);
  - checks the output against PyTorch with the spec's tolerances (a mismatch is reported loudly);
  - times, interleaved in one process with CUDA events and an L2 flush before every sample:
    our kernel, PyTorch eager, torch.compile of the eager function, and the library (cuBLAS) where
    one exists;
  - measures the device-to-device copy bandwidth in the same run;
  - with --profile, after the timing, profiles ours, torch.compile and (GEMMs) the library of every
    task with Nsight Compute, one ncu call per task (suite_profile.py says how), and reads from it
    which roof bounds each;
and prints (and writes with --out) one markdown table plus the acceptance lines of issue 5, issue 20's
targets and, for every target missed, what limits it.

--dry-run needs neither torch nor a GPU: it evaluates the launch expressions, the tensor maps and the
input plans.
"""
import argparse
import ctypes
import datetime
import json
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

try:  # --dry-run works without torch
    import torch
    import torch.nn.functional as F
except ImportError:
    torch = None
    F = None

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import suite_profile  # noqa: E402  (ncu profiles and what bounds a kernel; needs no torch)
import suite_targets  # noqa: E402  (issue 20's targets; needs no torch)

CUDA_HOME = Path(os.environ.get("CUDA_HOME", "/usr/local/cuda"))
MEMORY_BOUND_FAMILIES = {"softmax", "layernorm", "rmsnorm", "gelu", "rowsum", "transpose", "cross_entropy",
                         # the operators of tests/tasks/any-operator and resources/kernels (issue 16)
                         "bias_gelu", "add_rmsnorm", "log_softmax", "logsumexp", "scale_bias", "swiglu", "gemv"}
MATMUL_FAMILIES = {"matmul", "matmul_bias_relu"}
COPY_BW_TARGET = 0.85      # memory-bound tasks must reach this fraction of the measured copy bandwidth
CUBLAS_TARGET = 0.85       # fp32 matmul must reach this fraction of cuBLAS
L2_FLUSH_BYTES = 256 << 20
COPY_BYTES = 2 << 30
DRY_RUN_CAPABILITY = (9, 0)   # the H200's; a dry run has no GPU to ask
DRY_RUN_SM_COUNT = 132        # the H200's; a dry run says so where a launch rule uses it
INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1


# ----------------------------------------------------------------------------------------------
# Launch expressions: integers, axis names, + - * / % ( ), unary -, ceil_div/min/max(a, b), and in
# launch rules sm_count, the SM count of the GPU the kernel launches on (as Crucible's worker has it).
# Division truncates toward zero as in C (the engine's core/task evaluator does the same).

class ExpressionError(ValueError):
    pass


TOKEN = re.compile(r"\s*(?:(\d+)|([A-Za-z_]\w*)|(.))")
FUNCTIONS = {"ceil_div", "min", "max"}
SM_COUNT = "sm_count"


def tokenize(text):
    tokens = []
    for number, name, symbol in TOKEN.findall(text):
        if number:
            tokens.append(("num", int(number)))
        elif name:
            tokens.append(("name", name))
        elif symbol.strip():
            if symbol not in "+-*/%(),":
                raise ExpressionError(f"unexpected character '{symbol}' in expression '{text}'")
            tokens.append(("sym", symbol))
    return tokens


def c_div(a, b):
    if b == 0:
        raise ExpressionError("division by zero")
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def c_mod(a, b):
    return a - b * c_div(a, b)


def ceil_div(a, b):
    if b == 0:
        raise ExpressionError("division by zero in ceil_div")
    return -((-a) // b)


class ExpressionParser:
    """Recursive descent with C precedence: sum := term (+|- term)*, term := unary (*|/|% unary)*."""

    def __init__(self, text, axes):
        self.text, self.axes, self.tokens, self.pos = text, axes, tokenize(text), 0

    def parse(self):
        if not self.tokens:
            raise ExpressionError("empty expression")
        value = self.sum()
        if self.pos != len(self.tokens):
            raise ExpressionError(f"unexpected '{self.tokens[self.pos][1]}' in expression '{self.text}'")
        return value

    def peek(self):
        return self.tokens[self.pos] if self.pos < len(self.tokens) else (None, None)

    def take(self, symbol):
        if self.peek() != ("sym", symbol):
            raise ExpressionError(f"expected '{symbol}' in expression '{self.text}'")
        self.pos += 1

    def checked(self, value):
        if not INT64_MIN <= value <= INT64_MAX:
            raise ExpressionError(f"overflow in expression '{self.text}'")
        return value

    def sum(self):
        value = self.term()
        while self.peek() in (("sym", "+"), ("sym", "-")):
            op = self.tokens[self.pos][1]
            self.pos += 1
            rhs = self.term()
            value = self.checked(value + rhs if op == "+" else value - rhs)
        return value

    def term(self):
        value = self.unary()
        while self.peek() in (("sym", "*"), ("sym", "/"), ("sym", "%")):
            op = self.tokens[self.pos][1]
            self.pos += 1
            rhs = self.unary()
            value = self.checked(value * rhs if op == "*" else c_div(value, rhs) if op == "/" else c_mod(value, rhs))
        return value

    def unary(self):
        if self.peek() == ("sym", "-"):
            self.pos += 1
            return self.checked(-self.unary())
        return self.primary()

    def primary(self):
        kind, value = self.peek()
        if kind is None:
            raise ExpressionError(f"expression '{self.text}' ends too early")
        self.pos += 1
        if kind == "num":
            return self.checked(value)
        if kind == "sym" and value == "(":
            inner = self.sum()
            self.take(")")
            return inner
        if kind == "name" and value in FUNCTIONS:
            self.take("(")
            a = self.sum()
            self.take(",")
            b = self.sum()
            self.take(")")
            return self.checked({"ceil_div": ceil_div, "min": min, "max": max}[value](a, b))
        if kind == "name":
            if value not in self.axes and value == SM_COUNT:
                raise ExpressionError(f"'{SM_COUNT}' (the GPU's SM count) is known only in a launch rule evaluated "
                                      f"for a GPU, in expression '{self.text}'")
            if value not in self.axes:
                raise ExpressionError(f"unknown name '{value}' in expression '{self.text}'")
            return self.axes[value]
        raise ExpressionError(f"unexpected '{value}' in expression '{self.text}'")


def eval_expression(expr, axes, sm_count=None):
    """An expression (a JSON string or integer) evaluated over the task's axes and, for a launch rule on a
    GPU, sm_count (that GPU's SM count; None: not known, and an expression naming it is an error)."""
    if isinstance(expr, bool) or not isinstance(expr, (int, str)):
        raise ExpressionError(f"expression must be a string or an integer, not {expr!r}")
    names = axes
    if sm_count is not None:
        if SM_COUNT in axes:
            raise ExpressionError(f"'{SM_COUNT}' is the GPU's SM count, not an axis")
        if isinstance(sm_count, bool) or not isinstance(sm_count, int) or sm_count < 1:
            raise ExpressionError(f"an SM count of {sm_count!r} is not a GPU's")
        names = {**axes, SM_COUNT: sm_count}
    return ExpressionParser(str(expr), names).parse()


def uses_sm_count(expr):
    """Whether a launch expression names sm_count (a whole name)."""
    return not isinstance(expr, (int, bool)) and ("name", SM_COUNT) in tokenize(str(expr))


def device_sm_count():
    """The SM count of torch's current CUDA device: what sm_count is where our kernels launch."""
    return torch.cuda.get_device_properties(torch.cuda.current_device()).multi_processor_count


# ----------------------------------------------------------------------------------------------
# Specs and kernels

@dataclass
class TensorPlan:
    """How to make one tensor: its dtype, shape and (inputs only) distribution."""
    name: str
    dtype: str
    shape: tuple
    kind: str = ""       # normal | uniform | randint ("" for outputs)
    a: float = 0.0       # mean or low
    b: float = 0.0       # stddev or high

    def elements(self):
        return math.prod(self.shape)


@dataclass
class KernelCase:
    """One task and the kernel to benchmark for it."""
    name: str
    spec: dict
    source: str
    entry: str
    grid: list
    block: list
    smem: object
    origin: str           # where the kernel comes from, for the report
    tensor_maps: list = field(default_factory=list)   # TensorMapRule, appended after the task's parameters
    other_build: bool = False   # built the other way from the worker (variant_bench --both-builds; Nvrtc.compile_cubin)

    @property
    def family(self):
        return self.spec["family"]

    @property
    def axes(self):
        return self.spec["axes"]


def tensor_plan(spec, tensor, is_input):
    axes = spec["axes"]
    shape = tuple(eval_expression(d, axes) for d in tensor["shape"])
    if any(d <= 0 for d in shape):
        raise ExpressionError(f"tensor '{tensor['name']}' has a non-positive dimension {shape}")
    if not is_input:
        return TensorPlan(tensor["name"], tensor["dtype"], shape)
    dist = tensor["distribution"]
    kind = dist["kind"]
    if kind == "normal":
        a, b = float(dist["mean"]), float(dist["stddev"])
    elif kind in ("uniform", "randint"):
        a, b = dist["low"], dist["high"]
        if kind == "randint":  # integer bounds may be expressions over the axes ("high": "V")
            a, b = eval_expression(a, axes), eval_expression(b, axes)
        a, b = float(a), float(b)
    else:
        raise ValueError(f"tensor '{tensor['name']}': unknown distribution '{kind}'")
    return TensorPlan(tensor["name"], tensor["dtype"], shape, kind, a, b)


def input_plans(spec):
    return [tensor_plan(spec, t, True) for t in spec["inputs"]]


def output_plans(spec):
    return [tensor_plan(spec, t, False) for t in spec["outputs"]]


def scalar_values(spec):
    return [spec["axes"][name] for name in spec.get("scalars", [])]


def case_uses_sm_count(case):
    return any(uses_sm_count(e) for e in list(case.grid) + list(case.block) + [case.smem])


def launch_dims(case, sm_count=None):
    """(grid, block, dynamic smem bytes) as integers, on a GPU with `sm_count` SMs (None: a rule that
    names sm_count is an error)."""
    grid = [eval_expression(e, case.axes, sm_count) for e in case.grid]
    block = [eval_expression(e, case.axes, sm_count) for e in case.block]
    smem = eval_expression(case.smem, case.axes, sm_count)
    grid += [1] * (3 - len(grid))
    block += [1] * (3 - len(block))
    if any(d <= 0 for d in grid + block) or smem < 0:
        raise ExpressionError(f"{case.name}: launch out of range: grid {grid}, block {block}, smem {smem}")
    return grid, block, smem


def join_source(source):
    return "\n".join(source) if isinstance(source, list) else source


def load_exported(directory):
    """The kernels `crucible-cli best --export DIR` wrote: DIR/<task>.json + DIR/<task>.cu."""
    cases = []
    for meta_path in sorted(Path(directory).glob("*.json")):
        meta = json.loads(meta_path.read_text())
        source_path = meta_path.with_suffix(".cu")
        if not source_path.exists():
            raise FileNotFoundError(f"{meta_path} has no kernel source {source_path}")
        # Exports older than tensor maps have no "launch" object: no maps.
        maps = parse_tensor_maps(meta.get("launch", {}).get("tensorMaps", []), meta["spec"], meta["task"])
        cases.append(KernelCase(meta["task"], meta["spec"], source_path.read_text(), meta["entry"], meta["grid"],
                                meta["block"], meta.get("smem", "0"),
                                f"candidate {meta.get('candidate')} of run {meta.get('run')}", maps))
    return cases


def load_baselines(directory):
    """The baselines of the task specs in a folder (resources/tasks): to test this script alone."""
    cases = []
    for path in sorted(Path(directory).glob("*.json")):
        if path.name.endswith(".tune.json"):   # a tunable kernel's parameter table sits beside its task
            continue
        spec = json.loads(path.read_text())
        launch = spec["baseline"]["launch"]
        cases.append(KernelCase(spec["name"], spec, join_source(spec["baseline"]["source"]), launch["entry"],
                                launch["grid"], launch["block"], launch.get("dynamicSmemBytes", "0"),
                                "spec baseline", parse_tensor_maps(launch.get("tensorMaps", []), spec, spec["name"])))
    return cases


# ----------------------------------------------------------------------------------------------
# TMA tensor maps (LaunchRule::tensorMaps): encoded with cuTensorMapEncodeTiled exactly as the
# Crucible worker does (backends/cuda/worker/tensor_maps.cpp) and passed after the task's
# parameters. A tensor is seen as a row-major matrix: cols = its last axis, rows = the rest.

ELEMENT_BYTES = {"f32": 4, "f16": 2, "bf16": 2, "f64": 8, "i32": 4, "i64": 8}
# CUtensorMapDataType (cuda.h)
TMA_DATA_TYPES = {"i32": 3, "i64": 5, "f16": 6, "f32": 7, "f64": 8, "bf16": 9}
# CUtensorMapSwizzle (cuda.h) and the span each swizzles within, in bytes
TMA_SWIZZLES = {"none": (0, 0), "32B": (1, 32), "64B": (2, 64), "128B": (3, 128)}
TMA_INTERLEAVE_NONE = 0
TMA_L2_PROMOTION_256B = 3
TMA_OOB_FILL_NONE = 0      # out-of-bounds elements read as zeros
TMA_MAX_BOX = 256


@dataclass
class TensorMapRule:
    tensor: str
    box_rows: int
    box_cols: int
    swizzle: str = "none"


@dataclass
class TensorMapEncoding:
    """The arguments of cuTensorMapEncodeTiled for one rule (rank 2, innermost dimension first)."""
    data_type: int
    global_dim: tuple       # (cols, rows)
    global_strides: tuple   # (bytes per row,)
    box_dim: tuple          # (box cols, box rows)
    swizzle: int
    element_strides: tuple = (1, 1)
    interleave: int = TMA_INTERLEAVE_NONE
    l2_promotion: int = TMA_L2_PROMOTION_256B
    oob_fill: int = TMA_OOB_FILL_NONE


def find_tensor(spec, name):
    for t in spec["inputs"] + spec["outputs"]:
        if t["name"] == name:
            return t
    return None


def tensor_matrix(spec, tensor):
    """(rows, cols) of the tensor seen as a row-major matrix."""
    dims = [eval_expression(d, spec["axes"]) for d in tensor["shape"]]
    cols = dims[-1] if dims else 1
    return math.prod(dims[:-1]), cols


def tensor_map_problems(spec, rules):
    """Every reason a rule cannot be encoded, as core/task/kernel_abi.cpp's tensorMapProblems words them."""
    problems = []
    for i, rule in enumerate(rules):
        label = f"tensorMaps[{i}] ({rule.tensor})"
        for j in range(i):
            if rules[j].tensor == rule.tensor:
                problems.append(f"{label}: a second map of the same tensor (tensorMaps[{j}]): both would be the "
                                f"parameter tmap_{rule.tensor}")
        span = TMA_SWIZZLES.get(rule.swizzle, (None, None))[1]
        if span is None:
            problems.append(f"{label}: unknown swizzle '{rule.swizzle}' (none, 32B, 64B or 128B)")
        if not 1 <= rule.box_rows <= TMA_MAX_BOX:
            problems.append(f"{label}: box rows {rule.box_rows} outside 1..{TMA_MAX_BOX}")
        box_cols_ok = 1 <= rule.box_cols <= TMA_MAX_BOX
        if not box_cols_ok:
            problems.append(f"{label}: box cols {rule.box_cols} outside 1..{TMA_MAX_BOX}")
        tensor = find_tensor(spec, rule.tensor)
        if tensor is None:
            problems.append(f"{label}: unknown tensor '{rule.tensor}' (not an input or output of task "
                            f"'{spec['name']}')")
            continue
        dtype = tensor["dtype"]
        if dtype not in TMA_DATA_TYPES:
            problems.append(f"{label}: TMA has no data type for {dtype}")
            continue
        rows, cols = tensor_matrix(spec, tensor)
        elem = ELEMENT_BYTES[dtype]
        if not (1 <= rows <= 1 << 32 and 1 <= cols <= 1 << 32):
            problems.append(f"{label}: the tensor's {rows} x {cols} matrix has a dimension outside 1..2^32")
        stride = cols * elem
        if stride % 16 or stride >= 1 << 40:
            problems.append(f"{label}: row stride {cols} x {elem} B ({dtype}) = {stride} B is not a multiple of 16 "
                            f"bytes below 2^40")
        if box_cols_ok:
            box_bytes = rule.box_cols * elem
            if box_bytes % 16:
                problems.append(f"{label}: box cols {rule.box_cols} x {elem} B ({dtype}) = {box_bytes} B is not a "
                                f"multiple of 16 bytes")
            if span and box_bytes > span:
                problems.append(f"{label}: box cols {rule.box_cols} x {elem} B ({dtype}) = {box_bytes} B exceed the "
                                f"{rule.swizzle} swizzle span")
    return problems


def parse_tensor_maps(entries, spec, where):
    """launch.tensorMaps of an exported kernel or a spec baseline, checked against the task.
    Raises ValueError naming the entry and what is wrong."""
    if not isinstance(entries, list):
        raise ValueError(f"{where}: launch.tensorMaps must be a list, not {type(entries).__name__}")
    rules = []
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict):
            raise ValueError(f"{where}: launch.tensorMaps[{i}] must be an object")
        for key, kind in (("tensor", str), ("boxRows", int), ("boxCols", int)):
            value = entry.get(key)
            if value is None:
                raise ValueError(f"{where}: launch.tensorMaps[{i}]: missing field '{key}'")
            if not isinstance(value, kind) or isinstance(value, bool):
                raise ValueError(f"{where}: launch.tensorMaps[{i}]: field '{key}' must be "
                                 f"{'a string' if kind is str else 'an integer'}")
        swizzle = entry.get("swizzle", "none")
        if not isinstance(swizzle, str):
            raise ValueError(f"{where}: launch.tensorMaps[{i}]: field 'swizzle' must be a string")
        rules.append(TensorMapRule(entry["tensor"], entry["boxRows"], entry["boxCols"], swizzle))
    problems = tensor_map_problems(spec, rules)
    if problems:
        raise ValueError(f"{where}: tensor maps cannot be encoded: " + "; ".join(problems))
    return rules


def tensor_map_encoding(spec, rule):
    tensor = find_tensor(spec, rule.tensor)
    rows, cols = tensor_matrix(spec, tensor)
    return TensorMapEncoding(data_type=TMA_DATA_TYPES[tensor["dtype"]], global_dim=(cols, rows),
                             global_strides=(cols * ELEMENT_BYTES[tensor["dtype"]],),
                             box_dim=(rule.box_cols, rule.box_rows), swizzle=TMA_SWIZZLES[rule.swizzle][0])


def describe_tensor_map(spec, rule):
    e = tensor_map_encoding(spec, rule)
    return (f"  tensor map tmap_{rule.tensor}: {e.global_dim[1]} x {e.global_dim[0]} elements, box "
            f"{rule.box_rows} x {rule.box_cols}, swizzle {rule.swizzle}")


def aligned_tensor_map():
    """A 128-byte CUtensorMap at a 64-byte aligned address (the driver requires it); ctypes only
    aligns to 8, so it is placed inside a larger buffer, which it keeps alive."""
    backing = (ctypes.c_uint8 * (128 + 64))()
    address = (ctypes.addressof(backing) + 63) // 64 * 64
    tensor_map = (ctypes.c_uint64 * 16).from_address(address)
    tensor_map._backing = backing
    return tensor_map


def select_cases(cases, only):
    if not only:
        return cases
    unknown = set(only) - {c.name for c in cases}
    if unknown:
        print(f"warning: no kernel for --only {', '.join(sorted(unknown))}", file=sys.stderr)
    return [c for c in cases if c.name in set(only)]


def is_memory_bound(case):
    return case.family in MEMORY_BOUND_FAMILIES


def dtype_of_first_input(case):
    return case.spec["inputs"][0]["dtype"]


def shape_text(case):
    return "x".join(str(v) for v in case.axes.values())


# ----------------------------------------------------------------------------------------------
# PyTorch references per family: eager (timed), exact (the correctness reference; defaults to
# eager), library (name, function) where a vendor library does the operator.

def rmsnorm_fp32(x, w):
    xf = x.float()
    return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + 1e-6) * w.float()).to(x.dtype)


def rmsnorm_eager(x, w):
    return F.rms_norm(x, (x.shape[-1],), w, eps=1e-6)


def matmul_bias_relu_eager(a, b, bias):
    return torch.relu(a @ b + bias)


def matmul_bias_relu_fp32(a, b, bias):
    """The spec's formula: fp32 accumulation, bias added in fp32, one rounding (eager rounds twice)."""
    return torch.relu(torch.matmul(a.float(), b.float()) + bias.float()).to(a.dtype)


def matmul_bias_relu_library():
    if hasattr(torch, "_addmm_activation"):
        return ("cuBLASLt GEMM with bias+ReLU epilogue (torch._addmm_activation)",
                lambda a, b, bias: torch._addmm_activation(bias, a, b))
    return ("cuBLAS addmm + ReLU (torch.addmm, torch.relu)", lambda a, b, bias: torch.relu(torch.addmm(bias, a, b)))


def in_fp32(fn):
    """The spec's formula for a half-precision task: fp32 math, one rounding to the output's dtype at the end
    (eager PyTorch rounds after every operation)."""
    def exact(*tensors):
        return fn(*[t.float() if t.is_floating_point() else t for t in tensors]).to(tensors[0].dtype)
    return exact


def add_rmsnorm_eager(x, residual, w):
    return F.rms_norm(x + residual, (x.shape[-1],), w, eps=1e-6)


def add_rmsnorm_formula(x, residual, w):
    h = x + residual
    return h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + 1e-6) * w


def swiglu_formula(gate, up):
    return F.silu(gate) * up


def scale_bias_formula(x, scale, bias):
    return x * scale + bias


@dataclass
class Reference:
    eager_text: str
    eager: object
    exact: object = None
    library_text: str = ""
    library: object = None


def reference_for(case):
    family = case.family
    if family == "softmax":
        return Reference("torch.softmax(x, -1)", lambda x: torch.softmax(x, -1))
    if family == "layernorm":
        return Reference("F.layer_norm(x, (N,), w, b, 1e-5)", lambda x, w, b: F.layer_norm(x, (x.shape[-1],), w, b, 1e-5))
    if family == "rmsnorm":
        if hasattr(F, "rms_norm"):
            return Reference("F.rms_norm(x, (N,), w, 1e-6)", rmsnorm_eager, exact=rmsnorm_fp32)
        return Reference("x.float()*rsqrt(mean(x^2)+1e-6)*w -> bf16", rmsnorm_fp32)
    if family == "gelu":
        return Reference("F.gelu(x) (erf)", lambda x: F.gelu(x))
    if family == "rowsum":
        return Reference("x.sum(1)", lambda x: x.sum(1))
    if family == "transpose":
        return Reference("x.t().contiguous()", lambda x: x.t().contiguous())
    if family == "matmul":
        what = ("cuBLAS sgemm (torch.matmul, TF32 off)" if dtype_of_first_input(case) == "f32"
                else "cuBLAS/cuBLASLt bf16 GEMM (torch.matmul)")
        # A Python function, not torch.matmul itself: torch.compile traces Python frames only,
        # and would run a bare builtin eagerly without saying so.
        return Reference("torch.matmul(A, B)", lambda a, b: torch.matmul(a, b), library_text=what,
                         library=torch.matmul)
    if family == "matmul_bias_relu":
        text, fn = matmul_bias_relu_library()
        return Reference("torch.relu(A @ B + bias)", matmul_bias_relu_eager, exact=matmul_bias_relu_fp32,
                         library_text=text, library=fn)
    if family == "cross_entropy":
        return Reference("F.cross_entropy(logits, targets, reduction='none')",
                         lambda logits, t: F.cross_entropy(logits, t, reduction="none"))
    # The operators a user brings (tests/tasks/any-operator, resources/kernels), issue 16.
    if family == "bias_gelu":
        return Reference("F.gelu(x + bias) (erf)", lambda x, bias: F.gelu(x + bias))
    if family == "add_rmsnorm":
        if hasattr(F, "rms_norm"):
            return Reference("F.rms_norm(x + residual, (N,), w, 1e-6)", add_rmsnorm_eager,
                             exact=in_fp32(add_rmsnorm_formula))
        return Reference("(x + residual) * rsqrt(mean(h^2) + 1e-6) * w", add_rmsnorm_formula,
                         exact=in_fp32(add_rmsnorm_formula))
    if family == "log_softmax":
        return Reference("torch.log_softmax(x, -1)", lambda x: torch.log_softmax(x, -1))
    if family == "logsumexp":
        return Reference("torch.logsumexp(x, -1)", lambda x: torch.logsumexp(x, -1))
    if family == "scale_bias":
        return Reference("x * scale + bias", scale_bias_formula, exact=in_fp32(scale_bias_formula))
    if family == "swiglu":
        return Reference("F.silu(gate) * up", swiglu_formula, exact=in_fp32(swiglu_formula))
    if family == "gemv":
        # torch.mv is cuBLAS sgemv: the eager column is the library.
        return Reference("torch.mv(A, x) (cuBLAS sgemv, TF32 off)", lambda a, x: torch.mv(a, x))
    raise ValueError(f"{case.name}: no PyTorch reference for family '{family}'")


# ----------------------------------------------------------------------------------------------
# NVRTC and the CUDA driver API through ctypes

def needs_arch_specific(source):
    """wgmma/setmaxnreg/tcgen05 exist only on the 'a' target (sm_90a)."""
    return re.search(r"\bwgmma\b|setmaxnreg|tcgen05", source) is not None


def target_arch(source, capability):
    arch = f"sm_{capability[0]}{capability[1]}"
    return arch + "a" if needs_arch_specific(source) else arch


def links_with_nvjitlink(arch):
    """The worker's choice (backends/cuda/compile/nvrtc_compiler.cpp): arch-specific targets (sm_90a) go
    NVRTC -> PTX -> nvJitLink; every other kernel is compiled whole-program by NVRTC. nvJitLink assembles
    PTX as a separate compilation (ptxas -c), which gave kernels more registers (46 instead of 32 for a
    transpose) and ran them up to 17% slower; the warp-specialized GEMM was tuned with its setmaxnreg
    dropped, as only nvJitLink drops it."""
    return arch.endswith("a")


def nvrtc_options(arch, nvjitlink=None):
    """What the worker gives NVRTC: the real architecture and ptxas's report for a whole-program compile,
    the virtual architecture's PTX for nvJitLink (nvjitlink None: as the worker chooses for `arch`)."""
    include = CUDA_HOME / "include"
    if nvjitlink is None:
        nvjitlink = links_with_nvjitlink(arch)
    target = ["--gpu-architecture=" + arch.replace("sm_", "compute_")] if nvjitlink else [f"--gpu-architecture={arch}"]
    report = [] if nvjitlink else ["--ptxas-options=-v"]
    return target + ["-lineinfo", "-std=c++17"] + report + [f"-I{include}", f"-I{include / 'cccl'}"]


def nvjitlink_options(arch):
    return [f"-arch={arch}", "-lineinfo"]


class Nvrtc:
    def __init__(self):
        self.lib = ctypes.CDLL(str(CUDA_HOME / "lib64" / "libnvrtc.so"))
        self.lib.nvrtcGetErrorString.restype = ctypes.c_char_p

    def version(self):
        major, minor = ctypes.c_int(), ctypes.c_int()
        self.lib.nvrtcVersion(ctypes.byref(major), ctypes.byref(minor))
        return f"{major.value}.{minor.value}"

    def check(self, rc, what):
        if rc != 0:
            raise RuntimeError(f"NVRTC {what}: {self.lib.nvrtcGetErrorString(rc).decode()}")

    def log(self, program):
        size = ctypes.c_size_t()
        self.lib.nvrtcGetProgramLogSize(program, ctypes.byref(size))
        text = ctypes.create_string_buffer(size.value)
        self.lib.nvrtcGetProgramLog(program, text)
        return text.value.decode(errors="replace")

    def compile_cubin(self, source, name, arch, other_build=False):
        """The cubin the evolution measured, built as the worker builds it (links_with_nvjitlink); with
        other_build, the other way (whole-program for sm_90a, PTX + nvJitLink for the rest), to measure the
        choice (variant_bench --both-builds)."""
        nvjitlink = links_with_nvjitlink(arch) != other_build
        if nvjitlink:
            return NvJitLink().link_ptx(self.compile(source, name, nvrtc_options(arch, True), "PTX"), name,
                                        nvjitlink_options(arch))
        return self.compile(source, name, nvrtc_options(arch, False), "CUBIN")

    def compile(self, source, name, options, output):
        """NVRTC's PTX or CUBIN (nvrtcGet<output>Size, nvrtcGet<output>) of one compile."""
        program = ctypes.c_void_p()
        self.check(self.lib.nvrtcCreateProgram(ctypes.byref(program), source.encode(), f"{name}.cu".encode(),
                                               0, None, None), "create program")
        try:
            argv = (ctypes.c_char_p * len(options))(*[o.encode() for o in options])
            rc = self.lib.nvrtcCompileProgram(program, len(options), argv)
            if rc != 0:
                raise RuntimeError(f"{name}: NVRTC compile failed ({' '.join(options)}):\n{self.log(program)}")
            size = ctypes.c_size_t()
            self.check(getattr(self.lib, f"nvrtcGet{output}Size")(program, ctypes.byref(size)), f"{output} size")
            data = ctypes.create_string_buffer(size.value)
            self.check(getattr(self.lib, f"nvrtcGet{output}")(program, data), f"get {output}")
            return data.raw
        finally:
            self.lib.nvrtcDestroyProgram(ctypes.byref(program))


NVJITLINK_INPUT_PTX = 2   # nvJitLinkInputType (nvJitLink.h)


class NvJitLink:
    """The toolkit's nvJitLink, as the worker links: PTX in, a cubin for one real architecture out."""

    def __init__(self):
        self.lib = ctypes.CDLL(str(CUDA_HOME / "lib64" / "libnvJitLink.so"))

    def log(self, handle):
        size = ctypes.c_size_t()
        self.lib.nvJitLinkGetErrorLogSize(handle, ctypes.byref(size))
        text = ctypes.create_string_buffer(size.value + 1)
        self.lib.nvJitLinkGetErrorLog(handle, text)
        return text.value.decode(errors="replace")

    def link_ptx(self, ptx, name, options):
        handle = ctypes.c_void_p()
        argv = (ctypes.c_char_p * len(options))(*[o.encode() for o in options])
        rc = self.lib.nvJitLinkCreate(ctypes.byref(handle), ctypes.c_uint32(len(options)), argv)
        if rc != 0:
            raise RuntimeError(f"{name}: nvJitLinkCreate({' '.join(options)}) failed: {rc}")
        try:
            rc = self.lib.nvJitLinkAddData(handle, ctypes.c_int(NVJITLINK_INPUT_PTX), ctypes.c_char_p(ptx),
                                           ctypes.c_size_t(len(ptx)), f"{name}.ptx".encode())
            if rc == 0:
                rc = self.lib.nvJitLinkComplete(handle)
            if rc != 0:
                raise RuntimeError(f"{name}: nvJitLink failed ({rc}):\n{self.log(handle)}")
            size = ctypes.c_size_t()
            if self.lib.nvJitLinkGetLinkedCubinSize(handle, ctypes.byref(size)) != 0:
                raise RuntimeError(f"{name}: nvJitLink gave no cubin size")
            cubin = ctypes.create_string_buffer(size.value)
            if self.lib.nvJitLinkGetLinkedCubin(handle, cubin) != 0:
                raise RuntimeError(f"{name}: nvJitLink gave no cubin")
            return cubin.raw
        finally:
            self.lib.nvJitLinkDestroy(ctypes.byref(handle))


CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1
CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8
DEFAULT_SMEM_LIMIT = 48 << 10


class Driver:
    """The driver API on the context torch made current (its primary context)."""

    def __init__(self):
        self.lib = ctypes.CDLL("libcuda.so.1")
        self.modules = []
        context = ctypes.c_void_p()
        self.check(self.lib.cuCtxGetCurrent(ctypes.byref(context)), "cuCtxGetCurrent")
        if not context.value:
            raise RuntimeError("no current CUDA context: torch must initialise the device first")

    def check(self, rc, what):
        if rc != 0:
            text = ctypes.c_char_p()
            self.lib.cuGetErrorString(rc, ctypes.byref(text))
            raise RuntimeError(f"{what} failed: CUDA error {rc} ({text.value.decode() if text.value else '?'})")

    def load(self, cubin, entry, smem):
        module, function = ctypes.c_void_p(), ctypes.c_void_p()
        self.check(self.lib.cuModuleLoadData(ctypes.byref(module), ctypes.c_char_p(cubin)), "cuModuleLoadData")
        self.modules.append(module)
        self.check(self.lib.cuModuleGetFunction(ctypes.byref(function), module, entry.encode()),
                   f"cuModuleGetFunction('{entry}')")
        # Past 48 KiB of static and dynamic together the kernel needs the opt-in, whichever part crosses it.
        static = ctypes.c_int(0)
        self.check(self.lib.cuFuncGetAttribute(ctypes.byref(static), CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, function),
                   f"the static shared memory of '{entry}'")
        if smem + static.value > DEFAULT_SMEM_LIMIT:
            self.check(self.lib.cuFuncSetAttribute(function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                                   ctypes.c_int(smem)), f"opting in to {smem} B of dynamic smem")
        return function

    def encode_tensor_map(self, address, encoding, what):
        """A CUtensorMap of the device memory at `address`, encoded by cuTensorMapEncodeTiled."""
        if address % 16:
            raise RuntimeError(f"{what}: the tensor's address {address:#x} is not 16-byte aligned, as TMA needs")
        tensor_map = aligned_tensor_map()
        u64x2, u32x2 = ctypes.c_uint64 * 2, ctypes.c_uint32 * 2
        self.check(self.lib.cuTensorMapEncodeTiled(
            ctypes.c_void_p(ctypes.addressof(tensor_map)), ctypes.c_int(encoding.data_type), ctypes.c_uint32(2),
            ctypes.c_void_p(address), u64x2(*encoding.global_dim), (ctypes.c_uint64 * 1)(*encoding.global_strides),
            u32x2(*encoding.box_dim), u32x2(*encoding.element_strides), ctypes.c_int(encoding.interleave),
            ctypes.c_int(encoding.swizzle), ctypes.c_int(encoding.l2_promotion), ctypes.c_int(encoding.oob_fill)),
            f"cuTensorMapEncodeTiled ({what})")
        return tensor_map

    @staticmethod
    def parameter_array(args):
        """cuLaunchKernel's kernelParams: the address of each argument (the args must stay alive)."""
        return (ctypes.c_void_p * len(args))(*[ctypes.addressof(a) for a in args])

    def launch(self, function, grid, block, smem, stream, params):
        self.check(self.lib.cuLaunchKernel(function, *[ctypes.c_uint(v) for v in grid + block], ctypes.c_uint(smem),
                                           ctypes.c_void_p(stream), params, None), "cuLaunchKernel")


class OurKernel:
    """A compiled candidate bound to its tensors: calling it launches once on torch's current stream."""

    def __init__(self, driver, nvrtc, case, inputs, outputs):
        self.driver, self.case = driver, case
        self.grid, self.block, self.smem = launch_dims(case, device_sm_count())
        self.arch = target_arch(case.source, torch.cuda.get_device_capability())
        cubin = nvrtc.compile_cubin(case.source, case.name, self.arch, case.other_build)
        self.function = driver.load(cubin, case.entry, self.smem)
        pointers = [ctypes.c_void_p(t.data_ptr()) for t in inputs + outputs]
        scalars = [ctypes.c_longlong(v) for v in scalar_values(case.spec)]
        by_name = {plan.name: t for plan, t in zip(input_plans(case.spec) + output_plans(case.spec), inputs + outputs)}
        maps = [driver.encode_tensor_map(by_name[rule.tensor].data_ptr(), tensor_map_encoding(case.spec, rule),
                                         f"{case.name} tensorMaps[{i}] ({rule.tensor})")
                for i, rule in enumerate(case.tensor_maps)]
        self.args = pointers + scalars + maps   # kept alive: the launch reads them by address
        self.params = Driver.parameter_array(self.args)

    def __call__(self):
        stream = torch.cuda.current_stream().cuda_stream
        self.driver.launch(self.function, self.grid, self.block, self.smem, stream, self.params)


# ----------------------------------------------------------------------------------------------
# Tensors and correctness

TORCH_DTYPES = {"f32": "float32", "f16": "float16", "bf16": "bfloat16", "f64": "float64", "i32": "int32",
                "i64": "int64"}


def torch_dtype(name):
    return getattr(torch, TORCH_DTYPES[name])


def make_input(plan, generator):
    dtype = torch_dtype(plan.dtype)
    if plan.kind == "randint":
        return torch.randint(int(plan.a), int(plan.b), plan.shape, dtype=dtype, device="cuda", generator=generator)
    if plan.kind == "normal":
        values = torch.randn(plan.shape, dtype=torch.float32, device="cuda", generator=generator) * plan.b + plan.a
    else:  # uniform [a, b)
        values = torch.rand(plan.shape, dtype=torch.float32, device="cuda", generator=generator) * (plan.b - plan.a) + plan.a
    return values.to(dtype)


def make_output(plan):
    """Filled with NaN (floating) so an element the kernel leaves unwritten fails the check."""
    dtype = torch_dtype(plan.dtype)
    if dtype.is_floating_point:
        return torch.full(plan.shape, float("nan"), dtype=dtype, device="cuda")
    return torch.full(plan.shape, -1, dtype=dtype, device="cuda")


def as_tuple(result):
    return tuple(result) if isinstance(result, (tuple, list)) else (result,)


def mismatch(out, ref, tolerance):
    """'' when |out - ref| <= atol + rtol*|ref| everywhere (NaN fails), else what is wrong."""
    if tuple(out.shape) != tuple(ref.shape):
        return f"shape {tuple(out.shape)} != reference {tuple(ref.shape)}"
    o, r = out.double(), ref.double()
    error = (o - r).abs()
    bad = ~(error <= tolerance["atol"] + tolerance["rtol"] * r.abs())
    count = int(bad.sum())
    if count == 0:
        return ""
    first = int(bad.flatten().nonzero()[0])
    finite = error[~torch.isnan(error)]
    worst = float(finite.max()) if finite.numel() else float("nan")
    return (f"{count} of {out.numel()} elements outside rtol {tolerance['rtol']} atol {tolerance['atol']}; "
            f"max abs error {worst:.3g}; first at flat index {first}: {float(o.flatten()[first])!r} vs "
            f"{float(r.flatten()[first])!r}")


def check_outputs(case, outputs, references):
    problems = []
    for plan_spec, out, ref in zip(case.spec["outputs"], outputs, references):
        why = mismatch(out, ref, case.spec["tolerances"][plan_spec["name"]])
        if why:
            problems.append(f"{plan_spec['name']}: {why}")
    return "; ".join(problems)


# ----------------------------------------------------------------------------------------------
# Timing: CUDA events, an L2 flush before every sample, contenders interleaved

FLUSH_MODES = ("write", "clean")


class L2Flush:
    """Evicts the L2 before a sample. "write" fills 256 MiB, as every table before 2026-12-03 did: the
    L2 is left full of the fill's dirty lines, which the timed kernel's misses then write back to DRAM
    (up to the L2's size of writes charged to it, a large share of a 20 us kernel's time, nothing of a
    2 GiB copy's). "clean" reads 256 MiB instead: the L2 holds only clean lines, the earlier
    contender's outputs are written back inside the flush, and the timed kernel pays for its own traffic."""

    def __init__(self, mode="write"):
        if mode not in FLUSH_MODES:
            raise ValueError(f"flush mode {mode!r}: one of {', '.join(FLUSH_MODES)}")
        self.mode = mode
        self.buffer = torch.zeros(L2_FLUSH_BYTES, dtype=torch.uint8, device="cuda")
        self.words = self.buffer.view(torch.int32)
        self.total = torch.zeros((), dtype=torch.int64, device="cuda")
        self.value = 0

    def __call__(self):
        if self.mode == "clean":
            torch.sum(self.words, dim=0, dtype=torch.int64, out=self.total)
            return
        self.value = (self.value + 1) % 251
        self.buffer.fill_(self.value)


def time_interleaved(contenders, samples, flush, warmup=3):
    """Median microseconds per contender: each round runs every contender once, the start rotating."""
    return medians_of(time_interleaved_samples(contenders, samples, flush, warmup))


def medians_of(times):
    """Each contender's median of its samples."""
    return {name: statistics.median(values) for name, values in times.items()}


def time_interleaved_samples(contenders, samples, flush, warmup=3):
    """Every contender's microseconds, one sample per round (round i of each list ran together)."""
    names = list(contenders)
    for _ in range(warmup):
        for name in names:
            contenders[name]()
    torch.cuda.synchronize()
    times = {name: [] for name in names}
    for i in range(samples):
        shift = i % len(names)
        recorded = []
        for name in names[shift:] + names[:shift]:
            flush()
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            contenders[name]()
            end.record()
            recorded.append((name, start, end))
        torch.cuda.synchronize()
        for name, start, end in recorded:
            times[name].append(start.elapsed_time(end) * 1000.0)
    return times


def median_interval(values, alpha=0.05):
    """The distribution-free (1 - alpha) interval of the median of `values`: the order statistics
    x(k) and x(n + 1 - k) with the largest k for which P(Binomial(n, 1/2) < k) <= alpha / 2. None
    when there are too few values for any such interval (n < 6 at 95%)."""
    ordered = sorted(values)
    n = len(ordered)
    excluded, k = 0.0, 0
    while k < n:
        p = math.comb(n, k) / 2.0 ** n
        if excluded + p > alpha / 2:
            break
        excluded += p
        k += 1
    if k == 0:
        return None
    return ordered[k - 1], ordered[n - k]


def paired_ratio_interval(reference_us, ours_us, alpha=0.05):
    """The (1 - alpha) interval of the median of reference / ours over rounds timed together: the
    two ran back to back in each round, so a ratio per round cancels what drifts between rounds
    (clocks, power). "Faster" is measured only when the whole interval lies above 1."""
    return median_interval([r / o for r, o in zip(reference_us, ours_us) if o > 0], alpha)


def copy_bandwidth(samples):
    """Device-to-device copy (torch copy_ of 2 GiB), GB/s counting read + write = 2 x size."""
    src = torch.ones(COPY_BYTES // 4, dtype=torch.float32, device="cuda")
    dst = torch.empty_like(src)
    median_us = time_interleaved({"copy": lambda: dst.copy_(src)}, samples, flush=lambda: None)["copy"]
    del src, dst
    torch.cuda.empty_cache()
    return 2 * COPY_BYTES / (median_us * 1e-6) / 1e9, median_us


# ----------------------------------------------------------------------------------------------
# GPU identity and clocks (nvidia-smi), sampled in the background for the whole run

def nvidia_smi(query):
    try:
        out = subprocess.run(["nvidia-smi", f"--query-gpu={query}", "--format=csv,noheader,nounits", "-i",
                              smi_index()], capture_output=True, text=True, timeout=30)
        return [v.strip() for v in out.stdout.strip().splitlines()[0].split(",")] if out.returncode == 0 else None
    except (OSError, IndexError, subprocess.TimeoutExpired):
        return None


def smi_index():
    visible = os.environ.get("CUDA_VISIBLE_DEVICES", "").split(",")[0].strip()
    return visible if visible.isdigit() else "0"


class ClockSampler:
    """nvidia-smi -lms: SM and memory clocks, power draw and whether the power cap holds the clocks
    back, every 100 ms. Each sample carries nvidia-smi's own timestamp, so output buffered in the pipe
    still lands in the right task's window. A driver that does not know the power fields gets the
    clocks alone (nvidia-smi refuses a whole query over one unknown field)."""
    QUERY = "timestamp,clocks.sm,clocks.mem,clocks.max.sm"
    # The instantaneous draw first: power.draw is a one-second average on recent GPUs, which a timing
    # loop shorter than a second (the H200's 8192^3 GEMM: about 0.5 s) mixes with what ran before it.
    POWER_FIELDS = ("power.draw.instant,clocks_event_reasons.sw_power_cap",
                    "power.draw,clocks_event_reasons.sw_power_cap")

    def __init__(self):
        self.samples = []   # ClockSample
        self.process = None
        power_fields = next((fields for fields in self.POWER_FIELDS if nvidia_smi(fields) is not None), None)
        query = self.QUERY + ("," + power_fields if power_fields else "")
        try:
            self.process = subprocess.Popen(["nvidia-smi", f"--query-gpu={query}", "--format=csv,noheader,nounits",
                                             "-i", smi_index(), "-lms", "100"], stdout=subprocess.PIPE,
                                            stderr=subprocess.DEVNULL, text=True)
        except OSError as e:
            print(f"warning: no clock samples: cannot run nvidia-smi ({e})", file=sys.stderr)
            return
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self):
        for line in self.process.stdout:
            sample = parse_clock_line(line)
            if sample:
                self.samples.append(sample)

    def stop(self):
        """Ends nvidia-smi and waits until every line it wrote is read."""
        if self.process:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.thread.join(timeout=10)

    def inside(self, window):
        return [s for s in self.samples if window[0] <= s.stamp <= window[1]]

    def sm_median_during(self, window):
        """Median SM clock of the samples inside [start, end]; None if none fell inside."""
        inside = [s.sm for s in self.inside(window)]
        return statistics.median(inside) if inside else None

    def power_during(self, window):
        """(median power draw in W, share of the samples in which the power cap held the clocks back)
        inside [start, end]; None where no sample there carried them."""
        return power_summary(self.inside(window))


@dataclass
class ClockSample:
    stamp: datetime.datetime
    sm: float                   # MHz
    mem: float                  # MHz
    max_sm: float               # MHz
    watts: float = None         # power.draw.instant (else power.draw); None where the driver gave none
    power_capped: bool = None   # clocks_event_reasons.sw_power_cap: the power cap holds the clocks back


def parse_clock_line(line):
    """'2025/01/31 12:00:00.123, 1980, 3201, 1980[, 612.5, Active]' -> ClockSample; None if the clocks
    are unreadable (power fields that read [N/A] are left None)."""
    fields = [v.strip() for v in line.split(",")]
    if len(fields) not in (4, 6):
        return None
    try:
        sample = ClockSample(datetime.datetime.strptime(fields[0], "%Y/%m/%d %H:%M:%S.%f"),
                             float(fields[1]), float(fields[2]), float(fields[3]))
    except ValueError:
        return None
    if len(fields) == 6:
        try:
            sample.watts = float(fields[4])
        except ValueError:
            pass
        if fields[5] in ("Active", "Not Active"):
            sample.power_capped = fields[5] == "Active"
    return sample


def power_summary(samples):
    watts = [s.watts for s in samples if s.watts is not None]
    capped = [s.power_capped for s in samples if s.power_capped is not None]
    if not watts or not capped:
        return None
    return statistics.median(watts), sum(capped) / len(capped)


def power_text(power):
    """'688 W, capped 97%': the median draw and the share of samples in which the power cap held the clocks."""
    return "—" if power is None else f"{power[0]:.0f} W, capped {power[1]:.0%}"


# ----------------------------------------------------------------------------------------------
# One task

@dataclass
class TaskResult:
    case: KernelCase
    ours_us: float = None
    eager_us: float = None
    compile_us: float = None
    library_us: float = None
    correct: bool = False
    reference: Reference = None
    arch: str = ""
    sm_mhz: float = None                        # median SM clock while it was timed
    power: tuple = None                         # (median W, share of samples power-capped) while it was timed
    window: tuple = None                        # (start, end) local time of its timing loop
    notes: list = field(default_factory=list)   # failures and mismatches, shown under the table
    error: str = ""                             # the task could not be measured at all
    fp64_errors: dict = None                    # fp32 GEMMs: contender -> (max, RMS) error against fp64
    same_copy_us: float = None                  # memory-bound: a torch copy_ moving the task's minBytes
    same_read_us: float = None                  # memory-bound: a kernel that only reads them (same_size_read)
    profiles: dict = field(default_factory=dict)   # --profile: contender -> suite_profile.Profile
    profile_note: str = ""                      # what the profile lacks, and why
    min_bytes: float = None                     # the task's formulas at its shape (attach_figures)
    flops: float = None
    compute_peak: tuple = None                  # GEMMs: (label, the device's peak FLOP/s or None)
    eager_ratio_interval: tuple = None          # 95% interval of eager / ours over the timing rounds


class CompileState:
    """torch.compile settings and the time it has spent. Every task is compiled, however long
    that takes (issue 20: never skipped for time); the report says how long each took."""

    def __init__(self, mode):
        self.mode, self.spent_s = mode, 0.0

    def compiled(self, fn, args, result):
        """The compiled function after its first (compiling) call, or None with a note why."""
        if self.mode is None:
            return None
        started = time.monotonic()
        try:
            compiled = torch.compile(fn, mode=self.mode, dynamic=False)
            compiled(*args)
            torch.cuda.synchronize()
            return compiled
        except Exception as e:  # noqa: BLE001 - any compiler failure is reported per task
            result.notes.append(f"torch.compile({self.mode}) FAILED: {type(e).__name__}: {first_line(e)}")
            return None
        finally:
            took = time.monotonic() - started
            self.spent_s += took
            result.notes.append(f"torch.compile({self.mode}) took {took:.0f} s")


def first_line(error):
    text = str(error).strip()
    return text.splitlines()[0][:300] if text else ""


def run_contender_check(name, fn, case, expected, result):
    """A reference contender whose output disagrees with the correctness reference is noted, not hidden."""
    why = check_outputs(case, [t.clone() for t in as_tuple(fn())], expected)
    if why:
        result.notes.append(f"{name} output differs from the reference: {why}")


def reference_in_fp64(ref, inputs):
    """The task's reference on fp64 copies of its floating-point inputs (integer inputs as they are)."""
    wide = [t.double() if t.is_floating_point() else t for t in inputs]
    return as_tuple((ref.exact or ref.eager)(*wide))[0].double()


def fp64_errors(outs, reference64):
    """(max, rms) of |out - reference64| over the first output, in fp64."""
    diff = (outs[0].double() - reference64).abs()
    return diff.max().item(), diff.square().mean().sqrt().item()


def is_fp32_matmul(case):
    return case.family == "matmul" and dtype_of_first_input(case) == "f32"


def bench_task(case, driver, nvrtc, compile_state, flush, samples):
    result = TaskResult(case)
    result.reference = reference_for(case)
    generator = torch.Generator(device="cuda").manual_seed(1234)
    inputs = [make_input(p, generator) for p in input_plans(case.spec)]
    outputs = [make_output(p) for p in output_plans(case.spec)]
    ref = result.reference
    expected = [t.clone() for t in as_tuple((ref.exact or ref.eager)(*inputs))]

    ours = OurKernel(driver, nvrtc, case, inputs, outputs)
    result.arch = ours.arch
    ours()
    torch.cuda.synchronize()
    first_check = check_outputs(case, outputs, expected)
    if is_fp32_matmul(case) and ref.library is not None:
        # "Full fp32": how far from exact ours and cuBLAS sgemm are, on the same inputs.
        reference64 = reference_in_fp64(ref, inputs)
        result.fp64_errors = {"ours": fp64_errors(outputs, reference64),
                              "library": fp64_errors(as_tuple(ref.library(*inputs)), reference64)}
        del reference64
        result.notes.append("error against fp64, max / RMS: " + "; ".join(
            f"{who} {e[0]:.3g} / {e[1]:.3g}" for who, e in result.fp64_errors.items()))

    contenders = {"ours": ours, "eager": lambda: ref.eager(*inputs)}
    if ref.exact is not None:
        run_contender_check("eager", contenders["eager"], case, expected, result)
    if ref.library is not None:
        contenders["library"] = lambda: ref.library(*inputs)
        run_contender_check("library", contenders["library"], case, expected, result)
    compiled = compile_state.compiled(ref.eager, inputs, result)
    if compiled is not None:
        contenders["compile"] = lambda: compiled(*inputs)
        run_contender_check("torch.compile", contenders["compile"], case, expected, result)

    same_copy = same_size_copy(case)
    if same_copy is not None:
        contenders["same_copy"] = same_copy
    same_read = same_size_read(case, driver, nvrtc)
    if same_read is not None:
        contenders["same_read"] = same_read

    started = datetime.datetime.now()   # local time, as nvidia-smi stamps its samples
    times = time_interleaved_samples(contenders, samples, flush)
    medians = medians_of(times)
    result.window = (started, datetime.datetime.now())
    result.eager_ratio_interval = paired_ratio_interval(times["eager"], times["ours"])

    last_check = check_outputs(case, outputs, expected)   # after many launches: races show here
    result.correct = not first_check and not last_check
    for when, why in (("first launch", first_check), ("after timing", last_check)):
        if why:
            result.notes.append(f"OUR KERNEL IS WRONG ({when}): {why}")
    result.ours_us, result.eager_us = medians["ours"], medians["eager"]
    result.library_us, result.compile_us = medians.get("library"), medians.get("compile")
    result.same_copy_us = medians.get("same_copy")
    result.same_read_us = medians.get("same_read")
    return result


def same_size_copy(case):
    """For a memory-bound task, a torch copy_ whose read + write equal the task's minBytes, timed
    interleaved with the contenders (L2 flushed like them). The 2 GiB copy is the roof the
    acceptance uses; at a few tens of MB, launch and ramp-up weigh on any kernel, and this copy
    shows how much (the table's "% same-size copy": that copy's time / ours)."""
    if not is_memory_bound(case):
        return None
    elements = max(1, int(eval_expression(case.spec["minBytes"], case.axes)) // 8)   # fp32: read 4 B + write 4 B
    src = torch.ones(elements, dtype=torch.float32, device="cuda")
    dst = torch.empty_like(src)
    return lambda: dst.copy_(src)


# The read roof at a task's size: every thread reads two 16-byte words of a contiguous buffer and
# keeps nothing (a sum it never stores, unless it is impossible, so the loads stay). The fastest of
# the read-only kernels tried on the H200 for 65.5 MB (results/2026-12-03-h200-read-roof.md).
READ_ROOF_SOURCE = r"""extern "C" __global__ void __launch_bounds__(128) read_roof(const float* __restrict__ x,
                                                                   float* __restrict__ sink, long long n) {
  const long long packs = n / 4;
  const long long first = (long long)blockIdx.x * 256 + threadIdx.x;
  const float4* p = reinterpret_cast<const float4*>(x);
  const float4 a = first < packs ? __ldg(p + first) : make_float4(0.f, 0.f, 0.f, 0.f);
  const float4 b = first + 128 < packs ? __ldg(p + first + 128) : make_float4(0.f, 0.f, 0.f, 0.f);
  const float s = a.x + a.y + a.z + a.w + b.x + b.y + b.z + b.w;
  if (s == -1.2345e30f) sink[0] = s;
}
"""


def read_roof_case(min_bytes):
    """The read-roof kernel as a KernelCase over a float buffer of `min_bytes` (rounded up to 16 bytes)."""
    n = max(4, -(-int(min_bytes) // 16) * 4)
    spec = {"name": "read_roof", "family": "read_roof", "axes": {"n": n}, "scalars": ["n"],
            "inputs": [{"name": "x", "dtype": "f32", "shape": ["n"],
                        "distribution": {"kind": "uniform", "low": 0.0, "high": 1.0}}],
            "outputs": [{"name": "sink", "dtype": "f32", "shape": ["1"]}]}
    return KernelCase("read_roof", spec, READ_ROOF_SOURCE, "read_roof", ["ceil_div(n, 1024)", "1", "1"],
                      ["128", "1", "1"], "0", "read roof")


def same_size_read(case, driver, nvrtc):
    """For a memory-bound task, a kernel that only reads the task's minBytes, timed with the contenders:
    how fast anything can move that many bytes at this size. A copy splits them into reads and writes;
    a task that mostly reads is better measured against this (its "% same-size read": that read's
    time / ours)."""
    if not is_memory_bound(case):
        return None
    roof = read_roof_case(eval_expression(case.spec["minBytes"], case.axes))
    x = torch.ones(roof.axes["n"], dtype=torch.float32, device="cuda")
    sink = torch.zeros(1, dtype=torch.float32, device="cuda")
    return OurKernel(driver, nvrtc, roof, [x], [sink])


def configure_torch():
    """The same settings in the bench and in its profile children (torch.compile's cache keys on them)."""
    torch.backends.cuda.matmul.allow_tf32 = False   # fp32 matmul is full fp32 (cuBLAS sgemm), also for compile
    torch.backends.cudnn.allow_tf32 = False
    torch.set_float32_matmul_precision("highest")
    torch.cuda.init()
    torch.zeros(1, device="cuda")                    # makes torch's primary context current for the driver API


def bench_all(cases, args):
    """Every task, one after another; a task that fails is reported and the others go on."""
    configure_torch()
    driver, nvrtc = Driver(), Nvrtc()
    flush = L2Flush(args.flush)
    compile_state = CompileState(None if args.no_compile else args.compile_mode)
    sampler = ClockSampler()
    results = []
    try:
        copy_gbs, copy_us = copy_bandwidth(args.copy_samples)
        for case in cases:
            print(f"[bench] {case.name} ({case.origin})", file=sys.stderr, flush=True)
            try:
                results.append(bench_task(case, driver, nvrtc, compile_state, flush, args.samples))
            except Exception as e:  # noqa: BLE001 - reported in the table, the other tasks go on
                failed = TaskResult(case, error=f"{type(e).__name__}: {str(e).strip()[:2000]}")
                results.append(failed)
                print(f"[bench] {case.name} FAILED: {failed.error}", file=sys.stderr, flush=True)
            torch.cuda.empty_cache()
    finally:
        sampler.stop()
    for r in results:
        if r.window:
            r.sm_mhz = sampler.sm_median_during(r.window)
            r.power = sampler.power_during(r.window)
    return results, (copy_gbs, copy_us), sampler, nvrtc.version()


# ----------------------------------------------------------------------------------------------
# Hardware profiles (--profile): one ncu call per task, after all the timing (suite_profile.py)

def profiled_contenders(case, has_compile):
    """Ours, torch.compile when it was timed, and the library for GEMMs (cuBLAS / cuBLASLt)."""
    return ["ours"] + (["compile"] if has_compile else []) + (["library"] if case.family in MATMUL_FAMILIES else [])


def profile_child(case, args):
    """The child ncu runs (--profile-child TASK): the task's contenders built as in the bench, each
    warmed up twice, then launched once inside its NVTX range; ncu profiles only those launches."""
    configure_torch()
    driver, nvrtc = Driver(), Nvrtc()
    generator = torch.Generator(device="cuda").manual_seed(1234)
    inputs = [make_input(p, generator) for p in input_plans(case.spec)]
    outputs = [make_output(p) for p in output_plans(case.spec)]
    ref = reference_for(case)
    contenders = {}
    for name in profiled_contenders(case, not args.no_compile):
        if name == "ours":
            contenders[name] = OurKernel(driver, nvrtc, case, inputs, outputs)
        elif name == "compile":
            notes = TaskResult(case)
            compiled = CompileState(args.compile_mode).compiled(ref.eager, inputs, notes)
            print(f"[profile-child] {case.name}: " + "; ".join(notes.notes), file=sys.stderr, flush=True)
            if compiled is not None:
                contenders[name] = lambda: compiled(*inputs)
        elif ref.library is not None:
            contenders[name] = lambda: ref.library(*inputs)
    for launch in contenders.values():
        launch()
        launch()
    torch.cuda.synchronize()
    for name, launch in contenders.items():
        torch.cuda.nvtx.range_push(suite_profile.PROFILE_RANGE)
        torch.cuda.nvtx.range_push(suite_profile.CONTENDER_RANGE + name)
        launch()
        torch.cuda.synchronize()
        torch.cuda.nvtx.range_pop()
        torch.cuda.nvtx.range_pop()
    return 0


def profile_dir(args):
    """Where ncu's CSV of each task is kept: beside --out (TABLE-ncu/), else a temporary folder."""
    if args.out:
        folder = Path(args.out).with_name(Path(args.out).stem + "-ncu")
        folder.mkdir(parents=True, exist_ok=True)
        return folder
    return Path(tempfile.mkdtemp(prefix="suite-ncu-"))


def profile_results(results, args):
    """Fills each measured result's profiles (and profile_note); returns the line the report gives it."""
    if not args.profile:
        return "not run (suite_bench.py without --profile)"
    ncu = suite_profile.find_ncu(args.ncu, CUDA_HOME)
    if ncu is None:
        where = args.ncu or f"not on PATH nor at {CUDA_HOME / 'bin' / 'ncu'}"
        return f"not run: no ncu ({where})"
    folder = profile_dir(args)
    source = ["--kernels", str(Path(args.kernels).resolve())] if args.kernels else \
        ["--tasks-dir", str(Path(args.tasks_dir).resolve())]
    spent, count, skipped = 0.0, 0, 0
    for r in profile_order(results):
        left = args.profile_budget - spent
        if left < 10:
            r.profile_note = f"not profiled: the {args.profile_budget} s for all profiles were spent"
            skipped += 1
            continue
        contenders = profiled_contenders(r.case, r.compile_us is not None)
        child = [sys.executable, str(Path(__file__).resolve()), *source, "--profile-child", r.case.name]
        child += ["--compile-mode", args.compile_mode] if r.compile_us is not None else ["--no-compile"]
        print(f"[profile] {r.case.name}: ncu over {', '.join(contenders)}", file=sys.stderr, flush=True)
        log = folder / (re.sub(r"[^\w.-]", "_", r.case.name) + ".csv")
        run = suite_profile.profile_task(ncu, child, contenders, log, int(min(args.profile_timeout, left)))
        r.profiles, r.profile_note = run.profiles, run.note
        r.notes.append(f"ncu profile: {run.seconds:.0f} s" + (f", {run.note}" if run.note else ""))
        spent += run.seconds
        count += 1
    return (f"ncu {suite_profile.ncu_version(ncu)}, one call per task ({count} tasks, {spent:.0f} s in all, at most "
            f"{args.profile_timeout} s each and {args.profile_budget} s in all"
            + (f"; {skipped} task(s) left unprofiled for that" if skipped else "")
            + f"), each contender launched once in its NVTX range; CSV in {folder}")


def profile_order(results):
    """The measured tasks, furthest behind torch.compile first: should the time for profiles run out,
    the tasks it leaves are those most likely to meet their targets. Tasks without compile come last."""
    measured = [r for r in results if not r.error and r.ours_us is not None]
    return sorted(measured, key=lambda r: r.compile_us / r.ours_us if r.compile_us else math.inf)


def attach_figures(results, peaks):
    """The task's minBytes and flops, and for GEMMs the device's peak it is measured against
    (the project's datasheet ceilings: bf16 tensor cores, or fp32 FMA with TF32 off)."""
    for r in results:
        r.min_bytes = eval_expression(r.case.spec["minBytes"], r.case.axes) if "minBytes" in r.case.spec else None
        r.flops = eval_expression(r.case.spec["flops"], r.case.axes) if "flops" in r.case.spec else None
        if r.case.family in MATMUL_FAMILIES:
            f32 = dtype_of_first_input(r.case) == "f32"
            r.compute_peak = ("fp32 FMA", peaks.get("fp32_fma")) if f32 else \
                ("bf16 tensor-core", peaks.get("bf16_tensor"))


# ----------------------------------------------------------------------------------------------
# Report

def fmt(value, digits=1):
    return "—" if value is None else f"{value:.{digits}f}"


def ratio(other_us, ours_us):
    """How many times faster ours is (other time / our time); > 1: ours is faster."""
    return None if other_us is None or ours_us is None else other_us / ours_us


def achieved_gbs(r, time_us=None):
    """The task's minBytes over our time (or over `time_us`: another contender moving the same bytes)."""
    time_us = r.ours_us if time_us is None else time_us
    if time_us is None or not is_memory_bound(r.case):
        return None
    return eval_expression(r.case.spec["minBytes"], r.case.axes) / (time_us * 1e-6) / 1e9


def achieved_tflops(r):
    if r.ours_us is None or r.case.family not in MATMUL_FAMILIES:
        return None
    return eval_expression(r.case.spec["flops"], r.case.axes) / (r.ours_us * 1e-6) / 1e12


def table_row(r, copy_gbs):
    gbs = achieved_gbs(r)
    percent = None if gbs is None else 100.0 * gbs / copy_gbs
    if r.error:
        correct = "ERROR"
    else:
        correct = "yes" if r.correct else "**NO**"
    def percent_of_ours(roof_us):
        share = ratio(roof_us, r.ours_us)
        return fmt(None if share is None else 100.0 * share, 1)

    cells = [r.case.name, shape_text(r.case), fmt(r.ours_us), fmt(r.eager_us), fmt(r.compile_us), fmt(r.library_us),
             fmt(ratio(r.eager_us, r.ours_us), 2), fmt(ratio(r.compile_us, r.ours_us), 2),
             fmt(ratio(r.library_us, r.ours_us), 2), fmt(gbs, 0), fmt(percent, 1),
             percent_of_ours(r.same_copy_us), percent_of_ours(r.same_read_us),
             fmt(achieved_tflops(r), 1),
             fmt(r.sm_mhz, 0), power_text(r.power), correct]
    return "| " + " | ".join(cells) + " |"


TABLE_HEADER = ("| task | shape | ours µs | eager µs | compile µs | library µs | × eager | × compile | × library "
                "| GB/s | % copy BW | % same-size copy | % same-size read | TFLOP/s | SM MHz | power | correct |\n"
                "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|")


def read_roof_text(r, copy_gbs):
    """Where a kernel that only reads the task's bytes stands on the same scale: the most any kernel
    of the task could show at its size."""
    if r.same_read_us is None:
        return ""
    read_gbs = achieved_gbs(r, r.same_read_us)
    return f"; a kernel that only reads the same bytes: {read_gbs / copy_gbs:.1%} ({r.same_read_us:.1f} µs)"


def acceptance_lines(results, copy_gbs, expected_names, compile_target=None):
    """(passed, line) for every check of issue 5, from the measurements only."""
    checks = []
    measured = {r.case.name for r in results}
    for name in expected_names:
        if name not in measured:
            checks.append((False, f"{name}: no kernel to measure (no valid candidate exported)"))
    for r in results:
        name = r.case.name
        if r.error or r.ours_us is None:
            checks.append((False, f"{name}: not measured: {r.error}"))
            continue
        if not r.correct:
            checks.append((False, f"{name}: our kernel is NOT correct"))
        speedup = ratio(r.eager_us, r.ours_us)
        # Faster only where the timing shows it: a ratio whose interval reaches 1 is a tie in the noise.
        interval = r.eager_ratio_interval
        measured = interval is None or interval[0] > 1.0
        interval_text = ""
        if interval is not None:
            interval_text = f"; 95% interval of eager / ours over the rounds: {interval[0]:.4f}-{interval[1]:.4f}"
            if speedup > 1.0 and not measured:
                interval_text += ", which reaches 1: not measurably faster"
        checks.append((r.correct and speedup > 1.0 and measured,
                       f"{name}: correct and faster than PyTorch eager: {speedup:.2f}x "
                       f"({r.ours_us:.1f} vs {r.eager_us:.1f} µs){interval_text}"))
        if is_memory_bound(r.case):
            fraction = achieved_gbs(r) / copy_gbs
            checks.append((fraction >= COPY_BW_TARGET,
                           f"{name}: >= {COPY_BW_TARGET:.0%} of copy bandwidth: {fraction:.1%} "
                           f"({achieved_gbs(r):.0f} of {copy_gbs:.0f} GB/s)" + read_roof_text(r, copy_gbs)))
        if compile_target is not None:
            if r.compile_us is None:
                checks.append((False, f"{name}: torch.compile was not measured"))
            else:
                fraction = r.compile_us / r.ours_us
                checks.append((fraction >= compile_target,
                               f"{name}: >= {compile_target:.0%} of torch.compile's speed: {fraction:.1%} "
                               f"({r.ours_us:.1f} vs {r.compile_us:.1f} µs)"))
        if is_fp32_matmul(r.case) and r.fp64_errors:
            ours_max, library_max = r.fp64_errors["ours"][0], r.fp64_errors["library"][0]
            checks.append((ours_max <= library_max,
                           f"{name}: full fp32 accuracy: max error against fp64 {ours_max:.3g}, "
                           f"cuBLAS sgemm's {library_max:.3g}"))
        if is_fp32_matmul(r.case):
            if r.library_us is None:
                checks.append((False, f"{name}: cuBLAS was not measured"))
            else:
                fraction = r.library_us / r.ours_us
                checks.append((fraction >= CUBLAS_TARGET,
                               f"{name}: >= {CUBLAS_TARGET:.0%} of cuBLAS sgemm: {fraction:.1%} "
                               f"({r.ours_us:.1f} vs {r.library_us:.1f} µs)"))
    return checks


def header_lines(args, copy, sampler, nvrtc_version, compile_mode, profile_status):
    identity = nvidia_smi("name,driver_version,clocks.max.sm,clocks.max.mem") or ["?", "?", "?", "?"]
    flush_text = "256 MiB read, the L2 left clean" if getattr(args, "flush", "write") == "clean" else "256 MiB write"
    sm = [s.sm for s in sampler.samples]
    mem = [s.mem for s in sampler.samples]
    power_limit = nvidia_smi("enforced.power.limit")
    clock_text = (f"SM {min(sm):.0f} / {statistics.median(sm):.0f} / {max(sm):.0f} MHz (min / median / max), "
                  f"memory {min(mem):.0f} / {statistics.median(mem):.0f} / {max(mem):.0f} MHz, "
                  f"over {len(sm)} samples" if sm else "not sampled (nvidia-smi unavailable)")
    return [
        "# Crucible suite benchmark",
        "",
        f"- date: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}",
        f"- GPU: {torch.cuda.get_device_name()} (nvidia-smi: {identity[0]}), driver {identity[1]}, "
        f"max clocks SM {identity[2]} MHz / memory {identity[3]} MHz, "
        f"power limit {power_limit[0] + ' W' if power_limit else 'not read'}",
        f"- clocks during the run (nvidia-smi every 100 ms): {clock_text}",
        f"- software: PyTorch {torch.__version__}, CUDA {torch.version.cuda}, NVRTC {nvrtc_version}",
        f"- device-to-device copy bandwidth, measured in this run: {copy[0]:.0f} GB/s "
        f"(torch copy_ of 2 GiB, bytes = 2 x size, median of {args.copy_samples})",
        f"- timing: CUDA events, median of {args.samples} samples, L2 flushed ({flush_text}) before each, "
        "all contenders of a task interleaved in the same process",
        f"- torch.compile: {'not run (--no-compile)' if compile_mode is None else 'mode=' + compile_mode}",
        f"- kernels: {args.kernels or args.tasks_dir} "
        f"({'best candidates exported by crucible-cli best' if args.kernels else 'spec baselines'})",
        f"- hardware profiles: {profile_status}",
        "",
        "× eager / × compile / × library: that time divided by ours (> 1: ours is faster). GB/s: the task's "
        "minBytes / our time. % same-size copy: a torch copy_ moving the task's minBytes, timed with the "
        "contenders, as a share of our time (the launch and ramp-up cost at the task's size). % same-size read: the same "
        "for a kernel that only reads those bytes (two 16-byte loads a thread, nothing stored), the roof of a task that "
        "mostly reads. TFLOP/s: the task's flops / our time. SM MHz: the median of nvidia-smi's SM clock, sampled "
        "every 100 ms while the task was timed, mostly between kernels and during the L2 flushes: a power-limited "
        "kernel runs slower than that (the bf16 GEMMs at 1480-1616 MHz where this said 1980, measured by clock64 "
        "inside them: results/2026-12-04-h200-gemm-feed.md). power: nvidia-smi's instantaneous power draw over the "
        "same samples (median), and the share of them in which the power cap held the clocks back (clocks_event_reasons."
        "sw_power_cap): a task capped most of the time runs at the clock its energy per second allows.",
        "",
    ]


def notes_lines(results):
    lines = ["", "## Per task", ""]
    for r in results:
        parts = [f"kernel: {r.case.origin}" + (f", {r.arch}" if r.arch else "")]
        if r.reference:
            parts.append(f"eager: `{r.reference.eager_text}`")
            if r.reference.library_text:
                parts.append(f"library: {r.reference.library_text}")
        if r.error:
            parts.append(f"**FAILED: {r.error}**")
        parts += r.notes
        lines.append(f"- {r.case.name}: " + "; ".join(parts))
    return lines


def render_report(results, copy, sampler, nvrtc_version, args, expected_names, profile_status=None, peaks=None):
    """The markdown report and whether issue 5's checks all pass. profile_status: the hardware profiles'
    line (None: not asked for); peaks: the device's datasheet ceilings from the project."""
    compile_mode = None if args.no_compile else args.compile_mode
    peaks = peaks or {}
    profile_status = profile_status or "not run (suite_bench.py without --profile)"
    attach_figures(results, peaks)
    lines = header_lines(args, copy, sampler, nvrtc_version, compile_mode, profile_status)
    lines.append(TABLE_HEADER)
    lines += [table_row(r, copy[0]) for r in results]
    lines += suite_targets.geomean_lines(results)
    throughput = (suite_targets.evolution_throughput(args.project, [r.case.name for r in results])
                  if getattr(args, "project", None) else {})
    lines += suite_targets.throughput_lines(throughput)
    lines += notes_lines(results)
    lines += suite_profile.profile_table_lines(results, copy[0], peaks.get("dram_bw"))
    checks = acceptance_lines(results, copy[0], expected_names, args.compile_target)
    passed = sum(ok for ok, _ in checks)
    lines += ["", "## Acceptance (issue 5), measured above", ""]
    lines += [f"- {'PASS' if ok else 'FAIL'} {text}" for ok, text in checks]
    verdict = "PASS" if checks and passed == len(checks) else "FAIL"
    lines += ["", f"**{verdict}: {passed} of {len(checks)} checks pass.**", ""]
    if compile_mode is not None:  # issue 20's targets need torch.compile beside ours
        targets = suite_targets.target_checks(results, copy[0], throughput, is_memory_bound, achieved_gbs)
        lines += suite_targets.target_lines(targets)
        lines += suite_targets.limit_lines(targets, results, copy[0], throughput, is_memory_bound, profile_status,
                                           peaks.get("dram_bw"))
    return "\n".join(lines), verdict == "PASS"


# ----------------------------------------------------------------------------------------------
# Dry run: everything that needs no GPU

def describe_case(case):
    grid, block, smem = launch_dims(case, DRY_RUN_SM_COUNT)
    arch = target_arch(case.source, DRY_RUN_CAPABILITY)
    assumed = f" (sm_count = {DRY_RUN_SM_COUNT} assumed: a dry run has no GPU)" if case_uses_sm_count(case) else ""
    lines = [f"{case.name}  [{case.family}, {case.origin}]",
             f"  launch {case.entry}: grid {grid}, block {block}, dynamic smem {smem} B{assumed}; scalars "
             f"{dict(zip(case.spec.get('scalars', []), scalar_values(case.spec)))}",
             f"  nvrtc: {' '.join(nvrtc_options(arch))}"
             + (f"; nvJitLink: {' '.join(nvjitlink_options(arch))}" if links_with_nvjitlink(arch) else "")]
    for rule in case.tensor_maps:
        lines.append(describe_tensor_map(case.spec, rule))
    for p in input_plans(case.spec):
        lines.append(f"  in  {p.name}: {p.dtype}{list(p.shape)} {p.kind}({p.a:g}, {p.b:g})")
    for p in output_plans(case.spec):
        tol = case.spec["tolerances"][p.name]
        lines.append(f"  out {p.name}: {p.dtype}{list(p.shape)} rtol {tol['rtol']} atol {tol['atol']}")
    flops = eval_expression(case.spec["flops"], case.axes)
    min_bytes = eval_expression(case.spec["minBytes"], case.axes)
    kind = "memory-bound" if is_memory_bound(case) else "compute (matmul)" if case.family in MATMUL_FAMILIES else "?"
    lines.append(f"  flops {flops:.4g}, minBytes {min_bytes:.4g} ({kind})")
    return "\n".join(lines)


def nvrtc_if_present():
    """NVRTC needs no GPU: the dry run compiles too when the toolkit is here."""
    try:
        return Nvrtc()
    except OSError:
        return None


def dry_run(cases, capability):
    failures = 0
    nvrtc = nvrtc_if_present()
    for case in cases:
        try:
            print(describe_case(case))
            if nvrtc:
                arch = target_arch(case.source, capability)
                cubin = nvrtc.compile_cubin(case.source, case.name, arch)
                print(f"  compiled for {arch}: cubin of {len(cubin)} B")
        except (ExpressionError, KeyError, ValueError, RuntimeError) as e:
            failures += 1
            print(f"{case.name}: INVALID: {e}")
    compiled = f"compiled with NVRTC {nvrtc.version()}" if nvrtc else f"not compiled (no NVRTC under {CUDA_HOME})"
    print(f"dry run: {len(cases) - failures} of {len(cases)} kernels described and {compiled}; {failures} failed")
    return 1 if failures else 0


# ----------------------------------------------------------------------------------------------

def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("--kernels", help="folder written by `crucible-cli best --export`")
    source.add_argument("--tasks-dir", help="a folder of task specs: benchmark their baselines (tests this script)")
    p.add_argument("--only", default="", help="comma-separated task names to keep")
    p.add_argument("--expect", default="", help="comma-separated task names that must be present (missing: FAIL)")
    p.add_argument("--out", help="write the markdown report here as well")
    p.add_argument("--samples", type=int, default=50, help="timed samples per contender (>= 30)")
    p.add_argument("--flush", choices=FLUSH_MODES, default="write",
                   help="how the L2 is emptied before each sample (see L2Flush): write (the tables' method "
                        "until 2026-12-03) or clean")
    p.add_argument("--copy-samples", type=int, default=30, help="samples of the copy-bandwidth measurement")
    p.add_argument("--no-compile", action="store_true", help="skip torch.compile")
    p.add_argument("--compile-mode", default="max-autotune-no-cudagraphs",
                   help="torch.compile mode (default max-autotune-no-cudagraphs: CUDA graphs would hide launch "
                        "overhead that our kernels pay, and the L2 flush between samples breaks their replay)")
    p.add_argument("--project", help="the Crucible project the kernels came from: adds its evaluations per "
                                     "GPU-minute per task and issue 20's throughput target")
    p.add_argument("--compile-target", type=float, default=None,
                   help="also check that ours reaches this fraction of torch.compile's speed (issue 16: 0.9)")
    p.add_argument("--profile", action="store_true",
                   help="after the timing, profile ours, torch.compile and (GEMMs) the library of every task with ncu "
                        "(one call per task) and say which roof bounds each, and what limits each missed target")
    p.add_argument("--ncu", help="the ncu executable (default: on PATH, else CUDA_HOME/bin/ncu)")
    p.add_argument("--profile-timeout", type=int, default=suite_profile.DEFAULT_TIMEOUT_S,
                   help="seconds one task's ncu call may take (default %(default)s)")
    p.add_argument("--profile-budget", type=int, default=300,
                   help="seconds all the ncu calls together may take; the tasks left are reported unprofiled "
                        "(default %(default)s)")
    p.add_argument("--profile-child", metavar="TASK",
                   help="internal: the process ncu profiles; launches TASK's contenders in NVTX ranges")
    p.add_argument("--dry-run", action="store_true", help="evaluate launches and input plans only; no torch, no GPU")
    args = p.parse_args(argv)
    if args.samples < 30:
        p.error("--samples must be at least 30")
    return args


def names(text):
    return [n for n in (s.strip() for s in text.split(",")) if n]


def main(argv=None):
    args = parse_args(argv)
    cases = load_exported(args.kernels) if args.kernels else load_baselines(args.tasks_dir)
    cases = select_cases(cases, names(args.only))
    if args.dry_run:
        return dry_run(cases, DRY_RUN_CAPABILITY)
    if torch is None or not torch.cuda.is_available():
        print("suite_bench: needs PyTorch with a CUDA GPU (use --dry-run to check specs without one)", file=sys.stderr)
        return 2
    if args.profile_child:
        chosen = [c for c in cases if c.name == args.profile_child]
        if not chosen:
            print(f"suite_bench: --profile-child: no kernel for task '{args.profile_child}'", file=sys.stderr)
            return 2
        return profile_child(chosen[0], args)
    results, copy, sampler, nvrtc_version = bench_all(cases, args)
    profile_status = profile_results(results, args)
    peaks = suite_targets.device_peaks(args.project, torch.cuda.get_device_name()) if args.project else {}
    report, passed = render_report(results, copy, sampler, nvrtc_version, args, names(args.expect), profile_status,
                                   peaks)
    print(report)
    if args.out:
        Path(args.out).write_text(report)
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
