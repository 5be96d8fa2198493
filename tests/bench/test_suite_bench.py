#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Unit tests of suite_bench.py's GPU-free parts: launch expressions, spec-to-tensor plans,
the exported-kernel loader and the acceptance verdicts. Run: python3 tests/bench/test_suite_bench.py"""
import contextlib
import ctypes
import io
import json
import re
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import suite_bench as sb  # noqa: E402
from test_suite_profile import NCU_LOG  # noqa: E402  (a recorded ncu CSV of ours and torch.compile)

# A stand-in for ncu: prints a version, or records its command line and writes the recorded CSV to --log-file.
FAKE_NCU = """#!{python}
import sys
args = sys.argv[1:]
if args == ["--version"]:
    print("NVIDIA (R) Nsight Compute Command Line Profiler\\nVersion 2025.3.1.0 (build 36398880)")
    sys.exit(0)
open({calls!r}, "a").write(" ".join(args) + "\\n")
open(args[args.index("--log-file") + 1], "w").write(open({fixture!r}).read())
"""

TASKS_DIR = HERE.parent.parent / "resources" / "tasks"


class ExpressionTest(unittest.TestCase):
    def ev(self, text, **axes):
        return sb.eval_expression(text, axes)

    def test_precedence_and_parentheses(self):
        self.assertEqual(self.ev("2 + 3 * 4"), 14)
        self.assertEqual(self.ev("(2 + 3) * 4"), 20)
        self.assertEqual(self.ev("20 - 6 - 4"), 10)       # left associative
        self.assertEqual(self.ev("64 / 4 / 2"), 8)

    def test_division_truncates_toward_zero_like_c(self):
        self.assertEqual(self.ev("7 / 2"), 3)
        self.assertEqual(self.ev("-7 / 2"), -3)           # Python's // would give -4
        self.assertEqual(self.ev("-7 % 3"), -1)           # Python's % would give 2
        self.assertEqual(self.ev("7 % -3"), 1)

    def test_functions_with_nested_commas(self):
        self.assertEqual(self.ev("ceil_div(N, 128)", N=1000), 8)
        self.assertEqual(self.ev("ceil_div(N, 128)", N=1024), 8)
        self.assertEqual(self.ev("ceil_div(-7, 2)"), -3)  # toward +infinity
        self.assertEqual(self.ev("min(max(M, 4), ceil_div(N, 2))", M=3, N=9), 4)
        self.assertEqual(self.ev("max(M*N, 1) * 4", M=8192, N=4096), 8192 * 4096 * 4)

    def test_integers_and_unary_minus(self):
        self.assertEqual(sb.eval_expression(256, {}), 256)
        self.assertEqual(self.ev("-(-M)", M=5), 5)

    def test_errors_say_what_is_wrong(self):
        cases = {"Q + 1": "unknown name 'Q'", "4 / (M - M)": "division by zero", "1 2": "unexpected '2'",
                 "ceil_div(4)": "expected ','", "(1 + 2": "expected ')'", "": "empty", "3 $ 4": "'$'",
                 "9223372036854775807 + 1": "overflow", "2 *": "ends too early"}
        for text, message in cases.items():
            with self.subTest(text=text):
                with self.assertRaises(sb.ExpressionError) as caught:
                    self.ev(text, M=3)
                self.assertIn(message, str(caught.exception))


class SmCountTest(unittest.TestCase):
    """sm_count in launch rules (issue 20): the GPU's SM count, with the C++ evaluator's integer semantics
    (tests/core/task/launch_variables_test.cpp evaluates the same expressions)."""
    AXES = {"M": 8192, "N": 8192}
    PERSISTENT_GRID = "min(ceil_div(N, 256) * ceil_div(M, 128), sm_count)"

    def test_evaluates_with_the_sm_count_of_the_gpu(self):
        self.assertEqual(sb.eval_expression(self.PERSISTENT_GRID, self.AXES, 132), 132)
        self.assertEqual(sb.eval_expression(self.PERSISTENT_GRID, self.AXES, 16), 16)
        self.assertEqual(sb.eval_expression(self.PERSISTENT_GRID, {"M": 1000, "N": 1000}, 132), 8 * 4)
        self.assertEqual(sb.eval_expression("sm_count / 2 * 2", self.AXES, 133), 132)
        self.assertEqual(sb.eval_expression("(0 - sm_count) / 2", self.AXES, 133), -66)   # truncates like C
        self.assertEqual(sb.eval_expression("ceil_div(M, sm_count)", self.AXES, 132), 63)
        self.assertEqual(sb.eval_expression("ceil_div(0 - sm_count, 0 - 5)", self.AXES, 132), 27)
        self.assertEqual(sb.eval_expression("max(1, -(-(sm_count % 7)) - 3)", self.AXES, 132), 3)

    def test_is_refused_where_no_gpu_is_known_or_as_an_axis(self):
        with self.assertRaisesRegex(sb.ExpressionError, "known only in a launch rule evaluated for a GPU"):
            sb.eval_expression(self.PERSISTENT_GRID, self.AXES)
        with self.assertRaisesRegex(sb.ExpressionError, "not an axis"):
            sb.eval_expression("sm_count", {"sm_count": 4}, 132)
        with self.assertRaisesRegex(sb.ExpressionError, "not a GPU's"):
            sb.eval_expression("sm_count", {}, 0)

    def test_is_found_as_a_whole_name_only(self):
        self.assertTrue(sb.uses_sm_count("2*sm_count"))
        self.assertFalse(sb.uses_sm_count("my_sm_count + sm_counts"))
        self.assertFalse(sb.uses_sm_count(256))

    def test_an_exported_persistent_kernel_launches_with_the_gpus_count(self):
        spec = spec_named("matmul_bf16_8192x8192x8192")
        with tempfile.TemporaryDirectory() as d:
            meta = {"task": spec["name"], "spec": spec, "entry": "matmul_kernel",
                    "grid": [self.PERSISTENT_GRID, "1", "1"], "block": ["384", "1", "1"], "smem": "216128"}
            (Path(d) / f"{spec['name']}.json").write_text(json.dumps(meta))
            (Path(d) / f"{spec['name']}.cu").write_text("extern \"C\" __global__ void matmul_kernel() {}")
            (case,) = sb.load_exported(d)
        self.assertTrue(sb.case_uses_sm_count(case))
        self.assertEqual(sb.launch_dims(case, 148), ([148, 1, 1], [384, 1, 1], 216128))
        with self.assertRaises(sb.ExpressionError):
            sb.launch_dims(case)
        # A dry run has no GPU: it says which SM count it assumed.
        self.assertIn(f"grid [{sb.DRY_RUN_SM_COUNT}, 1, 1], block [384, 1, 1], dynamic smem 216128 B "
                      f"(sm_count = {sb.DRY_RUN_SM_COUNT} assumed: a dry run has no GPU)", sb.describe_case(case))


def spec_named(name):
    return json.loads((TASKS_DIR / f"{name}.json").read_text())


class SpecPlanTest(unittest.TestCase):
    def test_cross_entropy_targets_use_an_axis_expression_bound(self):
        logits, targets = sb.input_plans(spec_named("cross_entropy_f32_8192x32000"))
        self.assertEqual((logits.dtype, logits.shape, logits.kind, logits.a, logits.b), ("f32", (8192, 32000), "normal", 0, 1))
        self.assertEqual((targets.dtype, targets.shape, targets.kind, targets.a, targets.b), ("i64", (8192,), "randint", 0, 32000))

    def test_outputs_follow_their_own_shape(self):
        (y,) = sb.output_plans(spec_named("transpose_f32_2048x1024"))
        self.assertEqual((y.name, y.shape), ("y", (1024, 2048)))

    def test_layernorm_weight_distribution(self):
        x, w, b = sb.input_plans(spec_named("layernorm_f32_8192x4096"))
        self.assertEqual((w.kind, w.a, w.b, w.shape), ("uniform", 0.5, 1.5, (4096,)))
        self.assertEqual((b.a, b.b), (-0.5, 0.5))

    def test_scalars_in_spec_order(self):
        self.assertEqual(sb.scalar_values(spec_named("matmul_f32_4096x4096x4096")), [4096, 4096, 4096])

    def test_every_builtin_baseline_resolves(self):
        cases = sb.load_baselines(TASKS_DIR)
        self.assertEqual(len(cases), len(list(TASKS_DIR.glob("*.json"))))
        for case in cases:
            with self.subTest(task=case.name):
                grid, block, smem = sb.launch_dims(case)
                self.assertEqual((len(grid), len(block)), (3, 3))
                self.assertLessEqual(block[0] * block[1] * block[2], 1024)
                self.assertGreaterEqual(smem, 0)
                self.assertIn(case.entry, case.source)

    def test_baseline_launch_of_the_transpose(self):
        (case,) = sb.select_cases(sb.load_baselines(TASKS_DIR), ["transpose_f32_2048x1024"])
        self.assertEqual(sb.launch_dims(case), ([32, 64, 1], [32, 8, 1], 0))


class ExportedLoaderTest(unittest.TestCase):
    def test_reads_what_crucible_cli_best_exports(self):
        spec = spec_named("softmax_f32_1024x1024")
        with tempfile.TemporaryDirectory() as d:
            meta = {"task": spec["name"], "spec": spec, "entry": "softmax_kernel", "grid": ["M", "1", "1"],
                    "block": ["128", "1", "1"], "smem": "N*4", "candidate": 7, "run": 2, "median_us": 10.0,
                    "speedup": 1.5}
            (Path(d) / f"{spec['name']}.json").write_text(json.dumps(meta))
            (Path(d) / f"{spec['name']}.cu").write_text("extern \"C\" __global__ void softmax_kernel() {}")
            (case,) = sb.load_exported(d)
        self.assertEqual(case.origin, "candidate 7 of run 2")
        self.assertEqual(sb.launch_dims(case), ([1024, 1, 1], [128, 1, 1], 4096))

    def test_missing_source_is_an_error(self):
        with tempfile.TemporaryDirectory() as d:
            (Path(d) / "t.json").write_text(json.dumps({"task": "t"}))
            with self.assertRaises(FileNotFoundError):
                sb.load_exported(d)


def export_with_launch(directory, spec, launch):
    """One exported kernel as `crucible-cli best --export` writes it, with the given launch object."""
    meta = {"task": spec["name"], "spec": spec, "entry": spec["entry"], "grid": ["ceil_div(N, 128)", "ceil_div(M, 128)", "1"],
            "block": ["384", "1", "1"], "smem": "0", "candidate": 9, "run": 3, "median_us": 10.0, "speedup": 1.5}
    if launch is not None:
        meta["launch"] = launch
    (Path(directory) / f"{spec['name']}.json").write_text(json.dumps(meta))
    (Path(directory) / f"{spec['name']}.cu").write_text(f"extern \"C\" __global__ void {spec['entry']}() {{}}")


class CompilePathTest(unittest.TestCase):
    """The bench must time the binary the worker measured (backends/cuda/compile/nvrtc_compiler.cpp): one
    whole-program NVRTC compile for the real architecture, or, for an arch-specific target, NVRTC to PTX
    for the virtual architecture and nvJitLink for the real one; both with the worker's options."""

    def test_nvrtc_compiles_whole_program_for_the_real_architecture(self):
        self.assertFalse(sb.links_with_nvjitlink("sm_90"))
        options = sb.nvrtc_options("sm_90")
        self.assertIn("--gpu-architecture=sm_90", options)
        self.assertIn("-lineinfo", options)
        self.assertIn("-std=c++17", options)
        self.assertIn("--ptxas-options=-v", options)

    def test_arch_specific_targets_make_ptx_for_nvjitlink(self):
        self.assertTrue(sb.links_with_nvjitlink("sm_90a"))
        options = sb.nvrtc_options("sm_90a")
        self.assertIn("--gpu-architecture=compute_90a", options)
        self.assertIn("-lineinfo", options)
        self.assertNotIn("--ptxas-options=-v", options)
        self.assertEqual(sb.nvjitlink_options("sm_90a"), ["-arch=sm_90a", "-lineinfo"])

    def test_the_other_build_is_asked_for_explicitly(self):
        self.assertIn("--gpu-architecture=compute_90", sb.nvrtc_options("sm_90", nvjitlink=True))
        self.assertIn("--gpu-architecture=sm_90a", sb.nvrtc_options("sm_90a", nvjitlink=False))
        self.assertIn("--ptxas-options=-v", sb.nvrtc_options("sm_90a", nvjitlink=False))

    def test_arch_specific_source_goes_to_the_a_target(self):
        self.assertEqual(sb.target_arch("asm(\"wgmma.fence.sync.aligned;\");", (9, 0)), "sm_90a")
        self.assertEqual(sb.target_arch("__global__ void k() {}", (9, 0)), "sm_90")


