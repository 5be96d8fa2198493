// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/roofline/roofline_view.h"

#include <QChart>
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
