// SPDX-License-Identifier: GPL-3.0-or-later
#include <QAbstractItemModelTester>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <gtest/gtest.h>
#include <algorithm>
#include "tests/views/models/sample_project.h"
#include "views/models/candidates_model.h"
#include "views/models/model_roles.h"
#include "views/models/runs_model.h"
#include "views/models/status_filter_proxy.h"
#include "views/session/project_session.h"

using namespace crucible;
using namespace crucible::views;
using crucible::test_support::addSampleCandidates;
using crucible::test_support::writeSampleProject;
using Tester = QAbstractItemModelTester;

namespace {

class ModelsTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.isValid());
    path_ = dir_.filePath(QStringLiteral("sample.crucible"));
    runs_ = writeSampleProject(path_, {7, 14, 3});
    session_.open(path_);
  }
  QString cell(const QAbstractItemModel& m, int row, int column, int role = Qt::DisplayRole) {
    return m.index(row, column).data(role).toString();
  }

  QTemporaryDir dir_;
  QString path_;
  std::vector<RunId> runs_;
  ProjectSession session_;
};

TEST_F(ModelsTest, RunsModelShowsEveryRun) {
  RunsModel model(&session_);
  Tester tester(&model, Tester::FailureReportingMode::Fatal);
  ASSERT_EQ(model.rowCount(), 3);
  EXPECT_EQ(model.columnCount(), RunsModel::ColumnCount);
  for (int row = 0; row < 3; ++row) {
    EXPECT_EQ(model.index(row, RunsModel::Id).data(IdRole).toLongLong(), runs_[static_cast<std::size_t>(row)]);
    EXPECT_EQ(cell(model, row, RunsModel::Name), QStringLiteral("run-%1").arg(row + 1));
    EXPECT_EQ(cell(model, row, RunsModel::Task), QStringLiteral("softmax_f32_8192x4096"));
    EXPECT_EQ(cell(model, row, RunsModel::Status), QStringLiteral("created"));
  }
}

TEST_F(ModelsTest, CandidatesModelFollowsTheCurrentRun) {
  CandidatesModel model(&session_);
  Tester tester(&model, Tester::FailureReportingMode::Fatal);
  // Opening selects the newest run.
  EXPECT_EQ(session_.currentRun(), runs_[2]);
  EXPECT_EQ(model.rowCount(), 3);
  session_.setCurrentRun(runs_[1]);
  ASSERT_EQ(model.rowCount(), 14);
  // Row 1 is the second sample candidate: valid, 9.5 us, 1.30x, 128 registers, arch-b by mutate:vec.
  EXPECT_EQ(cell(model, 1, CandidatesModel::Status), QStringLiteral("valid"));
  EXPECT_EQ(cell(model, 1, CandidatesModel::Architecture), QStringLiteral("arch-b"));
  EXPECT_EQ(cell(model, 1, CandidatesModel::Proposer), QStringLiteral("template / mutate:vec"));
  EXPECT_EQ(cell(model, 1, CandidatesModel::MedianUs), QStringLiteral("9.50"));
  EXPECT_EQ(cell(model, 1, CandidatesModel::Speedup), QStringLiteral("1.300×"));
  EXPECT_EQ(cell(model, 1, CandidatesModel::Registers), QStringLiteral("128"));
  // Row 3 never compiled: no figures rather than zeros.
  EXPECT_EQ(cell(model, 3, CandidatesModel::Status), QStringLiteral("compile-failed"));
  EXPECT_TRUE(cell(model, 3, CandidatesModel::MedianUs).isEmpty());
  EXPECT_TRUE(cell(model, 3, CandidatesModel::Registers).isEmpty());
  const CandidateId id = model.index(5, 0).data(IdRole).toLongLong();
  EXPECT_EQ(model.rowOf(id), 5);
  session_.close();
  EXPECT_EQ(model.rowCount(), 0);
}

