// SPDX-License-Identifier: GPL-3.0-or-later
// The main window wired to the engine: Run control starts, steers and shows
// runs through the coordinator; verdicts reach the store; closing the window
// stops a run first. The backends are doubles (no GPU is needed).
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <gtest/gtest.h>
#include <QDeadlineTimer>
#include <QFile>
#include "app/gui/gui_backends.h"
#include "app/gui/run_coordinator.h"
#include "tests/app/engine_doubles.h"
#include "tests/views/models/sample_project.h"
#include "views/mainwindow/main_window.h"
#include "views/review/review_queue_view.h"
#include "views/runcontrol/run_control_view.h"
#include "views/session/project_session.h"

using namespace crucible;

namespace {

QPushButton* button(QWidget* parent, const QString& text) {
  for (QPushButton* b : parent->findChildren<QPushButton*>())
    if (b->text() == text) return b;
  return nullptr;
}

class RunCoordinatorTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.isValid());
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir_.filePath(QStringLiteral("settings")));
    path_ = dir_.filePath(QStringLiteral("wired.crucible"));
    runs_ = test_support::writeSampleProject(path_, {3});
    task_ = ProjectStore::open(path_.toStdString(), ProjectStore::Mode::ReadOnly)->tasks().front().id;
    ASSERT_EQ(window_.tryOpenProject(path_), QString());
    runControl_ = window_.findChild<views::RunControlView*>();
    ASSERT_NE(runControl_, nullptr) << "this build has no Run control view";
  }
  app::EngineBackends backends(const QString& problem = {}) { return {&proposer_, &compiler_, &gpus_, problem}; }
  std::unique_ptr<ProjectStore> readStore() {
    return ProjectStore::open(path_.toStdString(), ProjectStore::Mode::ReadOnly);
  }

  QTemporaryDir dir_;
  QString path_;
  std::vector<RunId> runs_;
  TaskId task_ = 0;
  test_support::NoProposer proposer_;
  test_support::FailingCompiler compiler_;
  test_support::NoGpus gpus_;
  views::MainWindow window_{views::HostInfo{}};
  views::RunControlView* runControl_ = nullptr;
};

TEST_F(RunCoordinatorTest, StartCreatesTheRunAndTheWindowFollowsIt) {
  app::RunCoordinator coordinator(window_, backends(), {});
  ASSERT_NE(coordinator.controller(), nullptr);
  EXPECT_EQ(runControl_->startProblem(), QString());
  QSignalSpy started(coordinator.controller(), &app::EngineController::started);
  QSignalSpy finished(coordinator.controller(), &app::EngineController::finished);
  QPushButton* start = button(runControl_, QStringLiteral("Start"));
  ASSERT_NE(start, nullptr);
  ASSERT_TRUE(start->isEnabled());
  const views::RunRequest request = runControl_->request();
  start->click();
  ASSERT_TRUE(finished.wait(20000)) << "the run did not end";
  ASSERT_EQ(started.count(), 1);
  const RunId run = started.front().front().value<RunId>();

  const auto stored = readStore()->run(run);
  ASSERT_TRUE(stored.has_value()) << "the engine did not create the run in the project";
  EXPECT_EQ(stored->taskId, task_);
  EXPECT_EQ(stored->proposer, "test-none");
  EXPECT_EQ(stored->budget.evaluations, request.budget.evaluations);
  // The window shows the new run: it is current and in the runs table.
  EXPECT_EQ(window_.session()->currentRun(), run);
  EXPECT_EQ(window_.runsTable()->model()->rowCount(), 2);
  // Without GPUs the run fails, and says so; a failed run cannot be resumed.
  EXPECT_EQ(stored->status, RunStatus::Failed);
  EXPECT_TRUE(window_.statusBar()->currentMessage().contains(QStringLiteral("failed")))
      << window_.statusBar()->currentMessage().toStdString();
  // Resume and Start follow the session, which reads the ended run on its reader thread: wait
  // for that read (bounded; under ThreadSanitizer it can take longer than the engine's end).
  const QDeadlineTimer deadline(20000);
  while ((coordinator.resumeAction()->isEnabled() || !start->isEnabled()) && !deadline.hasExpired())
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
  EXPECT_FALSE(coordinator.resumeAction()->isEnabled());
  EXPECT_TRUE(coordinator.resumeProblem().contains(QStringLiteral("failed"))) << coordinator.resumeProblem().toStdString();
  EXPECT_TRUE(start->isEnabled()) << "Start is not offered again after the run ended";
}

