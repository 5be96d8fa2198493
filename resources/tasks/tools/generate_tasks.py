#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the built-in task specs (resources/tasks/*.json) from the table below
and the kernel sources in resources/tasks/kernels/. Edit those, then run
    python3 resources/tasks/tools/generate_tasks.py
and check the result with `crucible-cli task validate resources/tasks/*.json`.
The format is documented in resources/tasks/README.md."""
import json
import pathlib

TASKS_DIR = pathlib.Path(__file__).resolve().parent.parent
KERNELS_DIR = TASKS_DIR / "kernels"


def source(name):
    return (KERNELS_DIR / name).read_text().split("\n")


def kernel(file, entry, grid, block, smem="0"):
    pad = lambda dims: [str(d) for d in dims] + ["1"] * (3 - len(dims))
    return {"launch": {"entry": entry, "grid": pad(grid), "block": pad(block), "dynamicSmemBytes": smem},
            "source": source(file)}


def tensor(name, dtype, shape, distribution=None):
    t = {"name": name, "dtype": dtype, "shape": shape}
    if distribution is not None:
        t["distribution"] = distribution
    return t


NORMAL = {"kind": "normal", "mean": 0.0, "stddev": 1.0}
UNIFORM_PM1 = {"kind": "uniform", "low": -1.0, "high": 1.0}


def row_kernels(stem, entry, oracle_entry, rows="M"):
    """Baseline: one 256-thread block per row. Oracle: one thread per row."""
    return (kernel(f"{stem}.baseline.cu", entry, [rows], [256]),
            kernel(f"{stem}.oracle.cu", oracle_entry, [f"ceil_div({rows}, 128)"], [128]))


def gemm_kernels(stem, entry, oracle_entry):
    """Baseline: one thread per C element in 16x16 blocks. Oracle: 128x128 tiles of C, 256 threads
    of 8x8 elements each (it runs for every validation draw, so it is tiled)."""
    return (kernel(f"{stem}.baseline.cu", entry, ["ceil_div(N, 16)", "ceil_div(M, 16)"], [16, 16]),
            kernel(f"{stem}.oracle.cu", oracle_entry, ["ceil_div(N, 128)", "ceil_div(M, 128)"], [256]))


# The smaller axes compute-sanitizer runs candidates at (README, `sanitizeAxes`), by task name.
SANITIZE_AXES = {
    "softmax_f32_8192x4096": {"M": 256},
    "layernorm_f32_8192x4096": {"M": 256},
    "rmsnorm_bf16_8192x8192": {"M": 128},
    "gelu_f32_67108864": {"N": 1048576},
    "rowsum_f32_8192x8192": {"M": 128},
    "transpose_f32_8192x8192": {"M": 1024, "N": 1024},
    "matmul_f32_4096x4096x4096": {"M": 1024, "N": 1024, "K": 1024},
    "matmul_bf16_8192x8192x8192": {"M": 1024, "N": 1024, "K": 1024},
    "matmul_bias_relu_bf16_4096x4096x4096": {"M": 1024, "N": 1024, "K": 1024},
    "cross_entropy_f32_8192x32000": {"M": 64},
}


def spec(name, family, description, axes, inputs, outputs, scalars, tolerances, flops, min_bytes, entry,
         kernels, library=""):
    baseline, oracle = kernels
    s = {"format": 1, "name": name, "family": family, "description": description, "axes": axes,
         "inputs": inputs, "outputs": outputs, "scalars": scalars, "tolerances": tolerances,
         "flops": flops, "minBytes": min_bytes, "entry": entry, "libraryReference": library}
    if name in SANITIZE_AXES:
        s["sanitizeAxes"] = SANITIZE_AXES[name]
    s["baseline"] = baseline
    s["oracle"] = oracle
    return s


def to_text(s):
    """Indented JSON, with sanitizeAxes on one line as the files have it."""
    text = json.dumps(s, indent=2) + "\n"
    if "sanitizeAxes" in s:
        text = text.replace(json.dumps({"sanitizeAxes": s["sanitizeAxes"]}, indent=2)[2:-2],
                            '  "sanitizeAxes": ' + json.dumps(s["sanitizeAxes"]))
    return text


def tol(rtol, atol):
    return {"rtol": rtol, "atol": atol}


def softmax(M, N):
    return spec(f"softmax_f32_{M}x{N}", "softmax",
                "Softmax over the last axis of an MxN fp32 tensor: "
                "y[i,j] = exp(x[i,j] - max(x[i,:])) / sum_k exp(x[i,k] - max(x[i,:])).",
                {"M": M, "N": N}, [tensor("x", "f32", ["M", "N"], NORMAL)], [tensor("y", "f32", ["M", "N"])],
                ["M", "N"], {"y": tol(1e-4, 1e-7)},
                "5*M*N", "4*M*N + 4*M*N", "softmax_kernel",
                row_kernels("softmax_f32", "softmax_kernel", "softmax_oracle"))


def layernorm(M, N):
    return spec(f"layernorm_f32_{M}x{N}", "layernorm",
                "Layer normalisation over the last axis of an MxN fp32 tensor, eps = 1e-5 (a constant in the "
                "kernels), biased variance: y = (x - mean) / sqrt(var + 1e-5) * weight + bias.",
                {"M": M, "N": N},
                [tensor("x", "f32", ["M", "N"], NORMAL),
                 tensor("weight", "f32", ["N"], {"kind": "uniform", "low": 0.5, "high": 1.5}),
                 tensor("bias", "f32", ["N"], {"kind": "uniform", "low": -0.5, "high": 0.5})],
                [tensor("y", "f32", ["M", "N"])], ["M", "N"], {"y": tol(1e-4, 1e-5)},
                "8*M*N", "4*M*N + 4*N + 4*N + 4*M*N", "layernorm_kernel",
                row_kernels("layernorm_f32", "layernorm_kernel", "layernorm_oracle"))


def rmsnorm(M, N):
    return spec(f"rmsnorm_bf16_{M}x{N}", "rmsnorm",
                "RMS normalisation over the last axis of an MxN bf16 tensor, computed in fp32, eps = 1e-6 "
                "(a constant in the kernels): y = bf16(x / sqrt(mean(x^2) + 1e-6) * weight).",
                {"M": M, "N": N},
                [tensor("x", "bf16", ["M", "N"], NORMAL),
                 tensor("weight", "bf16", ["N"], {"kind": "uniform", "low": 0.5, "high": 1.5})],
                [tensor("y", "bf16", ["M", "N"])], ["M", "N"], {"y": tol(2e-2, 1e-3)},
                "4*M*N", "2*M*N + 2*N + 2*M*N", "rmsnorm_kernel",
                row_kernels("rmsnorm_bf16", "rmsnorm_kernel", "rmsnorm_oracle"))


def gelu(N):
    return spec(f"gelu_f32_{N}", "gelu",
                "GELU, erf form, elementwise over N fp32 values: y = 0.5 * x * (1 + erf(x / sqrt(2))).",
                {"N": N}, [tensor("x", "f32", ["N"], NORMAL)], [tensor("y", "f32", ["N"])],
                ["N"], {"y": tol(1e-5, 1e-6)},
                "5*N", "4*N + 4*N", "gelu_kernel",
                (kernel("gelu_f32.baseline.cu", "gelu_kernel", ["ceil_div(N, 256)"], [256]),
                 kernel("gelu_f32.oracle.cu", "gelu_oracle", ["ceil_div(N, 256)"], [256])))


def rowsum(M, N):
    return spec(f"rowsum_f32_{M}x{N}", "rowsum",
                "Sum over the last axis of an MxN fp32 tensor: y[i] = sum_j x[i,j].",
                {"M": M, "N": N}, [tensor("x", "f32", ["M", "N"], NORMAL)], [tensor("y", "f32", ["M"])],
                ["M", "N"], {"y": tol(1e-4, 1e-3)},
                "M*N", "4*M*N + 4*M", "rowsum_kernel",
                row_kernels("rowsum_f32", "rowsum_kernel", "rowsum_oracle"))


def transpose(M, N):
    return spec(f"transpose_f32_{M}x{N}", "transpose",
                "Transpose of an MxN fp32 row-major tensor into an NxM row-major tensor: y[j,i] = x[i,j]. "
                "Exact: no tolerance.",
                {"M": M, "N": N}, [tensor("x", "f32", ["M", "N"], NORMAL)], [tensor("y", "f32", ["N", "M"])],
                ["M", "N"], {"y": tol(0.0, 0.0)},
                "0", "4*M*N + 4*M*N", "transpose_kernel",
                (kernel("transpose_f32.baseline.cu", "transpose_kernel",
                        ["ceil_div(N, 32)", "ceil_div(M, 32)"], [32, 8]),
                 kernel("transpose_f32.oracle.cu", "transpose_oracle",
                        ["ceil_div(N, 16)", "ceil_div(M, 16)"], [16, 16])))


def matmul_f32(M, N, K, atol):
    return spec(f"matmul_f32_{M}x{N}x{K}", "matmul",
                "C = A @ B with A MxK, B KxN, C MxN, all fp32 row-major, full fp32 arithmetic (no TF32). "
                "Inputs uniform in [-1, 1); atol covers fp32 rounding over K products in any summation order "
                "but not TF32 inputs.",
                {"M": M, "N": N, "K": K},
                [tensor("A", "f32", ["M", "K"], UNIFORM_PM1), tensor("B", "f32", ["K", "N"], UNIFORM_PM1)],
                [tensor("C", "f32", ["M", "N"])], ["M", "N", "K"], {"C": tol(1e-4, atol)},
                "2*M*N*K", "4*M*K + 4*K*N + 4*M*N", "matmul_kernel",
                gemm_kernels("matmul_f32", "matmul_kernel", "matmul_oracle"), "cublas_sgemm")


def matmul_bf16(M, N, K):
    return spec(f"matmul_bf16_{M}x{N}x{K}", "matmul",
                "C = bf16(A @ B) with A MxK, B KxN, C MxN, all bf16 row-major, fp32 accumulation. "
                "Inputs uniform in [-1, 1).",
                {"M": M, "N": N, "K": K},
                [tensor("A", "bf16", ["M", "K"], UNIFORM_PM1), tensor("B", "bf16", ["K", "N"], UNIFORM_PM1)],
                [tensor("C", "bf16", ["M", "N"])], ["M", "N", "K"], {"C": tol(2e-2, 1e-2)},
                "2*M*N*K", "2*M*K + 2*K*N + 2*M*N", "matmul_kernel",
                gemm_kernels("matmul_bf16", "matmul_kernel", "matmul_oracle"), "cublaslt_bf16_gemm")


def matmul_bias_relu(M, N, K):
    return spec(f"matmul_bias_relu_bf16_{M}x{N}x{K}", "matmul_bias_relu",
                "C = bf16(relu(A @ B + bias)) with A MxK, B KxN, bias N (broadcast over rows), C MxN, all bf16 "
                "row-major, fp32 accumulation, bias added in fp32 before the ReLU and the rounding. "
                "Inputs uniform in [-1, 1).",
                {"M": M, "N": N, "K": K},
                [tensor("A", "bf16", ["M", "K"], UNIFORM_PM1), tensor("B", "bf16", ["K", "N"], UNIFORM_PM1),
                 tensor("bias", "bf16", ["N"], UNIFORM_PM1)],
                [tensor("C", "bf16", ["M", "N"])], ["M", "N", "K"], {"C": tol(2e-2, 1e-2)},
                "2*M*N*K + 2*M*N", "2*M*K + 2*K*N + 2*N + 2*M*N", "matmul_bias_relu_kernel",
                gemm_kernels("matmul_bias_relu_bf16", "matmul_bias_relu_kernel", "matmul_bias_relu_oracle"),
                "cublaslt_bf16_gemm_bias_relu")


def cross_entropy(M, V):
    return spec(f"cross_entropy_f32_{M}x{V}", "cross_entropy",
                "Cross-entropy per row (reduction none) of MxV fp32 logits against int64 class targets in "
                "[0, V): loss[i] = logsumexp(logits[i,:]) - logits[i, targets[i]].",
                {"M": M, "V": V},
                [tensor("logits", "f32", ["M", "V"], NORMAL),
                 tensor("targets", "i64", ["M"], {"kind": "randint", "low": 0, "high": "V"})],
                [tensor("loss", "f32", ["M"])], ["M", "V"], {"loss": tol(1e-4, 1e-4)},
                "4*M*V", "4*M*V + 8*M + 4*M", "cross_entropy_kernel",
                row_kernels("cross_entropy_f32", "cross_entropy_kernel", "cross_entropy_oracle"))


SUITE = [
    softmax(8192, 4096), softmax(1024, 1024),
    layernorm(8192, 4096), layernorm(1024, 1024),
    rmsnorm(8192, 8192), rmsnorm(1024, 1024),
    gelu(1 << 26), gelu(1 << 20),
    rowsum(8192, 8192), rowsum(1024, 1024),
    transpose(8192, 8192), transpose(2048, 1024),
    matmul_f32(4096, 4096, 4096, 2e-3), matmul_f32(1024, 1024, 1024, 1e-3),
    matmul_bf16(8192, 8192, 8192), matmul_bf16(1024, 1024, 1024),
    matmul_bias_relu(4096, 4096, 4096), matmul_bias_relu(1024, 1024, 1024),
    cross_entropy(8192, 32000), cross_entropy(1024, 32000),
]

if __name__ == "__main__":
    for s in SUITE:
        path = TASKS_DIR / (s["name"] + ".json")
        path.write_text(to_text(s))
        print(path.relative_to(TASKS_DIR.parent.parent))