class ReadRoofTest(unittest.TestCase):
    """The same-size read (variant_bench --copy): a read-only kernel over the task's minBytes."""

    def test_the_launch_reads_at_least_the_tasks_bytes(self):
        for min_bytes in (4, 1000, 65536000 + 65536, 2**31 + 12):
            case = sb.read_roof_case(min_bytes)
            n = case.axes["n"]
            self.assertGreaterEqual(n * 4, min_bytes)
            self.assertEqual(n % 4, 0)   # whole 16-byte words
            grid, block, smem = sb.launch_dims(case)
            self.assertEqual(block, [128, 1, 1])
            self.assertGreaterEqual(grid[0] * 128 * 2 * 4, n)   # two words a thread
            self.assertEqual(smem, 0)

    def test_its_tensors_follow_the_kernel_signature(self):
        case = sb.read_roof_case(4096)
        self.assertEqual([t.name for t in sb.input_plans(case.spec)], ["x"])
        self.assertEqual([t.shape for t in sb.output_plans(case.spec)], [(1,)])
        self.assertEqual(sb.scalar_values(case.spec), [1024])
        self.assertIn("read_roof(const float* __restrict__ x", case.source)

    @unittest.skipUnless(Path("/usr/local/cuda/lib64/libnvrtc.so").exists(), "no NVRTC here")
    def test_it_compiles_with_nvrtc(self):
        cubin = sb.Nvrtc().compile_cubin(sb.READ_ROOF_SOURCE, "read_roof", "sm_90")
        self.assertGreater(len(cubin), 0)