TEST_F(RunCoordinatorTest, StartIsRefusedWithTheReasonWhereNothingCanBeEvaluated) {
  app::RunCoordinator coordinator(window_, backends(QStringLiteral("no CUDA driver was found")), {});
  QPushButton* start = button(runControl_, QStringLiteral("Start"));
  ASSERT_NE(start, nullptr);
  EXPECT_FALSE(start->isEnabled());
  EXPECT_TRUE(runControl_->startProblem().contains(QStringLiteral("no CUDA driver was found")));
  bool shown = false;
  for (QLabel* l : runControl_->findChildren<QLabel*>())
    shown = shown || l->text().contains(QStringLiteral("no CUDA driver was found"));
  EXPECT_TRUE(shown) << "the reason is not shown in Run control";
  // A request that gets through anyway (a signal, a script) is refused too.
  QSignalSpy started(coordinator.controller(), &app::EngineController::started);
  coordinator.startRun(runControl_->request());
  QTest::qWait(100);
  EXPECT_EQ(started.count(), 0);
  EXPECT_FALSE(coordinator.isRunning());
  EXPECT_EQ(readStore()->runs().size(), 1u);
}

TEST_F(RunCoordinatorTest, TheRealBackendsWithoutADriverSayWhy) {
  GpuProbe nothing;  // no driver, no GPU
  nothing.message = "No CUDA driver found.";
  app::GuiBackends real(nothing);
  const app::EngineBackends b = real.backends();
  EXPECT_NE(b.proposer, nullptr);
  EXPECT_NE(b.compiler, nullptr);
  EXPECT_NE(b.dispatcher, nullptr);
  EXPECT_FALSE(b.evaluationProblem.isEmpty());
  app::RunCoordinator coordinator(window_, b, {});
  EXPECT_FALSE(button(runControl_, QStringLiteral("Start"))->isEnabled());
  EXPECT_TRUE(runControl_->startProblem().contains(b.evaluationProblem));
}

TEST_F(RunCoordinatorTest, ABuiltinTaskIsImportedIntoTheProjectWhenItsRunStarts) {
  std::vector<std::string> problems;
  std::vector<app::BuiltinTask> builtins = app::builtinTasks(problems);
  EXPECT_TRUE(problems.empty()) << problems.front();
  ASSERT_FALSE(builtins.empty()) << "no built-in task specs found";
  const app::BuiltinTask chosen = builtins.front();
  app::RunCoordinator coordinator(window_, backends(), builtins);
  auto* task = runControl_->findChild<QComboBox*>(QStringLiteral("runTask"));
  ASSERT_NE(task, nullptr);
  const int i = task->findText(QString::fromStdString(chosen.name), Qt::MatchStartsWith);
  ASSERT_GE(i, 0) << "the built-in task is not offered";
  task->setCurrentIndex(i);
  EXPECT_EQ(runControl_->request().task, 0);
  QSignalSpy finished(coordinator.controller(), &app::EngineController::finished);
  button(runControl_, QStringLiteral("Start"))->click();
  ASSERT_TRUE(finished.wait(20000));
  const RunId run = finished.front().front().value<RunId>();
  ASSERT_NE(run, 0) << window_.statusBar()->currentMessage().toStdString();
  auto store = readStore();
  const auto imported = store->taskByName(chosen.name);
  ASSERT_TRUE(imported.has_value()) << "the task was not imported";
  EXPECT_EQ(store->run(run)->taskId, imported->id);
  EXPECT_EQ(store->tasks().size(), 2u);
}

