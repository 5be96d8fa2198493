#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Unit tests of the issue 19 experiment table makers on small synthetic runs (no GPU), of
reshape_task.py, and of the drivers' syntax and dry runs. Run: python3 tests/bench/experiments/test_experiments.py"""
import contextlib
import io
import json
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

sys.dont_write_bytecode = True   # no __pycache__ left in the source tree
HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent.parent
sys.path.insert(0, str(HERE))
import exp_common as ec  # noqa: E402
import knowledge_table as kt  # noqa: E402
import reshape_task as rt  # noqa: E402
import search_table as st  # noqa: E402
import seal_table as sl  # noqa: E402


def candidates(fitnesses, start_id=1):
    """Export rows: the reference first, then one evaluation per value (None: an invalid candidate)."""
    rows = [{"id": start_id, "status": "reference", "fitness": 1.0, "status_detail": ""}]
    for i, f in enumerate(fitnesses):
        rows.append({"id": start_id + 1 + i, "status": "invalid" if f is None else "valid",
                     "fitness": 0.0 if f is None else f, "status_detail": ""})
    return rows


class Results:
    """A driver's OUT folder with runs written as lib.sh writes them."""

    def __init__(self, root):
        self.root = Path(root)
        (self.root / "runs").mkdir(parents=True, exist_ok=True)

    def run(self, key, task, arm, seed, fitnesses, budget=None, rc=0, status="finished", reason="evaluation budget",
            best=None, files=None):
        d = self.root / "runs" / key
        d.mkdir(parents=True, exist_ok=True)
        budget = budget or len(fitnesses)
        (d / "meta.json").write_text(json.dumps({"key": key, "task": task, "arm": arm, "seed": seed,
                                                 "budget": budget, "rc": rc, "seconds": 10, "run": 1,
                                                 "project": "p"}))
        valid = [f for f in fitnesses if f is not None]
        (d / "status.json").write_text(json.dumps([{
            "run": 1, "task": task, "status": status, "evaluations": len(fitnesses),
            "best_speedup": best if best is not None else max(valid, default=0.0),
            "log": [{"at_ms": 1, "level": "info", "text": f"run finished: {reason}"}]}]))
        (d / "export.json").write_text(json.dumps(candidates(fitnesses)))
        for name, content in (files or {}).items():
            (d / name).write_text(json.dumps(content))


class CurveTest(unittest.TestCase):
    def test_best_so_far_counts_evaluations_only_and_keeps_the_best_valid(self):
        rows = candidates([1.1, None, 1.05, 1.3, None])
        rows.append({"id": 99, "status": "proposed", "fitness": 0.0})
        rows.append({"id": 98, "status": "compile-failed", "fitness": 0.0,
                     "status_detail": "duplicate: this configuration was measured before; not evaluated again"})
        rows.append({"id": 97, "status": "compile-failed", "fitness": 0.0, "status_detail": "nvrtc: error"})
        self.assertEqual(ec.best_so_far(rows), [1.1, 1.1, 1.1, 1.3, 1.3, 1.3])  # id order: 97 is evaluated last

    def test_evaluations_to_reach(self):
        self.assertEqual(ec.evaluations_to_reach([0, 1.0, 1.2, 1.5], 1.2), 3)
        self.assertEqual(ec.evaluations_to_reach([0, 1.0], 1.2), None)

    def test_spread_and_its_text(self):
        self.assertEqual(ec.spread([3, 1, 2]), (2, 1, 3))
        self.assertIsNone(ec.spread([None]))
        self.assertEqual(ec.fmt_spread((1.2, 1.1, 1.3), 2, "x"), "1.20x [1.10–1.30]")
        self.assertEqual(ec.fmt_spread((1.2, 1.2, 1.2), 2), "1.20")


class HeaderTest(unittest.TestCase):
    def test_the_gpu_driver_and_clocks_come_from_what_the_driver_recorded(self):
        with tempfile.TemporaryDirectory() as tmp:
            r = Results(tmp)
            (r.root / "gpu.csv").write_text("NVIDIA H200, 580.159.04, 1980, 3201\n")
            (r.root / "clocks.csv").write_text("2026/12/02 04:00:00.000, 1980, 3201\n"
                                               "2026/12/02 04:00:01.000, 1755, 3201\n"
                                               "2026/12/02 04:00:02.000, 1980, 3201\n")
            r.run("a", "t", "map-elites", 1, [1.0, 1.2], budget=2)
            text = "\n".join(ec.header_lines("T", r.root, ec.load_runs(r.root)))
        self.assertIn("NVIDIA H200, driver 580.159.04, max clocks SM 1980 MHz / memory 3201 MHz", text)
        self.assertIn("SM 1755 / 1980 / 1980 MHz", text)
        self.assertIn("budgets (evaluations per run): 2; seeds: 1", text)
        self.assertRegex(text, r"date: \d{4}-\d\d-\d\d \d\d:\d\d UTC")


