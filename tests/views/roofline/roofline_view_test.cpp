// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/roofline/roofline_view.h"

#include <QApplication>
#include <QChart>
#include <QLegend>
#include <QValueAxis>
#include "core/task/task_library.h"
#include <QFile>
#include <QFileInfo>
#include <QLineSeries>
#include <QScatterSeries>
#include <QTemporaryDir>
#include <gtest/gtest.h>
#include "view_test_project.h"

using namespace crucible;
using namespace crucible::views;
using fixture::app;

namespace {
CandidateId addProfiled(fixture::ViewTestProject& p, int gen, double flops, double bytes, double speedup,
                        CandidateStatus status = CandidateStatus::Valid) {
  Candidate c = p.make(gen, {}, status, speedup);
  c.profile = {{kSassFadd, 0}, {kSassFmul, 0}, {kSassFfma, flops / 2}, {kDramBytesRead, bytes / 2}, {kDramBytesWrite, bytes / 2}};
  return p.store().addCandidate(c);
}
}  // namespace

TEST(RooflineView, SaysWhatIsMissing) {
  app();
  fixture::ViewTestProject p;
  p.add(0, {}, CandidateStatus::Valid, 1.0);  // timed but never profiled
  auto session = p.openSession();
  RooflineView view(session.get());
  EXPECT_TRUE(view.points().empty());
  EXPECT_TRUE(view.notes().contains(QStringLiteral("No profiled candidates in this run yet"))) << view.notes().toStdString();
  EXPECT_TRUE(view.notes().contains(QStringLiteral("1 not profiled"))) << view.notes().toStdString();
  EXPECT_TRUE(view.notes().contains(QStringLiteral("No measured ceilings"))) << view.notes().toStdString();
}

TEST(RooflineView, PlotsPointsRoofsSelectsAndExports) {
  app();
  fixture::ViewTestProject p;
  const CandidateId a = addProfiled(p, 0, 5e6, 8e6, 1.0, CandidateStatus::Reference);
  const CandidateId b = addProfiled(p, 3, 5e6, 4e6, 2.0);
  p.add(1, {}, CandidateStatus::CompileFailed, 0);
  p.store().putCeiling({"NVIDIA H200", "dram_bw", 4.2e12, 4.8e12, "B/s", 1});
  p.store().putCeiling({"NVIDIA H200", "fp32_fma", 60e12, 67e12, "FLOP/s", 1});
  auto session = p.openSession();
  RooflineView view(session.get());
  view.resize(900, 600);
  view.show();
  ASSERT_EQ(view.points().size(), 2u);
  EXPECT_EQ(view.roofs().size(), 2u);
  // b: 5e6 FLOPs over 4e6 bytes in 100/2 µs.
  const auto& pb = view.points()[1];
  EXPECT_EQ(pb.id, b);
  EXPECT_DOUBLE_EQ(pb.intensity, 1.25);
  EXPECT_DOUBLE_EQ(pb.flopsPerSecond, 5e6 / 50e-6);

  bool roofNamed = false;
  int scatterPoints = 0;
  for (auto* s : view.chart()->series()) {
    if (auto* line = qobject_cast<QLineSeries*>(s); line && s->type() == QAbstractSeries::SeriesTypeLine)
      roofNamed |= line->name().contains(QStringLiteral("DRAM 4.2 TB/s measured (datasheet 4.8 TB/s)"));
    if (auto* sc = qobject_cast<QScatterSeries*>(s); sc && sc->name().startsWith(QStringLiteral("generation")))
      scatterPoints += sc->count();
  }
  EXPECT_TRUE(roofNamed);
  EXPECT_EQ(scatterPoints, 2);

  view.selectPointAt(QPointF(pb.intensity * 1.01, pb.flopsPerSecond));
  EXPECT_EQ(session->selectedCandidate(), b);
  view.selectPointAt(QPointF(1e5, 1));  // far from every point
  EXPECT_EQ(session->selectedCandidate(), b);
  (void)a;

  QTemporaryDir dir;
  const QString svg = dir.filePath(QStringLiteral("roof.svg"));
  const QString png = dir.filePath(QStringLiteral("roof.png"));
  ASSERT_TRUE(view.exportImage(svg));
  ASSERT_TRUE(view.exportImage(png));
  QFile f(svg);
  ASSERT_TRUE(f.open(QIODevice::ReadOnly));
  EXPECT_TRUE(f.readAll().contains("<svg"));
  EXPECT_GT(QFileInfo(png).size(), 1000);
}