TEST_F(RunCoordinatorTest, ATaskFileIsImportedFromTheFileMenuAndABadOneIsNamed) {
  std::vector<std::string> problems;
  std::vector<app::BuiltinTask> builtins = app::builtinTasks(problems);
  ASSERT_FALSE(builtins.empty()) << "no built-in task specs found";
  app::RunCoordinator coordinator(window_, backends(), {});
  ASSERT_NE(coordinator.importTaskAction(), nullptr);
  EXPECT_EQ(coordinator.importTask(QString::fromStdString(builtins.front().file)), QString());
  EXPECT_TRUE(readStore()->taskByName(builtins.front().name).has_value());

  const QString bad = dir_.filePath(QStringLiteral("bad_task.json"));
  QFile f(bad);
  ASSERT_TRUE(f.open(QIODevice::WriteOnly));
  f.write(R"({"format": 1, "name": "bad"})");
  f.close();
  const QString error = coordinator.importTask(bad);
  EXPECT_TRUE(error.contains(QStringLiteral("bad_task.json"))) << error.toStdString();
  EXPECT_FALSE(readStore()->taskByName("bad").has_value());
  EXPECT_EQ(readStore()->tasks().size(), 2u);
}

TEST_F(RunCoordinatorTest, AVerdictWithoutARunIsStored) {
  app::RunCoordinator coordinator(window_, backends(), {});
  auto* review = window_.findChild<views::ReviewQueueView*>();
  ASSERT_NE(review, nullptr) << "this build has no review queue view";
  emit review->verdictGiven(runs_[0], QStringLiteral("arch-x"), false, QStringLiteral("too many registers"));
  const auto v = readStore()->verdict(runs_[0], "arch-x");
  ASSERT_TRUE(v.has_value());
  EXPECT_FALSE(v->accepted);
  EXPECT_EQ(v->note, "too many registers");
}

TEST_F(RunCoordinatorTest, AStoppedRunIsResumedFromTheFileMenu) {
  {
    auto store = ProjectStore::open(path_.toStdString());
    auto run = *store->run(runs_[0]);
    run.status = RunStatus::Stopped;
    store->updateRun(run);
  }
  window_.session()->notifyDataChanged();
  app::RunCoordinator coordinator(window_, backends(), {});
  ASSERT_EQ(window_.session()->currentRun(), runs_[0]);
  ASSERT_TRUE(coordinator.resumeAction()->isEnabled()) << coordinator.resumeProblem().toStdString();
  QSignalSpy started(coordinator.controller(), &app::EngineController::started);
  QSignalSpy finished(coordinator.controller(), &app::EngineController::finished);
  coordinator.resumeAction()->trigger();
  EXPECT_FALSE(coordinator.resumeAction()->isEnabled()) << "resume offered while the run is in progress";
  ASSERT_TRUE(finished.wait(20000));
  ASSERT_EQ(started.count(), 1);
  EXPECT_EQ(started.front().front().value<RunId>(), runs_[0]);
  EXPECT_EQ(readStore()->runs().size(), 1u) << "resuming created a new run";
}

TEST_F(RunCoordinatorTest, ClosingTheWindowStopsTheRunFirst) {
  app::RunCoordinator coordinator(window_, backends(), {});
  window_.show();
  QSignalSpy finished(coordinator.controller(), &app::EngineController::finished);
  gpus_.hold();
  button(runControl_, QStringLiteral("Start"))->click();
  const bool inProgress = gpus_.waitForCall(std::chrono::seconds(10));
  const bool closed = window_.close();
  const bool visibleWhileStopping = window_.isVisible();
  gpus_.release();
  ASSERT_TRUE(inProgress);
  EXPECT_FALSE(closed) << "the window closed with a run in progress";
  EXPECT_TRUE(visibleWhileStopping);
  EXPECT_TRUE(window_.statusBar()->currentMessage().contains(QStringLiteral("Stopping")));
  ASSERT_TRUE(finished.wait(20000));
  QTRY_VERIFY_WITH_TIMEOUT(!window_.isVisible(), 5000);
  EXPECT_FALSE(coordinator.isRunning());
}

}  // namespace