class SearchTableTest(unittest.TestCase):
    def make(self, tmp):
        r = Results(tmp)
        # Task a: MAP-Elites ahead of both; task b: MAP-Elites behind hill climbing, level with random.
        finals = {"a": {"map-elites": [1.5, 1.6, 1.4], "hill-climb": [1.2, 1.3, 1.25], "random": [1.1, 1.0, 1.2]},
                  "b": {"map-elites": [1.1, 1.1, 1.2], "hill-climb": [1.3, 1.3, 1.4], "random": [1.1, 1.1, 1.1]}}
        for task, by in finals.items():
            for search, values in by.items():
                for seed, final in enumerate(values, 1):
                    r.run(f"{task}.{search}.s{seed}", task, search, seed, [1.0, None, 1.05, final, final], budget=5)
        r.run("a.random.s4", "a", "random", 4, [1.0], budget=5, rc=1, status="failed", reason="worker crashed")
        return r

    def test_medians_spreads_verdicts_and_a_computed_conclusion(self):
        with tempfile.TemporaryDirectory() as tmp:
            r = self.make(tmp)
            text, summary = st.render(ec.load_runs(r.root), r.root, 0.01)
        self.assertEqual(summary["a"]["searches"]["map-elites"]["final"], (1.5, 1.4, 1.6))
        self.assertEqual(summary["a"]["vs_hill_climb"][0], "ahead")
        self.assertEqual(summary["b"]["vs_hill_climb"][0], "behind")
        self.assertEqual(summary["b"]["vs_random"][0], "tie")
        self.assertEqual(summary["a"]["searches"]["random"]["failed"], [4], "a failed run is not in the median")
        self.assertEqual(summary["a"]["searches"]["random"]["final"], (1.1, 1.05, 1.2))  # 1.05 came before 1.0
        self.assertIn("1.500x [1.400–1.600]", text)
        self.assertIn("MAP-Elites is ahead of hill climbing on 1 of 2 tasks", text)
        self.assertIn("ahead of random sampling on 1 of 2", text)
        self.assertIn("missed by 1 task(s)", text)
        self.assertIn("a.random.s4: exit 1, status failed: worker crashed", text)

    def test_the_conclusion_follows_the_numbers(self):
        with tempfile.TemporaryDirectory() as tmp:
            r = Results(tmp)
            for task in ("a", "b", "c"):
                r.run(f"{task}.me", task, "map-elites", 1, [1.0, 1.5])
                r.run(f"{task}.hc", task, "hill-climb", 1, [1.0, 1.2 if task != "c" else 1.6])
            text, _ = st.render(ec.load_runs(r.root), r.root, 0.01)
        self.assertIn("ahead of hill climbing on 2 of 3 tasks", text)
        self.assertIn("is met.", text)

    def test_curves_csv_and_half_budget_of_a_run_that_ended_early(self):
        with tempfile.TemporaryDirectory() as tmp:
            r = Results(tmp)
            r.run("x", "t", "random", 1, [1.0, 1.3], budget=10, reason="search space exhausted")
            runs = ec.load_runs(r.root)
            text, summary = st.render(runs, r.root, 0.01)
            st.ec.write_curves(runs, Path(tmp, "c.csv"), "search")
            lines = Path(tmp, "c.csv").read_text().splitlines()
        self.assertEqual(summary["t"]["searches"]["random"]["half"], (1.3, 1.3, 1.3))
        self.assertIn("x: 2 of 10 evaluations: search space exhausted", text)
        self.assertEqual(lines, ["task,search,seed,evaluation,best", "t,random,1,1,1.000000", "t,random,1,2,1.300000"])

    def test_main_fails_clearly_without_runs(self):
        with tempfile.TemporaryDirectory() as tmp, contextlib.redirect_stderr(io.StringIO()) as err:
            self.assertEqual(st.main(["--results", tmp]), 2)
        self.assertIn("no runs recorded", err.getvalue())


