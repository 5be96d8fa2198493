// SPDX-License-Identifier: GPL-3.0-or-later
#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QTableView>
#include <QTest>
#include <gtest/gtest.h>
#include <memory>
#include <QMenu>
#include <QSignalSpy>
#include "view_test_project.h"
#include "views/archive/archive_grid.h"
#include "views/archive/archive_grid_model.h"
#include "views/archive/archive_map_view.h"

using namespace crucible;
using namespace crucible::views;
using fixture::app;

TEST(ArchiveGrid, SortsNumericAxesNumerically) {
  EXPECT_EQ(sortAxisValues({"8", "16", "2", "1"}), (std::vector<std::string>{"1", "2", "8", "16"}));
  EXPECT_EQ(sortAxisValues({"smem", "regs", kNoValue, "global"}), (std::vector<std::string>{"global", "regs", "smem", kNoValue}));
}

TEST(ArchiveGrid, FoldsHiddenDimensionsKeepingTheBest) {
  std::vector<ArchiveElite> elites{
      {1, 1.2, {{"vec", "4"}, {"mem", "smem"}, {"tc", "0"}}},
      {2, 1.9, {{"vec", "4"}, {"mem", "smem"}, {"tc", "1"}}},  // same (vec, mem) cell: better
      {3, 0.8, {{"vec", "1"}, {"mem", "regs"}, {"tc", "0"}}},
      {4, 1.1, {{"vec", "2"}, {"tc", "0"}}},                    // no mem value
  };
  EXPECT_EQ(descriptorDimensions(elites), (std::vector<std::string>{"mem", "tc", "vec"}));
  const ArchiveGrid g = buildArchiveGrid(elites, "vec", "mem");
  EXPECT_EQ(g.xValues, (std::vector<std::string>{"1", "2", "4"}));
  EXPECT_EQ(g.yValues, (std::vector<std::string>{"regs", "smem", kNoValue}));
  EXPECT_EQ(g.cells[1][2].elite, 2);
  EXPECT_EQ(g.cells[1][2].folded, 2);
  EXPECT_DOUBLE_EQ(g.cells[1][2].fitness, 1.9);
  EXPECT_EQ(g.cells[0][0].elite, 3);
  EXPECT_EQ(g.cells[2][1].elite, 4);
  EXPECT_EQ(g.cells[0][2].elite, 0) << "empty cell";
  EXPECT_EQ(g.filled, 3);
  EXPECT_DOUBLE_EQ(g.minFitness, 0.8);
  EXPECT_DOUBLE_EQ(g.maxFitness, 1.9);
}

TEST(ArchiveGridModel, PassesTheModelTester) {
  app();
  ArchiveGridModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setGrid(buildArchiveGrid({{1, 1.2, {{"a", "x"}, {"b", "1"}}}, {2, 1.5, {{"a", "y"}, {"b", "2"}}}}, "a", "b"));
  EXPECT_EQ(model.rowCount(), 2);
  EXPECT_EQ(model.columnCount(), 2);
  EXPECT_EQ(model.data(model.index(1, 1), ArchiveGridModel::EliteRole).toLongLong(), 2);
  EXPECT_FALSE(model.data(model.index(0, 1)).isValid()) << "empty cells show nothing";
  EXPECT_EQ(model.headerData(1, Qt::Horizontal).toString(), QStringLiteral("y"));
  EXPECT_EQ(model.indexOfElite(2), model.index(1, 1));
  model.setGrid({});
  EXPECT_EQ(model.rowCount(), 0);
}

TEST(ArchiveMapView, HeatmapAxesAndClickSelects) {
  app();
  fixture::ViewTestProject p;
  auto session0 = p.openSession();
  ArchiveMapView empty(session0.get());
  EXPECT_TRUE(empty.message().contains(QStringLiteral("archive of this run is empty"))) << empty.message().toStdString();

  // make(): descriptor vec = 1 << (gen % 3), mem = gen odd ? smem : regs.
  std::vector<CandidateId> ids;
  for (int gen = 0; gen < 6; ++gen) ids.push_back(p.add(gen, {}, CandidateStatus::Valid, 1.0 + gen / 10.0));
  for (int gen = 0; gen < 6; ++gen) {
    ArchiveCell cell;
    cell.runId = p.run();
    cell.key = "cell" + std::to_string(gen);
    cell.elite = ids[static_cast<std::size_t>(gen)];
    cell.fitness = 1.0 + gen / 10.0;
    p.store().putArchiveCell(cell);
  }
  auto session = p.openSession();
  ArchiveMapView view(session.get());
  view.resize(600, 400);
  view.show();
  EXPECT_TRUE(view.message().isEmpty());
  view.setAxes(QStringLiteral("vec"), QStringLiteral("mem"));
  EXPECT_EQ(view.model()->columnCount(), 3);  // vec 1, 2, 4
  EXPECT_EQ(view.model()->rowCount(), 2);     // regs, smem
  EXPECT_EQ(view.model()->grid().filled, 6);

  view.setAxes(QStringLiteral("mem"), QStringLiteral("mem"));
  EXPECT_EQ(view.model()->grid().filled, 2) << "diagonal of one dimension";

  // Columns = vec only (rows by mem folded into one dimension each): the best per vec value.
  auto* x = view.findChild<QComboBox*>(QStringLiteral("archiveX"));
  auto* y = view.findChild<QComboBox*>(QStringLiteral("archiveY"));
  x->setCurrentIndex(x->findText(QStringLiteral("vec")));
  y->setCurrentIndex(y->findText(QStringLiteral("vec")));
  // vec=4 holds generations 2 and 5: the best is generation 5.
  const QModelIndex best = view.model()->index(2, 2);
  EXPECT_EQ(view.model()->data(best, ArchiveGridModel::EliteRole).toLongLong(), ids[5]);

  auto* table = view.findChild<QTableView*>();
  ASSERT_NE(table, nullptr);
  QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(best).center());
  EXPECT_EQ(session->selectedCandidate(), ids[5]);

  // A cell's elite can be forked into the kernel editor from its context menu.
  QSignalSpy forked(&view, &ArchiveMapView::forkRequested);
  std::unique_ptr<QMenu> menu(view.contextMenuFor(best));
  ASSERT_NE(menu, nullptr);
  ASSERT_EQ(menu->actions().size(), 2);
  menu->actions()[1]->trigger();
  ASSERT_EQ(forked.count(), 1);
  EXPECT_EQ(forked.front().front().value<CandidateId>(), ids[5]);
}