TEST_F(ModelsTest, RefreshAppendsNewCandidatesAndUpdatesChangedOnesWithoutReset) {
  CandidatesModel model(&session_);
  StatusFilterProxy proxy;
  proxy.setSourceModel(&model);
  proxy.sort(CandidatesModel::MedianUs, Qt::DescendingOrder);
  Tester tester(&model, Tester::FailureReportingMode::Fatal);
  Tester proxyTester(&proxy, Tester::FailureReportingMode::Fatal);
  ASSERT_EQ(model.rowCount(), 3);
  QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
  QSignalSpy inserts(&model, &QAbstractItemModel::rowsInserted);
  QSignalSpy changes(&model, &QAbstractItemModel::dataChanged);

  {  // The engine writes through its own connection.
    auto writer = ProjectStore::open(path_.toStdString());
    addSampleCandidates(*writer, runs_[2], 5, 3);
    Candidate first = *writer->candidate(model.index(0, 0).data(IdRole).toLongLong());
    first.status = CandidateStatus::Faulted;
    first.timing.reset();
    writer->updateCandidate(first);
  }
  session_.notifyDataChanged();

  EXPECT_EQ(resets.count(), 0);
  EXPECT_EQ(inserts.count(), 1);
  EXPECT_GE(changes.count(), 1);
  ASSERT_EQ(model.rowCount(), 8);
  EXPECT_EQ(cell(model, 0, CandidatesModel::Status), QStringLiteral("faulted"));
  EXPECT_EQ(proxy.rowCount(), 8);

  // Nothing changed: nothing is announced.
  changes.clear();
  session_.notifyDataChanged();
  EXPECT_EQ(changes.count(), 0);
  EXPECT_EQ(resets.count(), 0);
}

TEST_F(ModelsTest, RunsModelRefreshAppendsNewRuns) {
  RunsModel model(&session_);
  Tester tester(&model, Tester::FailureReportingMode::Fatal);
  QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
  {
    auto writer = ProjectStore::open(path_.toStdString());
    crucible::Run r = *writer->run(runs_[0]);
    r.status = RunStatus::Running;
    r.evaluationsDone = 12;
    writer->updateRun(r);
    crucible::test_support::addSampleRun(*writer, r.taskId, "run-4");
  }
  session_.notifyDataChanged();
  EXPECT_EQ(resets.count(), 0);
  ASSERT_EQ(model.rowCount(), 4);
  EXPECT_EQ(cell(model, 0, RunsModel::Status), QStringLiteral("running"));
  EXPECT_EQ(cell(model, 0, RunsModel::Evaluations), QStringLiteral("12"));
  EXPECT_EQ(cell(model, 3, RunsModel::Name), QStringLiteral("run-4"));
}

TEST_F(ModelsTest, NumericColumnsSortAsNumbers) {
  session_.setCurrentRun(runs_[1]);
  CandidatesModel model(&session_);
  StatusFilterProxy proxy;
  proxy.setSourceModel(&model);
  Tester tester(&proxy, Tester::FailureReportingMode::Fatal);

  proxy.sort(CandidatesModel::MedianUs, Qt::AscendingOrder);
  std::vector<double> medians;
  for (int row = 0; row < proxy.rowCount(); ++row)
    medians.push_back(proxy.index(row, CandidatesModel::MedianUs).data(SortRole).toDouble());
  EXPECT_TRUE(std::is_sorted(medians.begin(), medians.end()));
  // Text order would put "10.25" before "9.50"; numeric order the other way round.
  auto position = [&](double v) { return std::find(medians.begin(), medians.end(), v) - medians.begin(); };
  EXPECT_LT(position(9.5), position(10.25));
  EXPECT_LT(position(10.25), position(100.0));

  proxy.sort(CandidatesModel::Registers, Qt::DescendingOrder);
  EXPECT_EQ(cell(proxy, 0, CandidatesModel::Registers), QStringLiteral("255"));
  proxy.sort(CandidatesModel::Id, Qt::DescendingOrder);
  for (int row = 1; row < proxy.rowCount(); ++row)
    EXPECT_GT(proxy.index(row - 1, 0).data(IdRole).toLongLong(), proxy.index(row, 0).data(IdRole).toLongLong());
}

