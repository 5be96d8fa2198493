// SPDX-License-Identifier: GPL-3.0-or-later
// The comparison of stored candidates: a column of figures each (the same
// texts as the details view), their timing samples on one axis, the source
// diff of the first two.
#include "views/compare/compare_view.h"

#include <QAbstractItemModelTester>
#include <QTabWidget>
#include <gtest/gtest.h>
#include "view_test_project.h"
#include "views/details/candidate_details_view.h"
#include "views/details/details_model.h"
#include "views/details/timing_plot.h"
#include "views/diff/side_by_side_diff.h"

using namespace crucible;
using namespace crucible::views;

namespace {
using fixture::app;

Candidate withProfile(const fixture::ViewTestProject& project, int generation, std::vector<CandidateId> parents,
                      double speedup, double dramRead, const std::string& source) {
  Candidate c = project.make(generation, std::move(parents), CandidateStatus::Valid, speedup, source);
  c.timing->samplesUs = {c.timing->medianUs * 0.98, c.timing->medianUs, c.timing->medianUs * 1.05};
  c.profile = {{"dram__bytes_read.sum", dramRead}, {"dram__bytes_write.sum", 4194304.0},
               {"sm__warps_active.avg.pct_of_peak_sustained_active", 60.0 + generation}};
  return c;
}

const std::string kLeft = "__global__ void k(float* y) {\n  y[0] = 1.0f;\n}\n";
const std::string kRight = "__global__ void k(float* y) {\n  y[0] = 2.0f;\n  y[1] = 3.0f;\n}\n";
}  // namespace

TEST(CompareView, TwoCandidatesSideBySideWithTheirDiff) {
  app();
  fixture::ViewTestProject project;
  project.store().putCeiling({"NVIDIA H200", "dram_bw", 4.0e12, 4.8e12, "B/s", 1});
  const CandidateId a = project.store().addCandidate(withProfile(project, 1, {}, 1.0, 4194304.0, kLeft));
  const CandidateId b = project.store().addCandidate(withProfile(project, 2, {a}, 1.25, 2097152.0, kRight));
  auto session = project.openSession();
  CompareView view(session.get());
  QAbstractItemModelTester tester(view.model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
  EXPECT_EQ(view.message(), QStringLiteral("Select two or more candidates to compare them."));
  view.compare({a, b});
  EXPECT_EQ(view.message(), QString());
  const DetailsModel* m = view.model();
  ASSERT_EQ(m->candidateCount(), 2);
  EXPECT_EQ(m->columnCount(), 3);
  EXPECT_EQ(m->headerData(1, Qt::Horizontal).toString(), QStringLiteral("#%1").arg(a));
  EXPECT_EQ(m->headerData(2, Qt::Horizontal).toString(), QStringLiteral("#%1").arg(b));
  EXPECT_EQ(m->indexOfKey("throughput.dram_read", 1).data().toString(), QStringLiteral("4.19 MB"));
  EXPECT_EQ(m->indexOfKey("throughput.dram_read", 2).data().toString(), QStringLiteral("2.1 MB"));
  EXPECT_EQ(m->indexOfKey("timing.median", 1).data().toString(), QStringLiteral("100.0 µs"));
  EXPECT_EQ(m->indexOfKey("timing.median", 2).data().toString(), QStringLiteral("80.0 µs"));
  // The second column's difference against the first.
  EXPECT_NEAR(m->indexOfKey("timing.median", 2).data(DetailsModel::DifferencePercentRole).toDouble(), -20.0, 1e-9);
  EXPECT_TRUE(m->indexOfKey("timing.median", 2).data(Qt::ToolTipRole).toString().contains(
      QStringLiteral("−20.0 µs (−20.0 %) against #%1").arg(a)));

  // The same figure as the details view shows, row for row.
  CandidateDetailsView details(session.get());
  details.showCandidate(b);
  int compared = 0;
  const DetailsModel* dm = details.model();
  for (int g = 0; g < dm->rowCount(); ++g)
    for (int r = 0; r < dm->rowCount(dm->index(g, 0)); ++r) {
      const std::string key = dm->index(r, 0, dm->index(g, 0)).data(DetailsModel::KeyRole).toString().toStdString();
      EXPECT_EQ(m->indexOfKey(key, 2).data().toString(), dm->index(r, 1, dm->index(g, 0)).data().toString()) << key;
      ++compared;
    }
  EXPECT_GT(compared, 40);

  // Both timing distributions on one axis.
  ASSERT_EQ(view.timingPlot()->series().size(), 2u);
  EXPECT_EQ(view.timingPlot()->series()[0].samplesUs.size(), 3u);
  EXPECT_EQ(view.timingPlot()->series()[1].label, QStringLiteral("#%1").arg(b));
  // The source diff of the two, in the diff view's widget.
  const SideBySideDiff* diff = view.diffWidget();
  EXPECT_EQ(diff->changeCount(), 1) << "one changed line and one added line make one change";
  EXPECT_GE(diff->diff().rows.size(), 4u);
  view.resize(1000, 700);
  view.tabs()->setCurrentIndex(1);
  EXPECT_FALSE(view.grab().isNull());
}

TEST(CompareView, SaysWhatItCannotCompare) {
  app();
  fixture::ViewTestProject project;
  const CandidateId a = project.add(1, {}, CandidateStatus::Valid, 1.0, kLeft);
  auto session = project.openSession();
  CompareView view(session.get());
  view.compare({a, a});
  EXPECT_EQ(view.candidates().size(), 1u) << "a duplicate is dropped";
  EXPECT_EQ(view.message(), QStringLiteral("Select at least two candidates to compare them."));
  EXPECT_EQ(view.diffWidget()->changeCount(), 0);
  view.compare({a, 777});
  EXPECT_EQ(view.message(), QStringLiteral("Candidate #777 is not in this project. Select at least two candidates to compare them."));
  EXPECT_EQ(view.model()->candidateCount(), 1);

  std::vector<CandidateId> many;
  for (int i = 0; i < 10; ++i) many.push_back(project.add(2 + i, {a}, CandidateStatus::Valid, 1.0 + i * 0.1));
  view.compare(many);
  EXPECT_EQ(view.candidates().size(), static_cast<std::size_t>(CompareView::kMaxCandidates));
  EXPECT_EQ(view.model()->candidateCount(), CompareView::kMaxCandidates);
  EXPECT_TRUE(view.message().startsWith(QStringLiteral("10 candidates chosen: the first 8 are compared.")));
  EXPECT_EQ(view.timingPlot()->series().size(), 8u);
  session->close();
  EXPECT_EQ(view.message(), QStringLiteral("No project open."));
  EXPECT_TRUE(view.candidates().empty());
}
