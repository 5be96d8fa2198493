// SPDX-License-Identifier: GPL-3.0-or-later
// The controller runs the engine off the GUI thread and brings its events back
// to the GUI thread. The backends are doubles: a dispatcher without GPUs.
#include <QCoreApplication>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <atomic>
#include <gtest/gtest.h>
#include "app/gui/engine_controller.h"
#include "tests/app/engine_doubles.h"
#include "tests/views/models/sample_project.h"

using namespace crucible;
using crucible::test_support::FailingCompiler;
using crucible::test_support::NoGpus;
using crucible::test_support::NoProposer;

namespace {

class EngineControllerTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.isValid());
    path_ = dir_.filePath(QStringLiteral("engine.crucible"));
    auto store = ProjectStore::create(path_.toStdString());
    task_ = crucible::test_support::addSampleTask(*store);
  }
  QTemporaryDir dir_;
  QString path_;
  TaskId task_ = 0;
  NoProposer proposer_;
  FailingCompiler compiler_;
  NoGpus gpus_;
};

TEST_F(EngineControllerTest, EventsArriveOnTheGuiThreadAndTheRunEnds) {
  app::EngineController controller(path_, proposer_, compiler_, gpus_);
  const RunId run = controller.engine().createRun(task_, "no-gpu", 1, Budget{4, 0, 0}, false, RunSettings{});
  std::atomic<int> offThread{0};
  std::vector<EngineEvent> events;
  QObject::connect(&controller, &app::EngineController::engineEvent, &controller, [&](const EngineEvent& e) {
    if (QThread::currentThread() != qApp->thread()) ++offThread;
    events.push_back(e);
  });
  QSignalSpy finished(&controller, &app::EngineController::finished);
  QSignalSpy refreshed(&controller, &app::EngineController::dataChanged);

  controller.start(run);
  EXPECT_TRUE(controller.isRunning());
  ASSERT_TRUE(finished.wait(20000)) << "the run did not end";
  EXPECT_FALSE(controller.isRunning());
  EXPECT_EQ(finished.front().front().value<RunId>(), run);
  EXPECT_EQ(offThread, 0);
  ASSERT_FALSE(events.empty()) << "the engine raised no event";
  for (const EngineEvent& e : events) EXPECT_EQ(e.run, run) << kindName(e);
  EXPECT_GE(refreshed.count(), 1);
}

TEST_F(EngineControllerTest, ASecondStartWhileRunningIsRefused) {
  app::EngineController controller(path_, proposer_, compiler_, gpus_);
  const RunId run = controller.engine().createRun(task_, "held", 1, Budget{4, 0, 0}, false, RunSettings{});
  gpus_.hold();
  QSignalSpy failed(&controller, &app::EngineController::failed);
  QSignalSpy finished(&controller, &app::EngineController::finished);
  controller.start(run);
  const bool inProgress = gpus_.waitForCall(std::chrono::seconds(10));
  controller.start(run);
  gpus_.release();
  ASSERT_TRUE(inProgress) << "the engine never asked the dispatcher for evaluators";
  ASSERT_EQ(failed.count(), 1);
  EXPECT_TRUE(failed.front().front().toString().contains(QStringLiteral("already")));
  ASSERT_TRUE(finished.wait(20000));
  EXPECT_EQ(finished.count(), 1);
}

TEST_F(EngineControllerTest, AnUnknownRunEndsWithAReason) {
  app::EngineController controller(path_, proposer_, compiler_, gpus_);
  QSignalSpy failed(&controller, &app::EngineController::failed);
  std::vector<EngineEvent> events;
  QObject::connect(&controller, &app::EngineController::engineEvent, &controller,
                   [&](const EngineEvent& e) { events.push_back(e); });
  QSignalSpy finished(&controller, &app::EngineController::finished);
  controller.start(4242);
  ASSERT_TRUE(finished.wait(20000));
  // Either run() refused to start (failed) or the run failed (RunFailed event); both say why.
  const bool refused = failed.count() == 1 && failed.front().front().toString().contains(QStringLiteral("4242"));
  const auto* failure = events.empty() ? nullptr : as<events::RunFailed>(events.back());
  const bool runFailed = failure && !failure->reason.empty();
  EXPECT_TRUE(refused || runFailed);
}

TEST_F(EngineControllerTest, AVerdictWithoutARunIsStored) {
  app::EngineController controller(path_, proposer_, compiler_, gpus_);
  const RunId run = controller.engine().createRun(task_, "gated", 1, Budget{4, 0, 0}, true, RunSettings{});
  controller.submitVerdict(run, QStringLiteral("mem=smem;vec=4"), true, QStringLiteral("looks right"));
  auto store = ProjectStore::open(path_.toStdString(), ProjectStore::Mode::ReadOnly);
  const auto v = store->verdict(run, "mem=smem;vec=4");
  ASSERT_TRUE(v.has_value());
  EXPECT_TRUE(v->accepted);
  EXPECT_EQ(v->note, "looks right");
}

}  // namespace

namespace {

TEST_F(EngineControllerTest, StartNewCreatesTheRunOnTheWorkerAndNamesIt) {
  app::EngineController controller(path_, proposer_, compiler_, gpus_);
  QSignalSpy started(&controller, &app::EngineController::started);
  QSignalSpy finished(&controller, &app::EngineController::finished);
  app::NewRunRequest request;
  request.task = task_;
  request.seed = 99;
  request.budget = Budget{5, 0, 0};
  controller.startNew(request);
  EXPECT_TRUE(controller.isRunning());
  ASSERT_TRUE(finished.wait(20000));
  ASSERT_EQ(started.count(), 1);
  const RunId run = started.front().front().value<RunId>();
  EXPECT_EQ(finished.front().front().value<RunId>(), run);
  auto store = ProjectStore::open(path_.toStdString(), ProjectStore::Mode::ReadOnly);
  const auto stored = store->run(run);
  ASSERT_TRUE(stored.has_value());
  EXPECT_EQ(stored->taskId, task_);
  EXPECT_EQ(stored->seed, 99u);
  EXPECT_EQ(stored->budget.evaluations, 5);
  EXPECT_EQ(stored->name, store->task(task_)->name);  // no name given: the task's
}

TEST_F(EngineControllerTest, StartNewWithAMissingTaskFileFailsNamingIt) {
  app::EngineController controller(path_, proposer_, compiler_, gpus_);
  QSignalSpy started(&controller, &app::EngineController::started);
  QSignalSpy failed(&controller, &app::EngineController::failed);
  QSignalSpy finished(&controller, &app::EngineController::finished);
  app::NewRunRequest request;
  request.taskFile = dir_.filePath(QStringLiteral("no-such-task.json")).toStdString();
  controller.startNew(request);
  ASSERT_TRUE(finished.wait(20000));
  EXPECT_EQ(started.count(), 0);
  EXPECT_EQ(finished.front().front().value<RunId>(), 0);
  ASSERT_EQ(failed.count(), 1);
  EXPECT_TRUE(failed.front().front().toString().contains(QStringLiteral("no-such-task.json")))
      << failed.front().front().toString().toStdString();
  EXPECT_TRUE(ProjectStore::open(path_.toStdString(), ProjectStore::Mode::ReadOnly)->runs().empty());
}

}  // namespace
