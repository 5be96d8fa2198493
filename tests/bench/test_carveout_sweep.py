#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Tests for carveout_sweep.py: its reading of the program's lines, the honesty verdict, the table, and a
whole run against a stand-in for build/headless/bin/carveout_sweep (no GPU)."""
import os
import stat
import subprocess
import sys
import tempfile
import textwrap
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import carveout_sweep as cs  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

# The stand-in answers as the H100 did on 2026-12-07 (results/2026-12-07-h100-self-timing-bias.md): softmax's
# baseline 106.2 / 119.6 us with no fixed preference, alike with 0%; every other task alike; 'broken' fails.
STAND_IN = textwrap.dedent("""\
    #!/usr/bin/env python3
    import os, sys
    pref, task = sys.argv[1], sys.argv[2]
    with open(os.environ["CALLS"], "a") as f:
        f.write(pref + " " + task + "\\n")
    if task == "broken":
        sys.stderr.write("carveout_sweep: broken under '%s': invalid: wrote out of bounds\\n" % pref)
        sys.exit(1)
    print("device gpu=NVIDIA_H100_80GB_HBM3 driver=580.159.04 sm_mhz=1980 mem_mhz=2619")
    cand, ref = (106.2, 119.6) if (task == "softmax" and pref != "0") else (97.1, 96.4)
    print("some other output")
    print("sweep preference=%s task=%s repeat=1 candidate_us=%.1f reference_us=%.1f candidate_iqr_us=0.5 "
          "reference_iqr_us=0.6 speedup=%.5f samples=175 sm_mhz=1980" % (pref, task, cand, ref, ref / cand))
    """)


class ParseTest(unittest.TestCase):
    def test_reads_sweep_and_device_lines_and_nothing_else(self):
        kind, f = cs.parse_fields("sweep preference=least task=softmax speedup=1.12564 candidate_us=106.2")
        self.assertEqual(kind, "sweep")
        self.assertEqual(f["preference"], "least")
        self.assertEqual(f["speedup"], "1.12564")
        self.assertEqual(cs.parse_fields("device gpu=NVIDIA_H100 driver=580.159.04")[1]["driver"], "580.159.04")
        self.assertIsNone(cs.parse_fields("[diag] crucible_scrub_shared blocks=1"))
        self.assertIsNone(cs.parse_fields("sweep preference=least stray"))
        self.assertIsNone(cs.parse_fields(""))

    def test_honest_means_every_round_within_two_percent(self):
        self.assertTrue(cs.honest([1.0, 0.985, 1.019]))
        self.assertFalse(cs.honest([1.0, 1.126]))
        self.assertFalse(cs.honest([0.97]))
        self.assertFalse(cs.honest([]))


class RunTest(unittest.TestCase):
    def test_a_whole_run_gives_each_preference_its_verdict_and_names_failures(self):
        with tempfile.TemporaryDirectory() as d:
            binary = os.path.join(d, "carveout_sweep")
            with open(binary, "w") as f:
                f.write(STAND_IN)
            os.chmod(binary, os.stat(binary).st_mode | stat.S_IEXEC)
            calls, out = os.path.join(d, "calls"), os.path.join(d, "out.md")
            p = subprocess.run([sys.executable, os.path.join(HERE, "carveout_sweep.py"), out, binary,
                                "--preferences", "unset,least,0", "--tasks", "softmax,rowsum,broken", "--rounds", "2"],
                               capture_output=True, text=True, env=dict(os.environ, CALLS=calls), timeout=120)
            self.assertEqual(p.returncode, 0, p.stderr)
            with open(calls) as f:
                order = [line.split() for line in f.read().splitlines()]
            self.assertEqual(len(order), 2 * 3 * 3)  # every (round, task, preference) in a process of its own
            self.assertEqual([pref for pref, task in order[:3]], ["unset", "least", "0"])
            self.assertEqual([pref for pref, task in order[9:12]], ["least", "0", "unset"])  # the order turns
            with open(out) as f:
                table = f.read()
            self.assertIn("on NVIDIA H100 80GB HBM3", table)
            self.assertIn("driver 580.159.04, SM 1980 MHz, memory 2619 MHz", table)
            self.assertIn("| softmax | **1.126** (106.2 / 119.6) | **1.126** (106.2 / 119.6) | 0.993 (97.1 / 96.4) |", table)
            self.assertIn("failed: carveout_sweep: broken under 'unset': invalid: wrote out of bounds", table)
            self.assertIn("| honest | no | no | no |", table)  # 'broken' has no result under any preference

    def test_a_preference_is_honest_only_when_every_task_is(self):
        rows = {("a", "0"): [{"speedup": "0.993", "candidate_us": "97.1", "reference_us": "96.4"}],
                ("b", "0"): [{"speedup": "1.001", "candidate_us": "88.5", "reference_us": "88.6"}],
                ("a", "least"): [{"speedup": "1.126", "candidate_us": "106.2", "reference_us": "119.6"}],
                ("b", "least"): [{"speedup": "1.000", "candidate_us": "88.5", "reference_us": "88.5"}]}
        table = cs.render(rows, {}, {"gpu": "X"}, ["a", "b"], ["0", "least"], 1, "now")
        self.assertIn("| honest | yes | no |", table)


if __name__ == "__main__":
    unittest.main()
