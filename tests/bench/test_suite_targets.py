#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Tests for suite_targets.py: geometric means, the project's throughput and issue 20's checks."""
import os
import sqlite3
import sys
import tempfile
import unittest
from types import SimpleNamespace

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import suite_profile as sp  # noqa: E402
import suite_targets as st  # noqa: E402

MEMORY = {"rowsum", "softmax"}


def result(name, family, ours, eager=None, compile_=None, library=None, correct=True, dtype="f32", gbs=None):
    case = SimpleNamespace(name=name, family=family, spec={"inputs": [{"dtype": dtype}]})
    return SimpleNamespace(case=case, ours_us=ours, eager_us=eager, compile_us=compile_, library_us=library,
                           correct=correct, error="", gbs=gbs)


def checks(results, throughput=None, copy=4000.0):
    return st.target_checks(results, copy, throughput or {}, lambda c: c.family in MEMORY, lambda r: r.gbs)


class GeomeanTest(unittest.TestCase):
    def test_geomean_of_ratios_skips_wrong_and_unmeasured_kernels(self):
        rs = [result("a", "rowsum", 50.0, eager=100.0, compile_=200.0),
              result("b", "softmax", 100.0, eager=100.0, compile_=50.0),
              result("c", "softmax", 10.0, eager=100.0, compile_=100.0, correct=False),
              result("d", "softmax", 100.0, eager=100.0)]
        means = st.suite_geomeans(rs)
        self.assertAlmostEqual(means["eager"][0], (2.0 * 1.0 * 1.0) ** (1 / 3))
        self.assertEqual(means["eager"][1], 3)
        self.assertAlmostEqual(means["compile"][0], 2.0 ** 0.5)   # ratios 4 and 0.5
        self.assertEqual(means["compile"][1], 2)
        self.assertEqual(means["library"], (None, 0))


class ChecksTest(unittest.TestCase):
    def test_a_task_behind_torch_compile_fails_and_the_geomean_says_by_how_much(self):
        cs = checks([result("rowsum_f32", "rowsum", 100.0, compile_=95.0, gbs=3900.0)])
        self.assertEqual([ok for ok, _ in cs], [False, True, False])
        self.assertIn("0.950x", cs[0][1])
        self.assertIn("97.5%", cs[1][1])
        self.assertIn("0.950x over 1 of 1", cs[2][1])

    def test_every_target_met(self):
        cs = checks([result("rowsum_f32", "rowsum", 80.0, compile_=100.0, gbs=3800.0),
                     result("matmul_bf16", "matmul", 100.0, compile_=120.0, library=106.0, dtype="bf16")],
                    throughput={"rowsum_f32": (130, 60.0, 90.0)})
        self.assertTrue(all(ok for ok, _ in cs), cs)
        self.assertEqual(len(cs), 6)

    def test_bf16_gemm_below_the_cublas_margin_and_unmeasured_library(self):
        cs = checks([result("matmul_bf16", "matmul", 100.0, compile_=120.0, library=104.0, dtype="bf16"),
                     result("mbr_bf16", "matmul_bias_relu", 100.0, compile_=120.0, dtype="bf16")])
        texts = {t: ok for ok, t in cs}
        self.assertFalse(texts["matmul_bf16: >= 1.05x cuBLAS: 1.040x"])
        self.assertIn("mbr_bf16: cuBLASLt's fused epilogue was not measured", texts)

    def test_throughput_below_target_or_missing_fails(self):
        slow = checks([result("rowsum_f32", "rowsum", 80.0, compile_=100.0, gbs=3800.0)],
                      throughput={"rowsum_f32": (50, 60.0, 70.0)})
        self.assertIn("50 (50 in 60.0 s)", slow[2][1])
        self.assertFalse(slow[2][0])
        missing = checks([result("rowsum_f32", "rowsum", 80.0, compile_=100.0, gbs=3800.0)],
                         throughput={"other": (50, 60.0, 70.0)})
        self.assertFalse(missing[2][0])
        self.assertIn("no run of it", missing[2][1])

    def test_a_task_without_torch_compile_fails_the_geomean_too(self):
        cs = checks([result("a", "rowsum", 80.0, compile_=100.0, gbs=3800.0), result("b", "rowsum", 80.0, gbs=3800.0)])
        self.assertIn("b: torch.compile was not measured", [t for _, t in cs])
        self.assertFalse(cs[-1][0])