class KnowledgeTableTest(unittest.TestCase):
    def test_evaluations_to_reach_95_percent_of_the_cold_final_best(self):
        with tempfile.TemporaryDirectory() as tmp:
            r = Results(tmp)
            claims = [{"status": "validated"}, {"status": "validated"}, {"status": "hypothesis"}]
            (r.root / "kb-phase1.json").write_text(json.dumps(claims))
            r.run("phase1.t", "t_big", "phase1", 1, [1.0, 1.4])
            cold = [1.0, 1.0, 1.1, 1.1, 1.2, 1.2, 1.3, 1.3, 1.4, 1.5]        # 95% of 1.5 = 1.425: evaluation 10
            for seed in (1, 2, 3):
                r.run(f"t.cold.s{seed}", "t", "cold", seed, cold)
            r.run("t.warm.s1", "t", "warm", 1, [1.0, 1.2, 1.43] + [1.43] * 7, files={"kb-imported.json": claims})
            r.run("t.warm.s2", "t", "warm", 2, [1.5] * 10)                    # 1 of 10
            r.run("t.warm.s3", "t", "warm", 3, [1.0] * 9 + [1.44])           # 10 of 10
            text, table = kt.render(ec.load_runs(r.root), r.root, 0.95)
        self.assertAlmostEqual(table["t"]["ratio"], 0.3)                    # median of 0.3, 0.1, 1.0
        self.assertIn("| t | 1, 2, 3 | 1.500x | ", text)
        self.assertIn("| 30% | yes |", text)
        self.assertIn("claims after phase 1: 3 (1 hypothesis, 2 validated)", text)
        self.assertIn("median 30% of the cold runs' evaluations", text)
        self.assertIn("met on 1 of 1 target(s)", text)
        self.assertNotIn("changed nothing", text)

    def test_warm_runs_that_never_reach_and_identical_runs_are_said_plainly(self):
        with tempfile.TemporaryDirectory() as tmp:
            r = Results(tmp)
            r.run("u.cold.s1", "u", "cold", 1, [1.0, 1.2])
            r.run("u.warm.s1", "u", "warm", 1, [1.0, 1.1], files={"kb-imported.json": []})
            r.run("v.cold.s1", "v", "cold", 1, [1.0, 1.3])
            r.run("v.warm.s1", "v", "warm", 1, [1.0, 1.3])
            r.run("v.cold.s2", "v", "cold", 2, [1.0, 1.3])                 # its warm run is missing
            text, table = kt.render(ec.load_runs(r.root), r.root, 0.95)
        self.assertEqual(table["u"]["ratio"], float("inf"))
        self.assertIn("not reached in 1 of 1 (budget 2)", text)
        self.assertIn("| not reached | no |", text)
        self.assertIn("(incomplete: 2)", text)
        self.assertIn("met on 0 of 2 target(s)", text)
        self.assertIn("no validated claim was imported", text)
        self.assertTrue(table["v"]["identical"])


    def test_starting_kernels_near_the_best_make_the_final_measure_blind_and_gain_sees_past_them(self):
        with tempfile.TemporaryDirectory() as tmp:
            r = Results(tmp)
            r.run("s.cold.s1", "s", "cold", 1, [1.1666] + [1.1806] * 7)   # as measured on the H200, 2026-12-02
            r.run("s.warm.s1", "s", "warm", 1, [1.1670] + [1.1829] * 7)
            runs = ec.load_runs(r.root)
            final_text, final = kt.render(runs, r.root, 0.95)
            gain_text, gain = kt.render(runs, r.root, 0.95, "gain")
        self.assertEqual(final["s"]["ratio"], 1.0)
        self.assertIn("in 1 of 1 seed(s) the cold run reached the mark at its first evaluation", final_text)
        self.assertIn("--measure gain", final_text)
        self.assertAlmostEqual(kt.mark(1.1806, 0.95, "gain"), 1.17157)
        self.assertEqual(gain["s"]["ratio"], 1.0)                         # both reach 1.1716 at evaluation 2
        self.assertNotIn("at its first evaluation", gain_text)
        self.assertIn("the baseline plus 95% of the cold run's gain", gain_text)


class SealTableTest(unittest.TestCase):
    def test_beaten_not_beaten_and_never_sealed(self):
        seal = [{"seal": 1, "task": "a", "speedup": 1.8}]
        with tempfile.TemporaryDirectory() as tmp:
            r = Results(tmp)
            r.run("a.evolve.r1", "a", "evolve", 1, [1.0, 1.8])
            r.run("a.continue", "a", "continue", 101, [1.0, 1.03, 0.9], budget=3,
                  files={"seals-before.json": seal, "seals-after.json": seal + [{"seal": 2, "speedup": 1.06}]})
            r.run("b.evolve.r1", "b", "evolve", 1, [1.0, 1.5])
            r.run("b.continue", "b", "continue", 101, [1.0, 0.97, None], budget=5, reason="the proposer made no new "
                  "configuration in 20 generations (search space exhausted)",
                  files={"seals-before.json": [{"seal": 1, "speedup": 1.5}], "seals-after.json": [{"seal": 1}]})
            for i in (1, 2, 3):
                r.run(f"c.evolve.r{i}", "c", "evolve", i, [1.0, 1.01])
            text, entries = sl.render(ec.load_runs(r.root), r.root)
        by = {e["task"]: e for e in entries}
        self.assertEqual(by["a"]["outcome"], "beat")
        self.assertAlmostEqual(by["a"]["gain"], 0.03)
        self.assertIn("beat the seal by +3.0% in 3 evaluations; sealed again (1 new seal(s))", text)
        self.assertEqual(by["b"]["outcome"], "did not beat")
        self.assertIn("best 1.000x the seal after 3 of 5 evaluations (2 valid); the run ended: the proposer made no",
                      text)
        self.assertEqual(by["c"]["outcome"], "not sealed")
        self.assertIn("no seal after 3 run(s), 6 evaluations", text)
        self.assertIn("The run from the seal beat it on 1 of 2 task(s) (median gain +3.0%); 1 task(s) were never "
                      "sealed.", text)