class TensorMapTest(unittest.TestCase):
    SPEC = spec_named("matmul_bf16_1024x1024x1024")

    def load(self, tensor_maps):
        with tempfile.TemporaryDirectory() as d:
            export_with_launch(d, self.SPEC, {"entry": self.SPEC["entry"], "tensorMaps": tensor_maps})
            (case,) = sb.load_exported(d)
        return case

    def test_exported_maps_are_read_in_order(self):
        case = self.load([{"tensor": "A", "boxRows": 128, "boxCols": 64, "swizzle": "128B"},
                          {"tensor": "B", "boxRows": 64, "boxCols": 128}])
        self.assertEqual(case.tensor_maps, [sb.TensorMapRule("A", 128, 64, "128B"), sb.TensorMapRule("B", 64, 128, "none")])

    def test_an_export_without_a_launch_object_has_no_maps(self):
        with tempfile.TemporaryDirectory() as d:
            export_with_launch(d, self.SPEC, None)
            (case,) = sb.load_exported(d)
        self.assertEqual(case.tensor_maps, [])

    def test_encoding_matches_the_worker(self):
        # A is M x K bf16: cols K innermost, 2 bytes each; the enums are cuda.h's.
        e = sb.tensor_map_encoding(self.SPEC, sb.TensorMapRule("A", 128, 64, "128B"))
        self.assertEqual((e.data_type, e.global_dim, e.global_strides, e.box_dim, e.swizzle),
                         (9, (1024, 1024), (2048,), (64, 128), 3))
        self.assertEqual((e.element_strides, e.interleave, e.l2_promotion, e.oob_fill), ((1, 1), 0, 3, 0))
        spec = spec_named("transpose_f32_2048x1024")
        e = sb.tensor_map_encoding(spec, sb.TensorMapRule("y", 32, 4, "none"))
        self.assertEqual((e.data_type, e.global_dim, e.global_strides, e.box_dim, e.swizzle),
                         (7, (2048, 1024), (8192,), (4, 32), 0))

    def test_problems_are_worded_like_the_engines(self):
        rules = [sb.TensorMapRule("A", 300, 64, "128B"), sb.TensorMapRule("B", 64, 128, "128B"),
                 sb.TensorMapRule("Q", 8, 8), sb.TensorMapRule("C", 8, 4, "16B")]
        self.assertEqual(sb.tensor_map_problems(self.SPEC, rules), [
            "tensorMaps[0] (A): box rows 300 outside 1..256",
            "tensorMaps[1] (B): box cols 128 x 2 B (bf16) = 256 B exceed the 128B swizzle span",
            "tensorMaps[2] (Q): unknown tensor 'Q' (not an input or output of task 'matmul_bf16_1024x1024x1024')",
            "tensorMaps[3] (C): unknown swizzle '16B' (none, 32B, 64B or 128B)",
            "tensorMaps[3] (C): box cols 4 x 2 B (bf16) = 8 B is not a multiple of 16 bytes"])

    def test_a_row_stride_tma_cannot_take_is_refused(self):
        spec = json.loads(json.dumps(self.SPEC))
        spec["axes"]["K"] = 1020   # 1020 x 2 B = 2040 B per row of A
        self.assertEqual(sb.tensor_map_problems(spec, [sb.TensorMapRule("A", 8, 8)]), [
            "tensorMaps[0] (A): row stride 1020 x 2 B (bf16) = 2040 B is not a multiple of 16 bytes below 2^40"])

    def test_a_bad_map_in_an_export_is_an_error_naming_it(self):
        with self.assertRaisesRegex(ValueError, r"matmul_bf16_1024x1024x1024: tensor maps cannot be encoded: "
                                                r"tensorMaps\[0\] \(A\): box rows 0 outside 1..256"):
            self.load([{"tensor": "A", "boxRows": 0, "boxCols": 64}])

    def test_malformed_entries_name_the_field(self):
        cases = [("launch.tensorMaps[0]: missing field 'boxCols'", [{"tensor": "A", "boxRows": 8}]),
                 ("field 'boxRows' must be an integer", [{"tensor": "A", "boxRows": "8", "boxCols": 8}]),
                 ("field 'boxRows' must be an integer", [{"tensor": "A", "boxRows": True, "boxCols": 8}]),
                 ("field 'tensor' must be a string", [{"tensor": 1, "boxRows": 8, "boxCols": 8}]),
                 ("field 'swizzle' must be a string", [{"tensor": "A", "boxRows": 8, "boxCols": 8, "swizzle": 128}]),
                 ("launch.tensorMaps[0] must be an object", ["A:8x8"]),
                 ("launch.tensorMaps must be a list", {"tensor": "A"})]
        for message, maps in cases:
            with self.subTest(maps=maps):
                with self.assertRaisesRegex(ValueError, re.escape(message)):
                    self.load(maps)

    def test_the_map_object_is_64_byte_aligned_and_128_bytes(self):
        m = sb.aligned_tensor_map()
        self.assertEqual(ctypes.addressof(m) % 64, 0)
        self.assertEqual(ctypes.sizeof(m), 128)

    def test_dry_run_describes_the_maps(self):
        with tempfile.TemporaryDirectory() as d:
            export_with_launch(d, self.SPEC, {"entry": self.SPEC["entry"], "tensorMaps": [
                {"tensor": "A", "boxRows": 128, "boxCols": 64, "swizzle": "128B"}]})
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                rc = sb.dry_run(sb.load_exported(d), sb.DRY_RUN_CAPABILITY)
        self.assertEqual(rc, 0, out.getvalue())
        self.assertIn("tensor map tmap_A: 1024 x 1024 elements, box 128 x 64, swizzle 128B", out.getvalue())