TEST(RooflineView, AFlopFreeTaskShowsTheBandwidthViewWithItsPoints) {
  app();
  fixture::ViewTestProject p;
  // A transpose (its flops formula is "0") with a run of its own.
  Task t;
  t.name = "transpose_f32_2048x1024";
  t.family = "transpose";
  t.specJson = readTaskSpecText(CRUCIBLE_SOURCE_DIR "/resources/tasks/transpose_f32_2048x1024.json");
  const TaskId task = p.store().addTask(t);
  crucible::Run r;
  r.taskId = task;
  r.name = "transpose run";
  r.proposer = "template";
  const RunId run = p.store().addRun(r);
  std::vector<CandidateId> ids;
  for (int i = 0; i < 3; ++i) {
    Candidate c = p.make(i, {}, CandidateStatus::Valid, 1.0 + i);  // median 100/(1+i) µs
    c.runId = run;
    // No FLOPs at all; 16 MB of DRAM and 32 MB of L2 traffic.
    c.profile = {{kSassFadd, 0}, {kSassFmul, 0}, {kSassFfma, 0}, {kDramBytesRead, 8e6}, {kDramBytesWrite, 8e6},
                 {kL2Bytes, 32e6}};
    ids.push_back(p.store().addCandidate(c));
  }
  // Two coincide exactly: they must still be told apart.
  Candidate twin = p.make(1, {}, CandidateStatus::Valid, 2.0);
  twin.runId = run;
  twin.profile = {{kDramBytesRead, 8e6}, {kDramBytesWrite, 8e6}, {kL2Bytes, 32e6}};
  const CandidateId twinId = p.store().addCandidate(twin);
  p.store().putCeiling({"NVIDIA H200", "dram_bw", 4e12, 4.8e12, "B/s", 1});
  p.store().putCeiling({"NVIDIA H200", "l2_bw", 8e12, 0, "B/s", 1});
  auto session = p.openSession();
  session->setCurrentRun(run);
  RooflineView view(session.get());
  view.resize(900, 600);
  view.show();
  for (int i = 0; i < 3; ++i) QApplication::processEvents();  // laid out, then the points spread for that size

  EXPECT_EQ(view.mode(), RooflineView::Mode::Bandwidth);
  EXPECT_TRUE(view.points().empty()) << "a FLOP-free task has no roofline point";
  ASSERT_EQ(view.bandwidthPoints().size(), 4u);
  // The first: 16 MB in 100 µs = 160 GB/s = 4% of 4 TB/s; 32 MB = 320 GB/s = 4% of 8 TB/s.
  const BandwidthPoint& first = view.bandwidthPoints().front();
  EXPECT_EQ(first.id, ids[0]);
  EXPECT_DOUBLE_EQ(*first.dramPerSecond, 16e6 / 100e-6);
  int dram = 0, l2 = 0;
  double highest = 0;
  for (auto* s : view.chart()->series())
    if (auto* sc = qobject_cast<QScatterSeries*>(s)) {
      if (sc->name() == QStringLiteral("DRAM")) dram = sc->count();
      if (sc->name() == QStringLiteral("L2")) l2 = sc->count();
      if (sc->name() == QStringLiteral("DRAM"))
        for (const QPointF& pt : sc->points()) highest = std::max(highest, pt.y());
    }
  EXPECT_EQ(dram, 4);
  EXPECT_EQ(l2, 4);
  EXPECT_NEAR(highest, 100.0 * (16e6 / (100e-6 / 3)) / 4e12, 0.5) << "% of the DRAM roof";
  EXPECT_FALSE(view.notes().contains(QStringLiteral("No profiled candidates"))) << view.notes().toStdString();

  // Hovering the twins lists both (the DRAM and L2 points of one kernel coincide too here).
  const auto at = view.markerPosition(ids[1]);
  ASSERT_TRUE(at);
  const QString hover = view.describePointsAt(*at);
  EXPECT_TRUE(hover.contains(QStringLiteral("#%1").arg(twinId))) << hover.toStdString();
  EXPECT_TRUE(hover.contains(QStringLiteral("#%1").arg(ids[1]))) << hover.toStdString();
  EXPECT_TRUE(hover.contains(QStringLiteral("B/s"))) << hover.toStdString();
  EXPECT_NE(*view.markerPosition(twinId), *view.markerPosition(ids[1])) << "coincident points drawn on one another";

  // Wheel zoom, and back.
  EXPECT_FALSE(view.zoomed());
  view.zoomAt(*at, 2.0);
  EXPECT_TRUE(view.zoomed());
  view.resetZoom();
  EXPECT_FALSE(view.zoomed());

  // The roofline of that task has nothing to plot, and says why.
  view.setMode(RooflineView::Mode::Roofline);
  EXPECT_TRUE(view.notes().contains(QStringLiteral("no floating-point work"))) << view.notes().toStdString();
}

TEST(RooflineView, AxesAreInSiUnitsAndTheLegendShowsLineStyles) {
  app();
  fixture::ViewTestProject p;
  addProfiled(p, 0, 5e9, 8e8, 1.0);
  p.store().putCeiling({"NVIDIA H200", "dram_bw", 4.2e12, 4.8e12, "B/s", 1});
  p.store().putCeiling({"NVIDIA H200", "l2_bw", 8e12, 0, "B/s", 1});
  p.store().putCeiling({"NVIDIA H200", "fp32_fma", 60e12, 67e12, "FLOP/s", 1});
  auto session = p.openSession();
  RooflineView view(session.get());
  view.resize(900, 600);
  view.show();
  EXPECT_EQ(view.mode(), RooflineView::Mode::Roofline);
  QStringList titles;
  for (QAbstractAxis* a : view.chart()->axes()) titles << a->titleText();
  EXPECT_TRUE(titles.join(' ').contains(QStringLiteral("TFLOP/s"))) << titles.join(' ').toStdString();
  EXPECT_EQ(view.chart()->legend()->markerShape(), QLegend::MarkerShapeFromSeries);
  bool dashed = false;
  for (auto* s : view.chart()->series())
    if (auto* line = qobject_cast<QLineSeries*>(s); line && s->type() == QAbstractSeries::SeriesTypeLine)
      dashed |= line->pen().style() == Qt::DashLine && line->name().startsWith(QStringLiteral("L2"));
  EXPECT_TRUE(dashed) << "the L2 roof is dashed";
}