class ThroughputTest(unittest.TestCase):
    def test_sums_every_run_of_a_task(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "p.crucible")
            db = sqlite3.connect(path)
            db.execute("CREATE TABLE tasks (id INTEGER PRIMARY KEY, name TEXT)")
            db.execute("CREATE TABLE runs (id INTEGER PRIMARY KEY, task_id INTEGER, evaluations_done INTEGER, "
                       "gpu_seconds_used REAL, wall_seconds_used REAL)")
            db.executemany("INSERT INTO tasks VALUES (?, ?)", [(1, "rowsum"), (2, "softmax")])
            db.executemany("INSERT INTO runs VALUES (?, ?, ?, ?, ?)",
                           [(1, 1, 10, 6.0, 9.0), (2, 1, 20, 12.0, 15.0), (3, 2, 5, 5.0, 5.0)])
            db.commit()
            db.close()
            t = st.evolution_throughput(path, ["rowsum"])
            self.assertEqual(t, {"rowsum": (30, 18.0, 24.0)})
            self.assertAlmostEqual(st.per_minute(*t["rowsum"][:2]), 100.0)
            lines = st.throughput_lines(t)
            self.assertIn("| rowsum | 30 | 18.0 | 24.0 | 100 | 75 |", lines)


# Recorded figures (an H200 run's shape, rounded): copy 4200 GB/s; per task the timed medians and, per
# contender, ncu's DRAM bytes, DRAM / SM throughput and warps active (% of peak), peak 4.8 TB/s.
COPY = 4200.0
PEAK = 4.8e12
SAMPLE = {
    "layernorm_f32_8192x4096": dict(family="layernorm", min_bytes=268468224, ours=71.2, compile_=68.5,
                                    profiles={"ours": (268.45e6, 91.0, 35.1, 80.0),
                                              "compile": (268.45e6, 94.6, 30.0, 85.0)}),
    "softmax_f32_8192x4096": dict(family="softmax", min_bytes=268435456, ours=90.0, compile_=70.0,
                                  profiles={"ours": (300.6e6, 62.0, 40.0, 30.0),
                                            "compile": (268.4e6, 92.0, 25.0, 70.0)}),
    "matmul_bf16_8192x8192x8192": dict(family="matmul", dtype="bf16", min_bytes=402653184, flops=2 * 8192 ** 3,
                                       ours=1900.0, compile_=2000.0, library=1950.0,
                                       profiles={"ours": (0.9e9, 20.0, 82.0, 12.0),
                                                 "library": (0.6e9, 15.0, 90.0, 12.5)}),
}


def profile(bytes_, dram, sm, warps):
    return sp.Profile(["k"], dram_read=bytes_ / 2, dram_write=bytes_ / 2, seconds=1e-4, dram_pct=dram, sm_pct=sm,
                      warps_pct=warps, dram_peak_bps=PEAK)


def sample(name):
    f = SAMPLE[name]
    r = result(name, f["family"], f["ours"], compile_=f["compile_"], library=f.get("library"),
               dtype=f.get("dtype", "f32"), gbs=f["min_bytes"] / (f["ours"] * 1e-6) / 1e9)
    r.min_bytes, r.flops = f["min_bytes"], f.get("flops")
    r.compute_peak = ("bf16 tensor-core", 989e12) if f["family"] == "matmul" else None
    r.profiles = {c: profile(*figures) for c, figures in f["profiles"].items()}
    return r


def limits(results, throughput=None, status="ncu 2025.3"):
    memory_bound = lambda c: c.family in MEMORY | {"layernorm"}   # noqa: E731
    checks_ = st.target_checks(results, COPY, throughput or {}, memory_bound, lambda r: r.gbs)
    return st.limit_lines(checks_, results, COPY, throughput or {}, memory_bound, status)


class CheckTest(unittest.TestCase):
    def test_a_check_is_the_plain_pair_with_its_task_and_target(self):
        c = st.Check(False, "x: y", "x", "compile")
        ok, text = c
        self.assertEqual((ok, text, c.task, c.target), (False, "x: y", "x", "compile"))
        self.assertEqual(c, (False, "x: y"))


