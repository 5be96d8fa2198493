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


if __name__ == "__main__":
    unittest.main()