class ArchTest(unittest.TestCase):
    def test_wgmma_needs_sm_90a(self):
        self.assertEqual(sb.target_arch("asm volatile(\"wgmma.mma_async.sync ...\");", (9, 0)), "sm_90a")
        self.assertEqual(sb.target_arch("__global__ void k() {}", (9, 0)), "sm_90")


def result(name, ours, eager, correct=True, library=None):
    (case,) = sb.select_cases(sb.load_baselines(TASKS_DIR), [name])
    return sb.TaskResult(case, ours_us=ours, eager_us=eager, library_us=library, correct=correct)


class AcceptanceTest(unittest.TestCase):
    COPY_GBS = 4000.0

    def verdicts(self, results, expected=()):
        return sb.acceptance_lines(results, self.COPY_GBS, list(expected))

    def test_memory_bound_task_checks_eager_and_copy_bandwidth(self):
        # softmax 8192x4096 f32 moves 2*4*8192*4096 B = 268 MB: 70 us is 3835 GB/s = 95.9% of 4000.
        checks = self.verdicts([result("softmax_f32_8192x4096", ours=70.0, eager=100.0)])
        self.assertEqual([ok for ok, _ in checks], [True, True])
        self.assertIn("95.9%", checks[1][1])
        checks = self.verdicts([result("softmax_f32_8192x4096", ours=90.0, eager=100.0)])   # 74.6%
        self.assertEqual([ok for ok, _ in checks], [True, False])

    def test_slower_than_eager_fails(self):
        checks = self.verdicts([result("softmax_f32_8192x4096", ours=101.0, eager=100.0)])
        self.assertFalse(checks[0][0])

    def test_faster_than_eager_only_where_the_rounds_show_it(self):
        # The bmm of 2026-12-05: 364.5 against 364.8 µs, a ratio the noise of 50 rounds covers.
        tie = result("matmul_bf16_8192x8192x8192", ours=364.5, eager=364.8)
        tie.eager_ratio_interval = (0.9978, 1.0031)
        ok, line = self.verdicts([tie])[0]
        self.assertFalse(ok)
        self.assertIn("1.00x (364.5 vs 364.8 µs); 95% interval of eager / ours over the rounds: 0.9978-1.0031, "
                      "which reaches 1: not measurably faster", line)
        ahead = result("matmul_bf16_8192x8192x8192", ours=1498.8, eager=1553.0)
        ahead.eager_ratio_interval = (1.031, 1.040)
        ok, line = self.verdicts([ahead])[0]
        self.assertTrue(ok)
        self.assertNotIn("not measurably", line)

    def test_the_median_interval_is_the_binomial_one(self):
        # n = 50: P(Bin(50, 1/2) <= 16) = 0.0077, <= 17: 0.0164, <= 18: 0.0325, so x(18) and x(33).
        self.assertEqual(sb.median_interval(list(range(50, 0, -1))), (18, 33))
        self.assertEqual(sb.median_interval([3, 1, 2, 5, 4, 6]), (1, 6))   # n = 6: P(X = 0) = 1 / 64: x(1) and x(6)
        self.assertIsNone(sb.median_interval([1, 2, 3, 4, 5]))             # 1 / 32 = 0.031: no 95% interval
        # Paired: round-to-round drift cancels; the ratio of each round is what counts.
        ours = [100.0 + i for i in range(40)]
        eager = [o * 1.02 for o in ours]
        low, high = sb.paired_ratio_interval(eager, ours)
        self.assertAlmostEqual(low, 1.02)
        self.assertAlmostEqual(high, 1.02)

    def test_wrong_kernel_fails_even_when_fast(self):
        checks = self.verdicts([result("gelu_f32_67108864", ours=10.0, eager=100.0, correct=False)])
        self.assertFalse(checks[0][0])
        self.assertIn("NOT correct", checks[0][1])
        self.assertFalse(checks[1][0])

    def test_fp32_matmul_against_cublas(self):
        good = self.verdicts([result("matmul_f32_4096x4096x4096", ours=2000.0, eager=1800.0, library=1800.0)])
        self.assertEqual([ok for ok, _ in good], [False, True])   # slower than eager, but 90% of cuBLAS
        missing = self.verdicts([result("matmul_f32_4096x4096x4096", ours=2000.0, eager=2100.0)])
        self.assertEqual([ok for ok, _ in missing], [True, False])
        self.assertIn("cuBLAS was not measured", missing[1][1])

    def test_fp32_matmul_must_be_as_close_to_fp64_as_cublas(self):
        r = result("matmul_f32_4096x4096x4096", ours=1400.0, eager=2700.0, library=2700.0)
        r.fp64_errors = {"ours": (6.6e-5, 4.6e-6), "library": (3.6e-4, 2.5e-5)}
        checks = self.verdicts([r])
        self.assertEqual([ok for ok, _ in checks], [True, True, True])
        self.assertIn("full fp32 accuracy", checks[1][1])
        # A faster kernel that gives up accuracy (a two-term split, say) fails this check only.
        r.fp64_errors = {"ours": (9.0e-4, 9.0e-5), "library": (3.6e-4, 2.5e-5)}
        self.assertEqual([ok for ok, _ in self.verdicts([r])], [True, False, True])

    def test_bf16_matmul_has_no_bandwidth_or_cublas_check(self):
        checks = self.verdicts([result("matmul_bf16_8192x8192x8192", ours=2000.0, eager=1800.0, library=1800.0)])
        self.assertEqual(len(checks), 1)

    def test_a_suite_task_without_a_kernel_fails(self):
        checks = self.verdicts([], expected=["rowsum_f32_8192x8192"])
        self.assertEqual(checks, [(False, "rowsum_f32_8192x8192: no kernel to measure (no valid candidate exported)")])

    def test_an_unmeasured_task_fails(self):
        failed = result("rowsum_f32_8192x8192", ours=None, eager=None)
        failed.error = "RuntimeError: cuLaunchKernel failed"
        checks = self.verdicts([failed])
        self.assertEqual([ok for ok, _ in checks], [False])