TEST_F(ModelsTest, FiltersByStatusAndText) {
  session_.setCurrentRun(runs_[1]);  // 14 candidates: two cycles of the 7 samples
  CandidatesModel model(&session_);
  StatusFilterProxy proxy;
  proxy.setSourceModel(&model);
  Tester tester(&proxy, Tester::FailureReportingMode::Fatal);
  ASSERT_EQ(proxy.rowCount(), 14);

  proxy.setStatusFilter(QStringLiteral("valid"));
  EXPECT_EQ(proxy.rowCount(), 8);
  for (int row = 0; row < proxy.rowCount(); ++row)
    EXPECT_EQ(cell(proxy, row, CandidatesModel::Status), QStringLiteral("valid"));

  proxy.setTextFilter(QStringLiteral("ARCH-B"));  // case-insensitive, any column
  EXPECT_EQ(proxy.rowCount(), 4);
  proxy.setStatusFilter(QString());
  EXPECT_EQ(proxy.rowCount(), 4);
  proxy.setTextFilter(QStringLiteral("crossover"));
  EXPECT_EQ(proxy.rowCount(), 2);
  proxy.setTextFilter(QStringLiteral("no such text"));
  EXPECT_EQ(proxy.rowCount(), 0);
  proxy.setTextFilter(QString());
  EXPECT_EQ(proxy.rowCount(), 14);
}

TEST_F(ModelsTest, RunsFilterByStatus) {
  RunsModel model(&session_);
  StatusFilterProxy proxy;
  proxy.setSourceModel(&model);
  Tester tester(&proxy, Tester::FailureReportingMode::Fatal);
  proxy.setStatusFilter(QStringLiteral("running"));
  EXPECT_EQ(proxy.rowCount(), 0);
  proxy.setStatusFilter(QStringLiteral("created"));
  EXPECT_EQ(proxy.rowCount(), 3);
  proxy.setTextFilter(QStringLiteral("run-2"));
  EXPECT_EQ(proxy.rowCount(), 1);
}

// 10,000+ candidates: loading, sorting, filtering and an incremental refresh
// stay interactive. The bound is loose (a slow shared CI machine) but an
// accidentally quadratic model blows far past it.
TEST_F(ModelsTest, TenThousandCandidatesStayFast) {
  {
    auto writer = ProjectStore::open(path_.toStdString());
    addSampleCandidates(*writer, runs_[0], 12000, 7);
  }
  QElapsedTimer timer;
  timer.start();
  session_.setCurrentRun(runs_[0]);
  CandidatesModel model(&session_);
  StatusFilterProxy proxy;
  proxy.setSourceModel(&model);
  ASSERT_EQ(model.rowCount(), 12007);
  proxy.sort(CandidatesModel::Speedup, Qt::DescendingOrder);
  EXPECT_EQ(cell(proxy, 0, CandidatesModel::Speedup), QStringLiteral("6.150×"));
  proxy.setStatusFilter(QStringLiteral("faulted"));
  proxy.setTextFilter(QStringLiteral("rewrite"));
  EXPECT_GT(proxy.rowCount(), 1700);
  {
    auto writer = ProjectStore::open(path_.toStdString());
    addSampleCandidates(*writer, runs_[0], 100, 12007);
  }
  QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
  session_.notifyDataChanged();
  EXPECT_EQ(resets.count(), 0);
  EXPECT_EQ(model.rowCount(), 12107);
  EXPECT_LT(timer.elapsed(), 5000) << "load, sort, filter and refresh of 12,000 candidates took " << timer.elapsed()
                                   << " ms";
}

}  // namespace