class ReshapeTest(unittest.TestCase):
    def test_a_task_at_other_axes_gets_a_name_of_its_own(self):
        spec = json.loads((REPO / "resources/tasks/softmax_f32_8192x4096.json").read_text())
        out = rt.reshape(spec, rt.parse_axes("M=16384,N=2048"))
        self.assertEqual(out["name"], "softmax_f32_16384x2048")
        self.assertEqual(out["axes"], {"M": 16384, "N": 2048})
        self.assertEqual(out["baseline"], spec["baseline"])
        with self.assertRaisesRegex(ValueError, "no axis K"):
            rt.reshape(spec, {"K": 4})
        with self.assertRaisesRegex(ValueError, "own shape"):
            rt.reshape(spec, {"M": 8192})
        with self.assertRaisesRegex(ValueError, "POSITIVE_INTEGER"):
            rt.parse_axes("M=0")


class DriverTest(unittest.TestCase):
    def test_the_drivers_parse(self):
        for script in sorted(HERE.glob("*.sh")):
            with self.subTest(script=script.name):
                done = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True)
                self.assertEqual(done.returncode, 0, done.stderr)

    def test_pack_leaves_the_table_and_one_archive(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp, "exp")
            (out / "runs" / "k").mkdir(parents=True)
            (out / "t.md").write_text("table")
            (out / "runs" / "k" / "meta.json").write_text("{}")
            (out / "runs" / "k" / "project.crucible").write_text("db")
            done = subprocess.run(["bash", "-c", f'source "{HERE}/lib.sh"; OUT="{out}"; DRY_RUN=0; PACK=1; '
                                   'EXP_SAMPLER=""; exp_pack t.md'], capture_output=True, text=True)
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertEqual(sorted(p.name for p in Path(tmp).iterdir()), ["exp.md", "exp.tar.gz"])
            self.assertEqual(Path(tmp, "exp.md").read_text(), "table")
            listed = subprocess.run(["tar", "tzf", str(Path(tmp, "exp.tar.gz"))], capture_output=True, text=True)
            self.assertIn("exp/runs/k/meta.json", listed.stdout)
            self.assertNotIn("project.crucible", listed.stdout)

    def dry(self, script, *args, **env):
        with tempfile.TemporaryDirectory() as tmp:
            done = subprocess.run(["bash", str(HERE / script), "/nonexistent-build", *args], cwd=REPO,
                                  capture_output=True, text=True, timeout=120,
                                  env={**os.environ, "DRY_RUN": "1", "OUT": tmp, **env})
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        return done.stdout

    def test_dry_runs_list_every_run_and_the_estimated_time(self):
        out = self.dry("search_ablation.sh", "20", S_PER_EVAL="2", RUN_OVERHEAD_S="10")
        self.assertEqual(out.count("would run"), 6 * 3 * 3)
        self.assertIn("--search hill-climb", out)
        self.assertIn("~2700 s estimated in all", out)            # 54 x (10 + 20 x 2)
        out = self.dry("knowledge_ablation.sh", "10", "20", SEEDS="1 2", S_PER_EVAL="1", RUN_OVERHEAD_S="0")
        self.assertEqual(out.count("would run phase1."), 4)
        self.assertEqual(out.count("would run") - 4, 4 * 2 * 2)
        self.assertIn("softmax_f32_16384x2048.warm.s2", out)
        self.assertIn("~240 s estimated in all", out)             # 4 x 20 + 16 x 10
        out = self.dry("seal_and_continue.sh", "10", "20", TASKS="rowsum_f32_8192x8192", MAX_ROUNDS="2")
        self.assertIn("would run rowsum_f32_8192x8192.evolve.r2", out)
        self.assertIn("would run rowsum_f32_8192x8192.continue", out)


if __name__ == "__main__":
    unittest.main()