class AnyOperatorTest(unittest.TestCase):
    """The operators a user brings (issue 16) are benchmarked like the suite, with a torch.compile target."""
    FOLDERS = [HERE.parent / "tasks" / "any-operator", HERE.parent.parent / "resources" / "kernels" / "gemv"]

    def cases(self):
        return [c for folder in self.FOLDERS for c in sb.load_baselines(folder)]

    def test_every_family_has_a_pytorch_reference(self):
        cases = self.cases()
        self.assertGreaterEqual(len(cases), 8)
        for case in cases:
            if case.family in sb.MATMUL_FAMILIES:
                continue   # the matmul reference needs torch itself; the suite's tests cover it
            with self.subTest(task=case.name):
                self.assertIsInstance(sb.reference_for(case), sb.Reference)

    def test_elementwise_and_row_operators_are_memory_bound(self):
        for case in self.cases():
            if case.family not in sb.MATMUL_FAMILIES:
                with self.subTest(task=case.name):
                    self.assertTrue(sb.is_memory_bound(case))

    def test_compile_target_is_checked_only_when_asked(self):
        (case,) = sb.select_cases(sb.load_baselines(self.FOLDERS[0]), ["swiglu_bf16_4096x11008"])
        r = sb.TaskResult(case, ours_us=100.0, eager_us=200.0, correct=True)
        r.compile_us = 95.0
        self.assertEqual(len(sb.acceptance_lines([r], 4000.0, [])), 2)
        checks = sb.acceptance_lines([r], 4000.0, [], compile_target=0.9)
        self.assertEqual([ok for ok, _ in checks], [True, False, True])   # 95% of torch.compile's speed
        self.assertIn("95.0%", checks[2][1])
        r.compile_us = 85.0
        self.assertFalse(sb.acceptance_lines([r], 4000.0, [], compile_target=0.9)[2][0])
        r.compile_us = None
        self.assertIn("not measured", sb.acceptance_lines([r], 4000.0, [], compile_target=0.9)[2][1])

    def test_the_copy_bandwidth_check_names_the_read_roof_when_it_was_timed(self):
        (case,) = sb.select_cases(sb.load_baselines(self.FOLDERS[0]), ["swiglu_bf16_4096x11008"])
        r = sb.TaskResult(case, ours_us=100.0, eager_us=200.0, correct=True)
        min_bytes = sb.eval_expression(case.spec["minBytes"], case.axes)
        self.assertNotIn("only reads", sb.acceptance_lines([r], 4000.0, [])[1][1])
        r.same_read_us = min_bytes / 3600e9 * 1e6   # 3600 GB/s: 90% of the 4000 GB/s copy
        ok, line = sb.acceptance_lines([r], 4000.0, [])[1]
        self.assertIn("of copy bandwidth", line)
        self.assertIn("; a kernel that only reads the same bytes: 90.0% (", line)
        self.assertIn("%.1f µs)" % r.same_read_us, line)
        row = sb.table_row(r, 4000.0)
        self.assertEqual(row.count("|"), sb.TABLE_HEADER.split("\n")[0].count("|"))
        self.assertIn(" | %.1f | " % (100.0 * r.same_read_us / 100.0), row)


