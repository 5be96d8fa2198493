#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Unit tests of local_pool_bench.py: it reads the counts, seconds and per-result devices of two
projects (tables with the columns of core/store/schema.cpp it reads), computes the rates and the
verdict, and fails clearly on a project it cannot read. Run: python3 tests/bench/test_local_pool_bench.py"""
import contextlib
import io
import json
import sqlite3
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import local_pool_bench as lpb  # noqa: E402

H200 = {"gpu": "NVIDIA H200", "arch": "sm_90", "driver": "580.159.04", "cudaRuntime": "13.0", "nvrtc": "13.0",
        "smClockMHz": 1980.0, "memClockMHz": 3201.0, "host": "node", "smCount": 132}


def make_project(path, evaluations, wall_s, gpu_s, candidates, seals=0):
    """candidates: (status, device or None, smClockMHz) per candidate of run 1."""
    db = sqlite3.connect(path)
    db.executescript("""
        CREATE TABLE runs (id INTEGER PRIMARY KEY, status TEXT NOT NULL, evaluations_done INTEGER NOT NULL,
                           wall_seconds_used REAL NOT NULL, gpu_seconds_used REAL NOT NULL,
                           best_speedup REAL NOT NULL);
        CREATE TABLE candidates (id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL, status TEXT NOT NULL,
                                 timing_json TEXT);
        CREATE TABLE seals (id INTEGER PRIMARY KEY, run_id INTEGER);
    """)
    db.execute("INSERT INTO runs VALUES (1, 'finished', ?, ?, ?, 1.5)", (evaluations, wall_s, gpu_s))
    db.execute("INSERT INTO candidates (run_id, status, timing_json) VALUES (1, 'reference', ?)",
               (json.dumps({"medianUs": 10, "device": H200}),))
    for status, device, clock in candidates:
        timing = None
        if status == "valid":
            t = {"medianUs": 5.0, "smClockMHz": clock}
            if device is not None:
                t["device"] = device
            timing = json.dumps(t)
        db.execute("INSERT INTO candidates (run_id, status, timing_json) VALUES (1, ?, ?)", (status, timing))
    for _ in range(seals):
        db.execute("INSERT INTO seals (run_id) VALUES (1)")
    db.commit()
    db.close()


class LocalPoolBenchTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.root = Path(self.dir.name)

    def tearDown(self):
        self.dir.cleanup()

    def path(self, name):
        return str(self.root / name)

    def run_main(self, *args):
        out = io.StringIO()
        err = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = lpb.main(list(args))
        return status, out.getvalue(), err.getvalue()

    def test_reads_counts_seconds_and_the_device_each_result_names(self):
        other = dict(H200, host="node-2", smClockMHz=1755.0)
        make_project(self.path("p.crucible"), 5, 120.0, 30.0,
                     [("valid", H200, 1900.0), ("valid", other, 1980.0), ("valid", None, 0),
                      ("compile-failed", None, 0), ("invalid", None, 0)], seals=1)
        r = lpb.read_run(self.path("p.crucible"))
        self.assertEqual(r["evaluations"], 5)
        self.assertEqual(r["by_status"]["valid"], 3)
        self.assertEqual(r["seals"], 1)
        # Two H200s (clocks and hosts differ) are one model; the reference is not counted.
        self.assertEqual(r["devices"], {("NVIDIA H200", "sm_90", "580.159.04", 132): 2})
        self.assertEqual(r["hosts"], {"node", "node-2"})
        self.assertEqual(r["unrecorded"], 1)
        self.assertEqual(r["sm_clock_mhz"], 1940.0)
        rate = lpb.rates(r, 2)
        self.assertAlmostEqual(rate["per_wall_min"], 2.5)        # 5 in 2 min
        self.assertAlmostEqual(rate["per_gpu_min_held"], 1.25)   # 2 workers x 2 min
        self.assertAlmostEqual(rate["per_gpu_min_used"], 10.0)   # 5 in 0.5 GPU-min
        self.assertEqual(lpb.describe_devices(r),
                         "NVIDIA H200 (sm_90, 132 SMs, driver 580.159.04) x2; 1 unrecorded")

    def test_the_table_and_a_passing_verdict(self):
        make_project(self.path("alone.crucible"), 10, 120.0, 60.0, [("valid", H200, 1980.0)] * 10)
        make_project(self.path("pool.crucible"), 19, 120.0, 115.0, [("valid", H200, 1980.0)] * 19)
        Path(self.path("pool.log")).write_text("evaluating on: 2 GPU worker(s): 2 GPU(s): NVIDIA H200\n")
        Path(self.path("smi.csv")).write_text("0, NVIDIA H200, 580.159.04, 1980 MHz, 1980 MHz, 3201 MHz\n")
        status, out, err = self.run_main(
            "--run", f"alone:{self.path('alone.crucible')}:{self.path('alone.log')}:1",
            "--run", f"pool:{self.path('pool.crucible')}:{self.path('pool.log')}:4",
            "--smi", self.path("smi.csv"), "--out", self.path("table.md"))
        self.assertEqual(status, 0, err)
        self.assertIn("Date: ", out)
        self.assertIn("- 0, NVIDIA H200, 580.159.04, 1980 MHz, 1980 MHz, 3201 MHz", out)
        # The pool's worker count comes from its log (2), not the GPUs it was given (4).
        self.assertIn("| pool | 2 | finished | 19 | 19 | 19 | 0 | 2.00 | 115.0 | 9.5 | 4.8 | 9.9 |", out)
        self.assertIn("| alone | 1 | finished | 10 | 10 | 10 | 0 | 2.00 | 60.0 | 5.0 | 5.0 | 10.0 |", out)
        self.assertIn("PASS: pool 9.5 vs alone 5.0 evaluations per wall minute", out)
        # The file holds what was printed.
        self.assertEqual(Path(self.path("table.md")).read_text(), out[:-1])

    def test_a_slower_pool_fails_the_verdict(self):
        make_project(self.path("alone.crucible"), 10, 60.0, 30.0, [])
        make_project(self.path("pool.crucible"), 9, 60.0, 30.0, [])
        status, out, _ = self.run_main(
            "--run", f"alone:{self.path('alone.crucible')}:{self.path('none.log')}:1",
            "--run", f"pool:{self.path('pool.crucible')}:{self.path('none.log')}:1")
        self.assertEqual(status, 1)
        self.assertIn("FAIL: pool 9.0 vs alone 10.0", out)
        self.assertIn("no timed candidate", out)

    def test_a_missing_or_foreign_project_is_a_clear_error(self):
        status, _, err = self.run_main("--run", f"alone:{self.path('missing.crucible')}:x.log:1")
        self.assertEqual(status, 2)
        self.assertIn("missing.crucible: no project file", err)
        Path(self.path("text.crucible")).write_text("not a database")
        status, _, err = self.run_main("--run", f"alone:{self.path('text.crucible')}:x.log:1")
        self.assertEqual(status, 2)
        self.assertIn("not a readable Crucible project", err)

    def test_run_arguments_are_checked(self):
        with self.assertRaises(Exception):
            lpb.parse_run_arg("alone:only-a-project")
        with self.assertRaises(Exception):
            lpb.parse_run_arg("alone:p.crucible:p.log:two")
        self.assertEqual(lpb.parse_run_arg("pool:/a:b/p.crucible:p.log:2"), ("pool", "/a:b/p.crucible", "p.log", 2))


if __name__ == "__main__":
    unittest.main()
