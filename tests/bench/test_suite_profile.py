#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Tests for suite_profile.py: reading ncu's CSV, a contender's kernels together, what bounds it,
the ncu command and the call around it (with a stand-in ncu: no GPU here)."""
import os
import stat
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import suite_profile as sp  # noqa: E402

# `ncu --csv --print-units base --nvtx --metrics ...`: the details page, one row per kernel and metric.
# With --nvtx, ncu puts the push/pop and start/end range columns after "Host Name"; the rest of the
# header is ncu's ("ID" ... "Metric Value"). Ours: one kernel; torch.compile: two.
HEADER = ('"ID","Process ID","Process Name","Host Name",'
          '"thread Domain:Push/Pop_Range:PL_Type:PL_Value:CLR_Type:Color:Msg_Type:Msg",'
          '"Id:Domain:Start/Stop_Range:PL_Type:PL_Value:CLR_Type:Color:Msg_Type:Msg",'
          '"Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC",'
          '"Section Name","Metric Name","Metric Unit","Metric Value"')


def nvtx(contender):
    return (f'"4242  ""<default domain>:crucible_profile:none:none:none:none:none:none""  '
            f'""<default domain>:crucible_contender_{contender}:none:none:none:none:none:none"" ",""')


def rows(kernel_id, contender, kernel, metrics):
    prefix = f'"{kernel_id}","4242","python3.11","dev-host",{nvtx(contender)},"{kernel}","1","7","(256, 1, 1)",' \
             f'"(8192, 1, 1)","0","9.0","Command line profiler metrics"'
    return [f'{prefix},"{name}","{unit}","{value}"' for name, unit, value in metrics]


def metrics(read, write, ns, dram, sm, warps):
    return [("dram__bytes.sum.peak_sustained", "byte/cycle", "1,536"),
            ("dram__bytes_read.sum", "byte", read), ("dram__bytes_write.sum", "byte", write),
            ("dram__cycles_elapsed.avg.per_second", "cycle/second", "3,125,000,000"),
            ("dram__throughput.avg.pct_of_peak_sustained_elapsed", "%", dram),
            ("gpu__time_duration.sum", "nsecond", ns),
            ("sm__throughput.avg.pct_of_peak_sustained_elapsed", "%", sm),
            ("sm__warps_active.avg.pct_of_peak_sustained_active", "%", warps)]


NCU_LOG = "\n".join(
    ["==PROF== Connected to process 4242 (/usr/bin/python3.11)",
     "[profile-child] layernorm_f32_8192x4096: torch.compile(max-autotune-no-cudagraphs) took 3 s",
     '==PROF== Profiling "layernorm_kernel" - 0: 0%....50%....100% - 3 passes',
     "==PROF== Disconnected from process 4242",
     HEADER]
    + rows(0, "ours", "layernorm_kernel", metrics("134,217,728", "134,234,112", "71,104", "91.02", "35.10", "80.00"))
    + rows(1, "compile", "triton_red_fused_native_layer_norm_0(float*, float*, int)",
           metrics("134,217,728", "0", "40,000", "95.00", "30.00", "90.00"))
    + rows(2, "compile", "triton_poi_fused_1",
           metrics("0", "134,217,728", "30,000", "85.00", "20.00", "70.00"))) + "\n"


class UnitTest(unittest.TestCase):
    def test_scaled_and_base_units(self):
        self.assertEqual(sp.unit_scale("byte"), 1.0)
        self.assertEqual(sp.unit_scale("Mbyte"), 1e6)
        self.assertEqual(sp.unit_scale("Gbyte"), 1e9)
        self.assertEqual(sp.unit_scale("nsecond"), 1e-9)
        self.assertEqual(sp.unit_scale("ns"), 1e-9)   # gpu__time_duration.sum as ncu 2025 prints it
        self.assertEqual(sp.unit_scale("usecond"), 1e-6)
        self.assertEqual(sp.unit_scale("byte/s"), 1.0)
        self.assertEqual(sp.unit_scale("usecond"), 1e-6)
        self.assertEqual(sp.unit_scale("msecond"), 1e-3)
        self.assertEqual(sp.unit_scale("%"), 1.0)
        self.assertEqual(sp.unit_scale("byte/cycle"), 1.0)
        self.assertAlmostEqual(sp.unit_scale("cycle/nsecond") / 1e9, 1.0)
        self.assertAlmostEqual(sp.unit_scale("Ghz") / 1e9, 1.0)
        self.assertAlmostEqual(sp.unit_scale("Tbyte/second") / 1e12, 1.0)

    def test_unknown_units_and_values_are_not_guessed(self):
        self.assertIsNone(sp.unit_scale("sector"))
        self.assertIsNone(sp.metric_value("12", "sector"))
        self.assertIsNone(sp.metric_value("n/a", "byte"))
        self.assertEqual(sp.metric_value("268,435,456", "byte"), 268435456.0)
        self.assertAlmostEqual(sp.metric_value("71.10", "usecond"), 71.1e-6)


class CsvTest(unittest.TestCase):
    def test_kernels_their_contender_and_metrics_in_base_units(self):
        kernels = sp.parse_ncu_csv(NCU_LOG)
        self.assertEqual([(k.id, k.contender) for k in kernels], [(0, "ours"), (1, "compile"), (2, "compile")])
        ours = kernels[0]
        self.assertEqual(ours.name, "layernorm_kernel")
        self.assertEqual(ours.metrics[sp.DRAM_READ], 134217728.0)
        self.assertAlmostEqual(ours.metrics[sp.TIME], 71.104e-6)
        self.assertEqual(ours.metrics[sp.DRAM_PCT], 91.02)
        self.assertAlmostEqual(ours.metrics[sp.DRAM_CYCLES_PER_SECOND], 3.125e9)

    def test_the_briefest_header_without_nvtx_columns(self):
        text = ('"ID","Process ID","Process Name","Host Name","Kernel Name","Context","Stream","Block Size",'
                '"Grid Size","Device","CC","Section Name","Metric Name","Metric Unit","Metric Value"\n'
                '"0","7","python3","h","k(float*)","1","7","(128, 1, 1)","(4, 1, 1)","0","9.0","S",'
                '"dram__bytes_read.sum","Mbyte","134.22"\n')
        (kernel,) = sp.parse_ncu_csv(text)
        self.assertEqual((kernel.name, kernel.contender), ("k(float*)", ""))
        self.assertAlmostEqual(kernel.metrics[sp.DRAM_READ], 134.22e6)
        self.assertEqual(sp.profiles_by_contender([kernel]), {})   # outside our ranges: no contender's

    def test_no_table_or_missing_columns_say_so(self):
        with self.assertRaisesRegex(sp.NcuCsvError, "no CSV table"):
            sp.parse_ncu_csv("==PROF== Connected to process 1\n==ERROR== ERR_NVGPUCTRPERM\n")
        with self.assertRaisesRegex(sp.NcuCsvError, "no column 'Metric Value'"):
            sp.parse_ncu_csv('"ID","Kernel Name","Metric Name","Metric Unit"\n"0","k","m","byte"\n')

    def test_rows_of_another_shape_are_skipped(self):
        text = NCU_LOG + '"not","a","row"\n'
        self.assertEqual(len(sp.parse_ncu_csv(text)), 3)


class ProfileTest(unittest.TestCase):
    def profiles(self):
        return sp.profiles_by_contender(sp.parse_ncu_csv(NCU_LOG))

    def test_a_contender_sums_bytes_and_time_and_weights_throughputs_by_time(self):
        compile_ = self.profiles()["compile"]
        self.assertEqual(compile_.kernels, ["triton_red_fused_native_layer_norm_0", "triton_poi_fused_1"])
        self.assertEqual(compile_.dram_bytes, 2 * 134217728.0)
        self.assertAlmostEqual(compile_.seconds, 70e-6)
        self.assertAlmostEqual(compile_.dram_pct, (95 * 40 + 85 * 30) / 70)
        self.assertAlmostEqual(compile_.warps_pct, (90 * 40 + 70 * 30) / 70)
        self.assertAlmostEqual(compile_.dram_peak_bps, 1536 * 3.125e9)

    def test_a_missing_metric_leaves_the_figure_out(self):
        k = sp.KernelProfile(0, "k", "ours", {sp.TIME: 1e-5, sp.DRAM_READ: 10.0, sp.DRAM_PCT: 90.0})
        p = sp.combine([k])
        self.assertIsNone(p.dram_bytes)            # no write counter
        self.assertIsNone(p.sm_pct)
        self.assertIsNone(p.dram_peak_bps)
        self.assertEqual(sp.bound_by(p), "unclassified")

    def test_classification_thresholds(self):
        def bound(dram, sm):
            return sp.bound_by(sp.Profile(["k"], dram_pct=dram, sm_pct=sm))
        self.assertEqual(bound(85.0, 10.0), "DRAM-bound")
        self.assertEqual(bound(91.0, 95.0), "DRAM-bound")      # the DRAM roof comes first
        self.assertEqual(bound(84.9, 80.0), "compute-bound")
        self.assertEqual(bound(84.9, 79.9), "latency/occupancy-bound")
        self.assertEqual(sp.bound_by(None), "unclassified")

    def test_describe_reads_the_bytes_against_the_timed_median(self):
        ours = self.profiles()["ours"]
        # 268,451,840 B in 71.2 µs = 3.770 TB/s; copy 4200 GB/s -> 89.8%; peak 4.8 TB/s -> 78.5%.
        text = sp.describe("ours", ours, 71.2, 4200.0)
        self.assertEqual(text, "ours moves 268 MB at 3.77 TB/s (89.8% of copy, 78.5% of peak); ncu: DRAM 91.0%, "
                               "SM 35.1% of peak, warps active 80.0%: DRAM-bound")
        self.assertIn("in 2 kernels", sp.describe("torch.compile", self.profiles()["compile"], 68.5, 4200.0))
        self.assertEqual(sp.describe("ours", None, 71.2, 4200.0), "ours: no profile")


# The occupancy figures of a transpose kernel as ncu 2025 prints them with --print-units base:
# 256 threads, 32 registers and 16.6 KiB of shared memory a block, all three allowing 8 blocks.
OCCUPANCY = [("launch__occupancy_limit_blocks", "block", "32"),
             ("launch__occupancy_limit_registers", "block", "8"),
             ("launch__occupancy_limit_shared_mem", "block", "9"),
             ("launch__occupancy_limit_warps", "block", "8"),
             ("launch__registers_per_thread", "register/thread", "32"),
             ("launch__shared_mem_config_size", "byte", "167,936"),
             ("sm__maximum_warps_per_active_cycle_pct", "%", "100.00")]


class OccupancyTest(unittest.TestCase):
    def profile(self, extra):
        text = NCU_LOG
        text += "\n".join(rows(3, "library", "transpose_kernel",
                                metrics("268,435,456", "268,435,456", "130,000", "81.80", "23.40", "59.00") + extra))
        return sp.profiles_by_contender(sp.parse_ncu_csv(text + "\n"))["library"]

    def test_the_limits_the_registers_and_the_shared_memory_configuration(self):
        occupancy = self.profile(OCCUPANCY).occupancy
        self.assertEqual(occupancy.theoretical_pct, 100.0)
        self.assertEqual(occupancy.limited_by, ("registers", "threads"))   # both allow 8 blocks, the lowest
        self.assertEqual((occupancy.blocks, occupancy.registers, occupancy.shared_config), (8, 32, 167936.0))

    def test_describe_reads_achieved_against_theoretical(self):
        text = sp.describe("ours", self.profile(OCCUPANCY), 132.3, 4200.0)
        self.assertIn("warps active 59.0% of a theoretical 100.0% (8 blocks an SM, limited by registers and "
                      "threads; 32 registers a thread, 164 KiB shared-memory configuration): "
                      "latency/occupancy-bound", text)

    def test_the_table_cell_and_a_profile_without_the_figures(self):
        self.assertEqual(sp.theoretical_cell(self.profile(OCCUPANCY).occupancy), "100.0 (registers, threads)")
        without = self.profile([])
        self.assertIsNone(without.occupancy)
        self.assertEqual(sp.theoretical_cell(without.occupancy), "—")
        self.assertNotIn("theoretical", sp.describe("ours", without, 132.3, 4200.0))

    def test_a_limit_ncu_left_out_is_not_guessed(self):
        only_theoretical = [m for m in OCCUPANCY if m[0] == sp.THEORETICAL_PCT]
        occupancy = self.profile(only_theoretical).occupancy
        self.assertEqual((occupancy.limited_by, occupancy.blocks, occupancy.registers), ((), None, None))
        self.assertEqual(occupancy.text(), "theoretical 100.0%")


class CommandTest(unittest.TestCase):
    def test_only_our_ranges_a_bounded_count_and_the_gpus_own_clocks(self):
        cmd = sp.ncu_command("/usr/local/cuda/bin/ncu", "/tmp/t.csv", sp.REQUIRED_METRICS, 3, ["python3", "x.py"])
        self.assertEqual(cmd[0], "/usr/local/cuda/bin/ncu")
        self.assertEqual(cmd[-2:], ["python3", "x.py"])
        joined = " ".join(cmd)
        for part in ("--csv", "--print-units base", "--log-file /tmp/t.csv", "--clock-control none",
                     "--nvtx --nvtx-include crucible_profile/", f"--launch-count {3 * sp.KERNELS_PER_CONTENDER}",
                     "--metrics " + ",".join(sp.REQUIRED_METRICS)):
            self.assertIn(part, joined)

    def test_find_ncu_takes_an_executable_only(self):
        with tempfile.TemporaryDirectory() as d:
            tool = Path(d) / "ncu"
            tool.write_text("#!/bin/sh\n")
            self.assertIsNone(sp.find_ncu(str(tool)))            # not executable
            tool.chmod(tool.stat().st_mode | stat.S_IXUSR)
            self.assertEqual(sp.find_ncu(str(tool)), str(tool))
            self.assertIsNone(sp.find_ncu(str(Path(d) / "missing")))


# A stand-in for ncu: writes the log file from --log-file as the real one does. MODE picks the behaviour.
FAKE_NCU = textwrap.dedent('''\
    #!{python}
    import sys, time
    args = sys.argv[1:]
    log = args[args.index("--log-file") + 1]
    metrics = args[args.index("--metrics") + 1]
    mode = {mode!r}
    if mode == "sleep":
        time.sleep(30)
    text = open({fixture!r}).read()
    if mode == "no-peak" and "dram__bytes.sum.peak_sustained" in metrics:
        open(log, "w").write("==ERROR== Failed to find metric dram__bytes.sum.peak_sustained\\n")
        sys.exit(1)
    if mode == "unnamed" and "dram__bytes.sum.peak_sustained" in metrics:
        open(log, "w").write("==ERROR== Failed to find metric regex:^peak$\\n")
        sys.exit(1)
    if mode == "renamed":
        if "dram__throughput" in metrics.replace("gpu__dram_throughput", ""):
            open(log, "w").write("==ERROR== Failed to find metric "
                                 "dram__throughput.avg.pct_of_peak_sustained_elapsed\\n")
            sys.exit(1)
        text = text.replace('"dram__throughput', '"gpu__dram_throughput')
    if mode == "no-occupancy" and "sm__maximum_warps_per_active_cycle_pct" in metrics:
        open(log, "w").write("==ERROR== Failed to find metric sm__maximum_warps_per_active_cycle_pct\\n")
        sys.exit(1)
    if mode == "outside":
        text = text.replace("crucible_contender_", "somebody_else_")
    if mode == "no-permission":
        open(log, "w").write("==ERROR== ERR_NVGPUCTRPERM - The user does not have permission\\n")
        sys.exit(1)
    open(log, "w").write(text)
    ''')


class ProfileTaskTest(unittest.TestCase):
    def run_fake(self, mode, contenders=("ours", "compile"), timeout=20):
        with tempfile.TemporaryDirectory() as d:
            fixture = Path(d) / "fixture.csv"
            fixture.write_text(NCU_LOG)
            ncu = Path(d) / "ncu"
            ncu.write_text(FAKE_NCU.format(python=sys.executable, mode=mode, fixture=str(fixture)))
            ncu.chmod(0o755)
            return sp.profile_task(str(ncu), ["python3", "child.py"], list(contenders), Path(d) / "task.csv", timeout)

    def test_profiles_every_contender(self):
        run = self.run_fake("ok")
        self.assertEqual(sorted(run.profiles), ["compile", "ours"])
        self.assertEqual(run.note, "")

    def test_a_contender_without_kernels_is_noted(self):
        run = self.run_fake("ok", contenders=("ours", "compile", "library"))
        self.assertEqual(run.note, "no kernels profiled for library")

    def test_a_metric_ncu_does_not_know_is_dropped_and_said(self):
        run = self.run_fake("no-peak")
        self.assertEqual(sorted(run.profiles), ["compile", "ours"])
        self.assertEqual(run.note, "ncu does not know dram__bytes.sum.peak_sustained: profiled without")

    def test_an_occupancy_metric_ncu_does_not_know_is_dropped_alone(self):
        run = self.run_fake("no-occupancy")
        self.assertEqual(sorted(run.profiles), ["compile", "ours"])
        self.assertEqual(run.note, "ncu does not know sm__maximum_warps_per_active_cycle_pct: profiled without")

    def test_the_occupancy_metrics_are_asked_for(self):
        cmd = sp.ncu_command("ncu", "/tmp/t.csv", sp.REQUIRED_METRICS + sp.OPTIONAL_METRICS, 1, ["python3"])
        asked = cmd[cmd.index("--metrics") + 1].split(",")
        for metric in sp.OCCUPANCY_METRICS:
            self.assertIn(metric, asked)

    def test_an_error_naming_none_of_ours_drops_the_peak_metrics(self):
        run = self.run_fake("unnamed")
        self.assertEqual(sorted(run.profiles), ["compile", "ours"])
        self.assertIn("ncu does not know dram__bytes.sum.peak_sustained, dram__cycles_elapsed.avg.per_second", run.note)

    def test_the_dram_throughput_under_its_other_name(self):
        run = self.run_fake("renamed")
        self.assertAlmostEqual(run.profiles["ours"].dram_pct, 91.02)
        self.assertIn("does not know dram__throughput.avg.pct_of_peak_sustained_elapsed", run.note)

    def test_kernels_outside_our_ranges_are_no_contenders(self):
        run = self.run_fake("outside")
        self.assertEqual(run.profiles, {})
        self.assertEqual(run.note, "no kernels profiled for ours, compile")

    def test_no_permission_is_reported_with_ncus_error(self):
        run = self.run_fake("no-permission")
        self.assertEqual(run.profiles, {})
        self.assertIn("exited with 1", run.note)
        self.assertIn("ERR_NVGPUCTRPERM", run.note)

    def test_a_hung_child_is_ended_at_the_timeout(self):
        run = self.run_fake("sleep", timeout=1)
        self.assertIn("timed out after 1 s", run.note)
        self.assertLess(run.seconds, 15)


if __name__ == "__main__":
    unittest.main()