class ClockLineTest(unittest.TestCase):
    def test_parses_nvidia_smi_csv_with_its_timestamp(self):
        s = sb.parse_clock_line("2025/01/31 12:00:00.123, 1980, 3201, 1980\n")
        self.assertEqual((s.stamp.hour, s.stamp.microsecond, s.sm, s.mem, s.max_sm), (12, 123000, 1980.0, 3201.0, 1980.0))
        self.assertEqual((s.watts, s.power_capped), (None, None))

    def test_parses_the_power_draw_and_the_power_cap(self):
        s = sb.parse_clock_line("2025/01/31 12:00:00.123, 1620, 3201, 1980, 688.41, Active\n")
        self.assertEqual((s.sm, s.watts, s.power_capped), (1620.0, 688.41, True))
        s = sb.parse_clock_line("2025/01/31 12:00:00.223, 1980, 3201, 1980, [N/A], Not Active")
        self.assertEqual((s.sm, s.watts, s.power_capped), (1980.0, None, False))

    def test_unreadable_lines_are_skipped(self):
        self.assertIsNone(sb.parse_clock_line("2025/01/31 12:00:00.123, [N/A], 3201, 1980"))
        self.assertIsNone(sb.parse_clock_line("2025/01/31 12:00:00.123, 1980, 3201"))
        self.assertIsNone(sb.parse_clock_line("garbage"))

    def test_power_over_a_window_is_the_median_draw_and_the_capped_share(self):
        lines = ["2025/01/31 12:00:00.%d00, 1600, 3201, 1980, %s, %s" % (i, w, c)
                 for i, (w, c) in enumerate([(690, "Active"), (700, "Active"), (650, "Not Active"), ("[N/A]", "Active")])]
        samples = [sb.parse_clock_line(line) for line in lines]
        watts, capped = sb.power_summary(samples)
        self.assertEqual(watts, 690.0)
        self.assertAlmostEqual(capped, 0.75)
        self.assertEqual(sb.power_text((watts, capped)), "690 W, capped 75%")
        self.assertIsNone(sb.power_summary([sb.parse_clock_line("2025/01/31 12:00:00.123, 1980, 3201, 1980")]))
        self.assertEqual(sb.power_text(None), "—")


