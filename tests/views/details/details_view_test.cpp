// SPDX-License-Identifier: GPL-3.0-or-later
// The candidate details view over a stored project: every stored figure with
// its unit, the difference against a baseline, missing figures with why, the
// timing samples beside the reference's.
#include "views/details/candidate_details_view.h"

#include <Qsci/qsciscintilla.h>
#include <QAbstractItemModelTester>
#include <QTreeView>
#include <gtest/gtest.h>
#include "view_test_project.h"
#include "views/details/details_model.h"
#include "views/details/timing_plot.h"
#include "views/diff/candidate_figures.h"

using namespace crucible;
using namespace crucible::views;

namespace {
using fixture::app;

// Real-shaped figures: a softmax-like kernel profiled on an H200 (the sample project's counters).
Candidate profiled(const fixture::ViewTestProject& project, int generation, std::vector<CandidateId> parents) {
  Candidate c = project.make(generation, std::move(parents), CandidateStatus::Valid, 1.12);
  c.launch.grid[0] = "ceil_div(N, 256)";
  c.launch.block[0] = "256";
  c.compile->registers = 88;
  c.compile->arch = "sm_90";
  c.compile->seconds = 0.047;
  c.compile->features = {{"bar.sync", 14}, {"ld.global.v4", 5}, {"st.global.v4", 3}};
  c.compile->log =
      "ptxas info    : Compiling entry function 'k' for 'sm_90'\n"
      "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 88 registers, used 1 barriers, 1024 bytes smem\n";
  c.timing->medianUs = 7.84;
  c.timing->iqrUs = 0.3;
  c.timing->samplesUs = {7.5, 7.7, 7.84, 8.0, 8.4};
  c.timing->referenceMedianUs = 8.8;
  c.timing->speedup = 8.8 / 7.84;
  c.timing->smClockMHz = 1980;
  c.validation = {{11, true, "", 2.4e-7, 1.1e-6, 0}, {12, true, "", 3.0e-7, 9.5e-7, 0}};
  c.profile = {{"crucible__blocks_per_sm", 5.0},
               {"crucible__fp32_flops", 25361408.0},
               {"crucible__registers_per_thread", 88.0},
               {"crucible__theoretical_occupancy_pct", 37.5},
               {"dram__bytes_read.sum", 4209408.0},
               {"dram__bytes_write.sum", 4283904.0},
               {"gpu__time_duration.sum", 5888.0},
               {"l1tex__t_bytes.sum", 8388608.0},
               {"lts__t_bytes.sum", 13398336.0},
               {"sm__warps_active.avg.pct_of_peak_sustained_active", 11.789050243804136},
               {"smsp__inst_executed_pipe_tensor_op_hmma.sum", 8192.0},
               {"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", 4258816.0},
               {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", 9502720.0},
               {"smsp__sass_thread_inst_executed_op_fmul_pred_on.sum", 2097152.0}};
  return c;
}

void putH200Ceilings(ProjectStore& store) {
  store.putCeiling({"NVIDIA H200", "dram_bw", 4165406619224.84, 4.8e12, "B/s", 1});
  store.putCeiling({"NVIDIA H200", "l2_bw", 7523865214896.11, 0, "B/s", 1});
  store.putCeiling({"NVIDIA H200", "fp32_fma", 60099118741554.3, 6.7e13, "FLOP/s", 1});
}

QString text(const DetailsModel* m, const char* key, int column = 1) { return m->indexOfKey(key, column).data().toString(); }
}  // namespace

TEST(CandidateDetailsView, ShowsEveryStoredFigureWithItsUnit) {
  app();
  fixture::ViewTestProject project;
  putH200Ceilings(project.store());
  const Candidate stored = profiled(project, 1, {});
  const CandidateId id = project.store().addCandidate(stored);
  auto session = project.openSession();
  CandidateDetailsView view(session.get());
  QAbstractItemModelTester tester(view.model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
  view.showCandidate(id);
  const DetailsModel* m = view.model();
  EXPECT_EQ(view.message(), QString());
  ASSERT_EQ(m->candidateCount(), 1);
  EXPECT_EQ(m->headerData(1, Qt::Horizontal).toString(), QStringLiteral("#%1").arg(id));
  for (const char* group : {"Throughput", "Compute", "Occupancy", "Launch", "Compile", "Timing", "Validation", "Other counters"})
    EXPECT_TRUE(m->indexOfGroup(group).isValid()) << group;

  // Throughput: bytes, bandwidth at the median time, % of the measured roofs.
  EXPECT_EQ(text(m, "throughput.dram_read"), QStringLiteral("4.21 MB"));
  EXPECT_EQ(text(m, "throughput.dram_write"), QStringLiteral("4.28 MB"));
  EXPECT_EQ(text(m, "throughput.dram_bytes"), QStringLiteral("8.49 MB"));
  EXPECT_EQ(text(m, "throughput.dram_bandwidth"), QStringLiteral("1.08 TB/s"));
  EXPECT_EQ(text(m, "throughput.dram_roof"), QStringLiteral("26 %"));
  EXPECT_EQ(text(m, "throughput.l2_bytes"), QStringLiteral("13.4 MB"));
  EXPECT_EQ(text(m, "throughput.l2_bandwidth"), QStringLiteral("1.71 TB/s"));
  EXPECT_EQ(text(m, "throughput.l2_roof"), QStringLiteral("22.7 %"));
  EXPECT_EQ(text(m, "throughput.l1_bytes"), QStringLiteral("8.39 MB"));
  EXPECT_EQ(text(m, "throughput.min_bytes"), QStringLiteral("8.39 MB")) << "gelu: 4*N + 4*N";
  EXPECT_EQ(text(m, "throughput.effective_bandwidth"), QStringLiteral("1.07 TB/s"));
  // Compute.
  EXPECT_EQ(text(m, "compute.fp32_flops"), QStringLiteral("25.4 MFLOP"));
  EXPECT_EQ(text(m, "compute.fp32_rate"), QStringLiteral("3.23 TFLOP/s"));
  EXPECT_EQ(text(m, "compute.fp32_roof"), QStringLiteral("5.38 %"));
  EXPECT_EQ(text(m, "compute.task_flops"), QStringLiteral("5.24 MFLOP")) << "gelu: 5*N";
  EXPECT_EQ(text(m, "compute.tensor_use"), QStringLiteral("no"));
  EXPECT_EQ(text(m, "compute.intensity"), QStringLiteral("2.99 FLOP/B"));
  // Occupancy.
  EXPECT_EQ(text(m, "occupancy.achieved"), QStringLiteral("11.8 %"));
  EXPECT_EQ(text(m, "occupancy.theoretical"), QStringLiteral("37.5 %"));
  EXPECT_EQ(text(m, "occupancy.blocks_per_sm"), QStringLiteral("5 blocks"));
  EXPECT_EQ(text(m, "occupancy.warps_per_block"), QStringLiteral("8 warps"));
  EXPECT_TRUE(text(m, "occupancy.limiter").startsWith(QStringLiteral("missing: not stored"))) << text(m, "occupancy.limiter").toStdString();
  // Launch.
  EXPECT_EQ(text(m, "launch.grid"), QStringLiteral("4096 × 1 × 1"));
  EXPECT_EQ(text(m, "launch.block"), QStringLiteral("256 × 1 × 1"));
  EXPECT_EQ(text(m, "launch.blocks"), QStringLiteral("4096 blocks"));
  EXPECT_EQ(text(m, "launch.threads_per_block"), QStringLiteral("256 threads"));
  EXPECT_EQ(text(m, "launch.registers"), QStringLiteral("88 registers"));
  EXPECT_EQ(text(m, "launch.driver_registers"), QStringLiteral("88 registers"));
  EXPECT_EQ(text(m, "launch.static_smem"), QStringLiteral("1.02 KB"));
  EXPECT_EQ(text(m, "launch.spill_stores"), QStringLiteral("0 B"));
  // Compile: the log line by line, the PTX features.
  EXPECT_EQ(text(m, "compile.arch"), QStringLiteral("sm_90"));
  const QModelIndex log = m->indexOfKey("compile.log");
  ASSERT_TRUE(log.isValid());
  ASSERT_EQ(m->rowCount(log.siblingAtColumn(0)), 3);
  EXPECT_TRUE(m->index(2, 1, log.siblingAtColumn(0)).data().toString().contains(QStringLiteral("Used 88 registers")));
  EXPECT_EQ(text(m, "compile.feature.ld.global.v4"), QStringLiteral("5 instructions"));
  EXPECT_EQ(text(m, "compile.feature.bar.sync"), QStringLiteral("14 instructions"));
  // Timing: the median as the diff header and the vault write it.
  EXPECT_EQ(text(m, "timing.median"), QStringLiteral("7.84 µs"));
  EXPECT_TRUE(candidateFigures(stored).contains(text(m, "timing.median"))) << "one figure, one text";
  EXPECT_EQ(text(m, "timing.iqr"), QStringLiteral("0.30 µs"));
  EXPECT_EQ(text(m, "timing.min"), QStringLiteral("7.50 µs"));
  EXPECT_EQ(text(m, "timing.max"), QStringLiteral("8.40 µs"));
  EXPECT_EQ(text(m, "timing.samples"), QStringLiteral("5 launches"));
  EXPECT_EQ(text(m, "timing.speedup"), QStringLiteral("1.12×"));
  EXPECT_EQ(text(m, "timing.reference_median"), QStringLiteral("8.80 µs"));
  EXPECT_EQ(text(m, "timing.sm_clock"), QStringLiteral("1980 MHz"));
  EXPECT_EQ(text(m, "timing.profiled_duration"), QStringLiteral("5.89 µs"));
  // Validation.
  EXPECT_EQ(text(m, "validation.trials"), QStringLiteral("2 trials"));
  EXPECT_EQ(text(m, "validation.passed"), QStringLiteral("2 trials"));
  EXPECT_EQ(text(m, "validation.max_rel_error"), QStringLiteral("1.1e-06"));
  EXPECT_TRUE(text(m, "validation.trial.1").startsWith(QStringLiteral("seed 11: passed")));

  // Every stored counter is shown as it is, in a row that names it.
  for (const auto& [name, value] : stored.profile) {
    bool found = m->indexOfKey("counter." + name).isValid();
    for (int g = 0; g < m->rowCount() && !found; ++g)
      for (int r = 0; r < m->rowCount(m->index(g, 0)) && !found; ++r)
        found = m->index(r, 1, m->index(g, 0)).data(DetailsModel::SourceRole).toString() == QString::fromStdString(name);
    EXPECT_TRUE(found) << name;
  }
  EXPECT_EQ(text(m, "counter.smsp__inst_executed_pipe_tensor_op_hmma.sum"), QStringLiteral("8192 instructions"));
  EXPECT_EQ(text(m, "counter.smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"), QStringLiteral("9502720 instructions"));
  // Every figure carries a unit: no bare numbers but the error ratios.
  for (int g = 0; g < m->rowCount(); ++g)
    for (int r = 0; r < m->rowCount(m->index(g, 0)); ++r) {
      const QModelIndex cell = m->index(r, 1, m->index(g, 0));
      const QString key = m->index(r, 0, m->index(g, 0)).data(DetailsModel::KeyRole).toString();
      if (!cell.data(DetailsModel::ValueRole).isValid() || key.endsWith(QStringLiteral("_error"))) continue;
      EXPECT_FALSE(cell.data(DetailsModel::UnitRole).toString().isEmpty()) << key.toStdString();
    }
  // The source, in its own tab.
  EXPECT_EQ(view.sourceEditor()->text().toStdString(), stored.source);
  EXPECT_TRUE(view.sourceEditor()->isReadOnly());
  view.resize(900, 700);
  EXPECT_FALSE(view.grab().isNull());  // paints the tree and the timing plot
}

TEST(CandidateDetailsView, BaselineShowsTheDifferenceOfEveryNumber) {
  app();
  fixture::ViewTestProject project;
  putH200Ceilings(project.store());
  Candidate base = profiled(project, 1, {});
  const CandidateId baseId = project.store().addCandidate(base);
  Candidate faster = profiled(project, 2, {baseId});
  faster.timing->medianUs = 6.272;  // 20 % faster
  faster.timing->samplesUs = {6.1, 6.272, 6.5};
  faster.profile["dram__bytes_read.sum"] = 4209408.0 / 2;
  faster.compile->registers = 96;
  const CandidateId id = project.store().addCandidate(faster);
  auto session = project.openSession();
  CandidateDetailsView view(session.get());
  QAbstractItemModelTester tester(view.model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
  view.showCandidate(id);
  view.setBaseline(baseId);
  const DetailsModel* m = view.model();
  ASSERT_TRUE(m->hasBaseline());
  EXPECT_EQ(m->headerData(m->baselineColumn(), Qt::Horizontal).toString(), QStringLiteral("Baseline #%1").arg(baseId));
  const int diff = m->differenceColumn();
  EXPECT_EQ(text(m, "timing.median", m->baselineColumn()), QStringLiteral("7.84 µs"));
  EXPECT_EQ(text(m, "timing.median", diff), QStringLiteral("−1.57 µs (−20.0 %)"));
  EXPECT_NEAR(m->indexOfKey("timing.median", diff).data(DetailsModel::DifferenceRole).toDouble(), -1.568, 1e-9);
  EXPECT_NEAR(m->indexOfKey("timing.median", diff).data(DetailsModel::DifferencePercentRole).toDouble(), -20.0, 1e-9);
  EXPECT_EQ(text(m, "throughput.dram_read", diff), QStringLiteral("−2.1 MB (−50.0 %)"));
  EXPECT_EQ(text(m, "launch.registers", diff), QStringLiteral("+8 registers (+9.1 %)"));
  EXPECT_EQ(text(m, "timing.samples", diff), QStringLiteral("−2 launches (−40.0 %)"));
  EXPECT_EQ(text(m, "launch.spill_stores", diff), QStringLiteral("0 B")) << "equal, and no % of 0";
  EXPECT_EQ(text(m, "compile.arch", diff), QString()) << "texts have no difference";
  // Every number present on both sides has its difference.
  for (int g = 0; g < m->rowCount(); ++g)
    for (int r = 0; r < m->rowCount(m->index(g, 0)); ++r) {
      const QModelIndex group = m->index(g, 0);
      if (m->index(r, 1, group).data(DetailsModel::ValueRole).isValid() &&
          m->index(r, m->baselineColumn(), group).data(DetailsModel::ValueRole).isValid()) {
        EXPECT_FALSE(m->index(r, diff, group).data().toString().isEmpty())
            << m->index(r, 0, group).data(DetailsModel::KeyRole).toString().toStdString();
      }
    }
  // The baseline's samples are plotted beside the candidate's.
  ASSERT_EQ(view.timingPlot()->series().size(), 2u);
  EXPECT_EQ(view.timingPlot()->series()[1].label, QStringLiteral("baseline #%1").arg(baseId));
  view.setBaseline(std::nullopt);
  EXPECT_FALSE(m->hasBaseline());
  EXPECT_EQ(m->columnCount(), 2);
}

TEST(CandidateDetailsView, MissingFiguresSayWhy) {
  app();
  fixture::ViewTestProject project;  // no ceilings
  Candidate bare = project.make(0, {}, CandidateStatus::Compiled, 0);
  const CandidateId id = project.store().addCandidate(bare);
  auto session = project.openSession();
  CandidateDetailsView view(session.get());
  QAbstractItemModelTester tester(view.model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
  view.showCandidate(id);
  const DetailsModel* m = view.model();
  EXPECT_EQ(text(m, "throughput.dram_bytes"), QStringLiteral("missing: not profiled"));
  EXPECT_EQ(text(m, "throughput.dram_bandwidth"), QStringLiteral("missing: not profiled"));
  EXPECT_EQ(text(m, "occupancy.achieved"), QStringLiteral("missing: not profiled"));
  EXPECT_EQ(text(m, "timing.median"), QStringLiteral("missing: not timed"));
  EXPECT_EQ(text(m, "validation.trials"), QStringLiteral("missing: not validated"));
  EXPECT_EQ(text(m, "compute.intensity"), QStringLiteral("missing: not timed"));
  EXPECT_EQ(text(m, "compute.task_rate"), QStringLiteral("missing: not timed"));
  EXPECT_EQ(text(m, "compile.log"), QStringLiteral("missing: the compile report has no log"));
  EXPECT_EQ(m->indexOfKey("timing.median", 1).data(DetailsModel::MissingRole).toString(), QStringLiteral("not timed"));
  EXPECT_FALSE(m->indexOfKey("timing.median", 1).data(DetailsModel::ValueRole).isValid());
  EXPECT_FALSE(m->indexOfGroup("Other counters").isValid()) << "no profile, no counters";
  EXPECT_EQ(view.timingPlot()->series().size(), 1u);
  EXPECT_FALSE(view.timingPlot()->range()) << "nothing to plot";

  // Profiled without roofs: the percentages say there are no ceilings.
  Candidate profiledNoRoofs = profiled(project, 1, {id});
  const CandidateId second = project.store().addCandidate(profiledNoRoofs);
  session->notifyDataChanged();
  view.showCandidate(second);
  EXPECT_EQ(text(m, "throughput.dram_roof"), QStringLiteral("missing: no ceilings measured in this project"));
  EXPECT_EQ(text(m, "throughput.dram_bandwidth"), QStringLiteral("1.08 TB/s"));
  // A candidate that is not there.
  view.showCandidate(9999);
  EXPECT_EQ(view.message(), QStringLiteral("Candidate #9999 is not in this project."));
  EXPECT_EQ(m->rowCount(), 0);
  EXPECT_TRUE(view.sourceEditor()->text().isEmpty());
}

TEST(CandidateDetailsView, TimingSamplesBesideTheReferences) {
  app();
  fixture::ViewTestProject project;
  Candidate reference = profiled(project, 0, {});
  reference.status = CandidateStatus::Reference;
  reference.timing->samplesUs = {8.7, 8.8, 8.9, 9.4};
  const CandidateId refId = project.store().addCandidate(reference);
  crucible::Run run = *project.store().run(project.run());
  run.referenceCandidate = refId;
  project.store().updateRun(run);
  const CandidateId id = project.store().addCandidate(profiled(project, 1, {refId}));
  auto session = project.openSession();
  CandidateDetailsView view(session.get());
  session->selectCandidate(id);  // the view follows the selection
  EXPECT_EQ(view.candidate(), id);
  const auto& series = view.timingPlot()->series();
  ASSERT_EQ(series.size(), 2u);
  EXPECT_EQ(series[0].label, QStringLiteral("#%1").arg(id));
  EXPECT_EQ(series[0].samplesUs.size(), 5u);
  ASSERT_TRUE(series[0].markUs);
  EXPECT_DOUBLE_EQ(*series[0].markUs, 8.8) << "the reference median timed beside it";
  EXPECT_EQ(series[1].label, QStringLiteral("reference #%1").arg(refId));
  EXPECT_EQ(series[1].samplesUs, (std::vector<double>{8.7, 8.8, 8.9, 9.4}));
  const auto range = view.timingPlot()->range();
  ASSERT_TRUE(range);
  EXPECT_DOUBLE_EQ(range->first, 7.5);
  EXPECT_DOUBLE_EQ(range->second, 9.4);
  view.timingPlot()->resize(500, 120);
  EXPECT_FALSE(view.timingPlot()->grab().isNull());
}

TEST(DetailsModel, PassesTheModelTesterAcrossChanges) {
  app();
  DetailsModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  DetailGroup g{"Compile", {}};
  DetailRow log;
  log.key = "compile.log";
  log.label = "ptxas log";
  log.textKind = TextKind::LogLines;
  log.counts = {2};
  log.lines = {"a", "b"};
  DetailRow regs;
  regs.key = "launch.registers";
  regs.label = "Registers";
  regs.value = 32;
  regs.unit = "registers";
  g.rows = {log, regs};
  model.setColumns({{1, {g}}, {2, {g}}, {3, {}}});
  EXPECT_EQ(model.columnCount(), 4);
  EXPECT_EQ(model.rowCount(model.indexOfKey("compile.log")), 2);
  EXPECT_EQ(model.indexOfKey("launch.registers", 3).data().toString(), QStringLiteral("missing: not recorded for this candidate"));
  model.setColumns({{1, {g}}}, DetailsModel::Column{2, {}});
  EXPECT_EQ(model.columnCount(), 4);
  model.clearColumns();
  EXPECT_EQ(model.rowCount(), 0);
}

TEST(TimingPlot, OneSlowLaunchDoesNotSqueezeTheAxis) {
  app();
  TimingPlot plot;
  std::vector<double> samples{10.0, 10.1, 10.2, 10.3, 10.4, 10.5, 10.6, 10.7, 48.0};
  plot.setSeries({{QStringLiteral("#1"), samples, 10.9, QStringLiteral("reference median")}, {QStringLiteral("#2"), {}, {}, {}}});
  const auto all = plot.range(), axis = plot.axisRange();
  ASSERT_TRUE(all && axis);
  EXPECT_DOUBLE_EQ(all->second, 48.0) << "every sample";
  EXPECT_DOUBLE_EQ(axis->first, 10.0);
  EXPECT_NEAR(axis->second, 11.8, 1e-9) << "q3 + 3 IQR = 10.6 + 3 * 0.4; the mark at 10.9 inside";
  plot.resize(400, 100);
  EXPECT_FALSE(plot.grab().isNull());
  plot.setSeries({}, QStringLiteral("nothing"));
  EXPECT_FALSE(plot.axisRange());
  EXPECT_EQ(plot.emptyText(), QStringLiteral("nothing"));
}