class LimitTest(unittest.TestCase):
    def line(self, lines, name):
        found = [line for line in lines if line.startswith(f"- {name}")]
        self.assertTrue(found, lines)
        return found

    def test_both_at_the_dram_roof_splits_the_gap_into_bytes_and_bandwidth(self):
        lines = limits([sample("layernorm_f32_8192x4096")])
        (line,) = self.line(lines, "layernorm_f32_8192x4096: 0.962x torch.compile")
        self.assertIn("(71.2 vs 68.5 µs)", line)
        self.assertIn("Ours moves 268 MB at 3.77 TB/s (89.8% of copy, 78.5% of peak); ncu: DRAM 91.0%", line)
        self.assertIn("torch.compile moves 268 MB at 3.92 TB/s (93.3% of copy, 81.6% of peak)", line)
        self.assertIn("Both at the DRAM roof", line)
        self.assertIn("Ours moves the same DRAM bytes (within 2%); time ratio 1.039 = DRAM bytes ratio 1.000 × "
                      "torch.compile's DRAM GB/s / ours 1.039.", line)

    def test_latency_bound_names_the_lower_occupancy_and_the_extra_bytes(self):
        lines = limits([sample("softmax_f32_8192x4096")])
        (compile_line,) = self.line(lines, "softmax_f32_8192x4096: 0.778x torch.compile")
        self.assertIn("Ours is latency/occupancy-bound, torch.compile is DRAM-bound; lower occupancy: ours "
                      "(warps active 30.0% for ours, 70.0% for torch.compile)", compile_line)
        self.assertIn("Ours moves 12.0% more DRAM bytes than torch.compile; time ratio 1.286 = DRAM bytes ratio "
                      "1.120 × torch.compile's DRAM GB/s / ours 1.148", compile_line)
        (copy_line,) = self.line(lines, "softmax_f32_8192x4096: 71.0% of copy bandwidth")
        self.assertIn("Ours moves 1.120x the task's minBytes", copy_line)
        self.assertIn("torch.compile reaches 91.3% of copy bandwidth on the same minBytes", copy_line)
        self.assertNotIn("only reads", copy_line)   # no read roof was timed

    def test_the_read_roof_at_the_tasks_size_is_named_where_it_was_timed(self):
        r = sample("softmax_f32_8192x4096")
        r.same_read_us = r.min_bytes / (COPY * 0.95 * 1e9) * 1e6   # a read-only kernel at 95% of the copy rate
        (copy_line,) = self.line(limits([r]), "softmax_f32_8192x4096: 71.0% of copy bandwidth")
        self.assertIn("a kernel that only reads the same bytes reaches 95.0% at this size", copy_line)

    def test_gemm_against_the_library_in_tflops_of_the_tensor_peak(self):
        lines = limits([sample("matmul_bf16_8192x8192x8192")])
        (line,) = self.line(lines, "matmul_bf16_8192x8192x8192: >= 1.05x cuBLAS: 1.026x")
        self.assertIn("Ours reaches 579 TFLOP/s (58.5% of the bf16 tensor-core peak, 989 TFLOP/s); ncu: SM 82.0%", line)
        self.assertIn("cuBLAS reaches 564 TFLOP/s (57.0% of the bf16 tensor-core peak", line)
        self.assertIn("Both compute-bound (ncu SM 82.0% vs 90.0%, DRAM 20.0% vs 15.0%", line)

    def test_a_power_capped_gemm_says_so_and_one_without_samples_does_not(self):
        r = sample("matmul_bf16_8192x8192x8192")
        (line,) = self.line(limits([r]), "matmul_bf16_8192x8192x8192: >= 1.05x cuBLAS")
        self.assertNotIn("power cap", line)
        r.power, r.sm_mhz = (688.4, 0.97), 1620.0
        (line,) = self.line(limits([r]), "matmul_bf16_8192x8192x8192: >= 1.05x cuBLAS")
        self.assertIn("While it was timed the GPU drew 688 W (median) and the power cap held the clocks back in 97% "
                      "of the samples (median SM clock 1620 MHz).", line)

    def test_only_failed_targets_get_a_line_and_none_when_all_pass(self):
        fast = sample("layernorm_f32_8192x4096")
        fast.ours_us, fast.gbs = 60.0, 268468224 / 60e-6 / 1e9   # 1.14x compile, 106% of copy
        lines = limits([fast])
        self.assertEqual([line for line in lines if line.startswith("- layernorm")], [])
        self.assertTrue(any(line.startswith("- geometric mean:") for line in lines))   # 1.142x < 1.15x
        fast.ours_us = 50.0
        self.assertEqual(limits([fast]), [])

    def test_without_a_profile_the_line_says_so(self):
        r = sample("layernorm_f32_8192x4096")
        r.profiles = {}
        lines = limits([r], status="not run: no ncu")
        self.assertIn("Hardware profiles: not run: no ncu.", lines[2])
        (line,) = self.line(lines, "layernorm_f32_8192x4096: 0.962x")
        self.assertTrue(line.endswith("(71.2 vs 68.5 µs). Ours: no profile. torch.compile: no profile."), line)

    def test_throughput_names_the_cost_of_an_evaluation(self):
        r = sample("layernorm_f32_8192x4096")
        r.ours_us = 50.0
        lines = limits([r], throughput={"layernorm_f32_8192x4096": (60, 60.0, 90.0)})
        (line,) = self.line(lines, "layernorm_f32_8192x4096: 60 evaluations in 60.0 GPU-s = 1000 ms")
        self.assertIn("against a kernel time of 50.0 µs", line)

    def test_geomean_ceiling_from_the_timed_medians(self):
        # compile at 90% and 95% of copy on two memory-bound tasks, a GEMM level with compile:
        # at the copy roof the ratios would be 1/0.90, 1/0.95 and 1.0 -> geomean 1.0536x.
        a, b = sample("layernorm_f32_8192x4096"), sample("softmax_f32_8192x4096")
        for r, fraction in ((a, 0.90), (b, 0.95)):
            roof_us = r.min_bytes / (COPY * 1e9) * 1e6
            r.compile_us, r.ours_us = roof_us / fraction, roof_us / fraction * 1.01
        gemm = sample("matmul_bf16_8192x8192x8192")
        gemm.compile_us = gemm.ours_us
        ceiling, fractions, others = st.geomean_ceiling([a, b, gemm], COPY, lambda c: c.family != "matmul")
        self.assertAlmostEqual(ceiling, (1 / 0.90 / 0.95) ** (1 / 3))
        self.assertEqual([round(f, 3) for _, f in fractions], [0.9, 0.95])
        self.assertEqual(others, 1)
        (line,) = st.ceiling_lines([a, b, gemm], COPY, lambda c: c.family != "matmul")
        self.assertIn("torch.compile already reaches 90.0% (layernorm_f32_8192x4096) to 95.0% of the copy "
                      "bandwidth (all at >= 80%)", line)
        self.assertIn("would be at most 1.054x: below 1.15x even at the copy roof; the 1 other task(s) would each "
                      f"need {(1.15 / ceiling) ** 3:.2f}x more", line)

    def test_a_faster_than_copy_kernel_keeps_its_own_time_in_the_ceiling(self):
        r = sample("layernorm_f32_8192x4096")
        roof_us = r.min_bytes / (COPY * 1e9) * 1e6
        r.ours_us, r.compile_us = roof_us * 0.9, roof_us * 1.5
        ceiling, _, _ = st.geomean_ceiling([r], COPY, lambda c: True)
        self.assertAlmostEqual(ceiling, 1.5 / 0.9)