class DryRunTest(unittest.TestCase):
    def test_dry_run_describes_every_builtin_task(self):
        self.assertEqual(sb.main(["--tasks-dir", str(TASKS_DIR), "--dry-run", "--only",
                                  "softmax_f32_1024x1024,cross_entropy_f32_1024x32000"]), 0)

    def test_fewer_than_30_samples_is_refused(self):
        with self.assertRaises(SystemExit):
            sb.parse_args(["--tasks-dir", str(TASKS_DIR), "--samples", "10"])


class ProfileStepTest(unittest.TestCase):
    """--profile: which contenders are profiled, the child ncu runs, and the step's report line."""

    def case(self, name):
        (case,) = sb.select_cases(sb.load_baselines(TASKS_DIR), [name])
        return case

    def test_contenders_ours_compile_and_the_library_for_gemms(self):
        self.assertEqual(sb.profiled_contenders(self.case("softmax_f32_8192x4096"), True), ["ours", "compile"])
        self.assertEqual(sb.profiled_contenders(self.case("softmax_f32_8192x4096"), False), ["ours"])
        self.assertEqual(sb.profiled_contenders(self.case("matmul_bf16_8192x8192x8192"), True),
                         ["ours", "compile", "library"])

    def test_figures_and_the_compute_peak_of_a_gemm(self):
        gemm = sb.TaskResult(self.case("matmul_bf16_8192x8192x8192"))
        fp32 = sb.TaskResult(self.case("matmul_f32_4096x4096x4096"))
        row = sb.TaskResult(self.case("softmax_f32_8192x4096"))
        sb.attach_figures([gemm, fp32, row], {"bf16_tensor": 989e12, "dram_bw": 4.8e12})
        self.assertEqual(gemm.flops, 2 * 8192 ** 3)
        self.assertEqual(gemm.compute_peak, ("bf16 tensor-core", 989e12))
        self.assertEqual(fp32.compute_peak, ("fp32 FMA", None))            # no fp32 ceiling in the project
        self.assertIsNone(row.compute_peak)
        self.assertEqual(row.min_bytes, 2 * 4 * 8192 * 4096)

    def args(self, *extra):
        return sb.parse_args(["--tasks-dir", str(TASKS_DIR), *extra])

    def test_not_asked_or_no_ncu_is_said(self):
        self.assertIn("not run", sb.profile_results([], self.args()))
        self.assertEqual(sb.profile_results([], self.args("--profile", "--ncu", "/nonexistent/ncu")),
                         "not run: no ncu (/nonexistent/ncu)")

    def test_each_measured_task_gets_one_ncu_call_over_its_child(self):
        with tempfile.TemporaryDirectory() as d:
            fixture = Path(d) / "fixture.csv"
            fixture.write_text(NCU_LOG)
            calls = Path(d) / "calls.txt"
            ncu = Path(d) / "ncu"
            ncu.write_text(FAKE_NCU.format(python=sys.executable, fixture=str(fixture), calls=str(calls)))
            ncu.chmod(0o755)
            measured = sb.TaskResult(self.case("layernorm_f32_8192x4096"), ours_us=71.2, compile_us=68.5, correct=True)
            failed = sb.TaskResult(self.case("softmax_f32_8192x4096"), error="RuntimeError: boom")
            out = Path(d) / "table.md"
            status = sb.profile_results([measured, failed],
                                        self.args("--profile", "--ncu", str(ncu), "--out", str(out)))
            self.assertEqual(sorted(measured.profiles), ["compile", "ours"])
            self.assertEqual(failed.profiles, {})
            (call,) = calls.read_text().splitlines()
            self.assertIn("--nvtx-include crucible_profile/", call)
            self.assertIn(f"--log-file {Path(d) / 'table-ncu' / 'layernorm_f32_8192x4096.csv'}", call)
            self.assertIn(f"suite_bench.py --tasks-dir {TASKS_DIR.resolve()} --profile-child layernorm_f32_8192x4096 "
                          "--compile-mode max-autotune-no-cudagraphs", call)
            self.assertIn("ncu 2025.3.1.0, one call per task (1 tasks", status)
            self.assertIn("ncu profile:", measured.notes[-1])

    def test_the_time_for_all_profiles_is_bounded_and_what_it_leaves_is_said(self):
        r = sb.TaskResult(self.case("layernorm_f32_8192x4096"), ours_us=71.2, compile_us=68.5, correct=True)
        status = sb.profile_results([r], self.args("--profile", "--ncu", sys.executable, "--profile-budget", "5"))
        self.assertEqual(r.profile_note, "not profiled: the 5 s for all profiles were spent")
        self.assertIn("1 task(s) left unprofiled for that", status)

    def test_tasks_furthest_behind_compile_are_profiled_first(self):
        def timed(name, ours, compile_):
            return sb.TaskResult(self.case(name), ours_us=ours, compile_us=compile_)
        level = timed("layernorm_f32_8192x4096", 70.0, 70.0)
        behind = timed("softmax_f32_8192x4096", 90.0, 70.0)
        uncompiled = timed("rowsum_f32_8192x8192", 50.0, None)
        failed = sb.TaskResult(self.case("gelu_f32_67108864"), error="boom")
        self.assertEqual(sb.profile_order([uncompiled, level, failed, behind]), [behind, level, uncompiled])


if __name__ == "__main__":
    unittest.main()