class DevicePeaksTest(unittest.TestCase):
    def test_the_gpus_datasheet_ceilings(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "p.crucible")
            db = sqlite3.connect(path)
            db.execute("CREATE TABLE ceilings (device TEXT, name TEXT, measured REAL, datasheet REAL, unit TEXT, "
                       "measured_at INTEGER)")
            db.executemany("INSERT INTO ceilings VALUES (?, ?, ?, ?, ?, 1)",
                           [("NVIDIA H200", "dram_bw", 4.2e12, 4.8e12, "B/s"), ("NVIDIA H200", "l2_bw", 9e12, 0, "B/s"),
                            ("NVIDIA H200", "bf16_tensor", 6e14, 989e12, "FLOP/s"),
                            ("NVIDIA A100", "dram_bw", 1.9e12, 2.0e12, "B/s")])
            db.commit()
            db.close()
            self.assertEqual(st.device_peaks(path, "NVIDIA H200"), {"dram_bw": 4.8e12, "bf16_tensor": 989e12})
            self.assertEqual(st.device_peaks(path, "NVIDIA B200"), {})   # two devices, neither this one

    def test_a_project_without_ceilings(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "p.crucible")
            sqlite3.connect(path).close()
            self.assertEqual(st.device_peaks(path, "NVIDIA H200"), {})


if __name__ == "__main__":
    unittest.main()
