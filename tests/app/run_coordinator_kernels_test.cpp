// SPDX-License-Identifier: GPL-3.0-or-later
// Starting kernels in the GUI (issue 16): Run control's "Add starting
// kernel..." list, checked against the chosen task off the GUI thread, and
// the coordinator starting the run with the proposer crucible-cli makes
// (the starting kernels' tunable proposer beside the template proposer). A
// gemv task at a small shape has no template family: the user's kernels are
// the run's first candidates. The engine runs on the engine tests' fake
// compiler and GPU (no GPU is needed). A kernel of the user's own as the
// run's reference (issue 22, Run control's "Reference kernel...") is checked
// the same way and recorded with the run.
// Backends' headers before any Qt header (app/gui/gui_backends.cpp says why).
#include "backends/proposers/template/template_proposer.h"
#include "core/engine/user_reference.h"
#include "core/store/project_store.h"
#include "tests/core/engine/doubles/fake_backends.h"
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <gtest/gtest.h>
#include "app/gui/gui_backends.h"
#include "app/gui/run_coordinator.h"
#include "app/gui/task_import.h"
#include "views/mainwindow/main_window.h"
#include "views/runcontrol/run_control_view.h"

using namespace crucible;

namespace {

QString example(const QString& name) {
  QFile f(QStringLiteral(CRUCIBLE_SOURCE_DIR "/resources/kernels/gemv/") + name);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return QString::fromUtf8(f.readAll());
}

class StartingKernelsInTheGui : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.isValid());
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir_.filePath(QStringLiteral("settings")));
    // The example gemv task at a small shape, as a user would write it.
    QString spec = example(QStringLiteral("gemv_f32_8192x8192.json"));
    ASSERT_TRUE(spec.contains(QStringLiteral("\"M\": 8192"))) << "the example task changed";
    spec.replace(QStringLiteral("gemv_f32_8192x8192"), QStringLiteral("gemv_f32_256x512"))
        .replace(QStringLiteral("\"M\": 8192"), QStringLiteral("\"M\": 256"))
        .replace(QStringLiteral("\"K\": 8192"), QStringLiteral("\"K\": 512"));
    const QString taskFile = write(QStringLiteral("gemv_small.json"), spec);
    path_ = dir_.filePath(QStringLiteral("kernels.crucible"));
    {
      auto store = ProjectStore::create(path_.toStdString());
      task_ = app::importTaskFile(*store, taskFile.toStdString());
    }
    ASSERT_EQ(window_.tryOpenProject(path_), QString());
    runControl_ = window_.findChild<views::RunControlView*>();
    ASSERT_NE(runControl_, nullptr) << "this build has no Run control view";
  }
  QString write(const QString& name, const QString& text) {
    const QString path = dir_.filePath(name);
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    EXPECT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(text.toUtf8());
    return path;
  }
  // A copy of the example kernel as `stem`.cu with its tune file beside it.
  QString kernel(const QString& stem, const QString& source = example(QStringLiteral("gemv.cu"))) {
    write(stem + QStringLiteral(".tune.json"), example(QStringLiteral("gemv.tune.json")));
    return write(stem + QStringLiteral(".cu"), source);
  }
  bool waitForChecks() {
    for (int i = 0; i < 400 && runControl_->checkingStartingKernels(); ++i) QTest::qWait(25);
    return !runControl_->checkingStartingKernels();
  }
  QPushButton* start() {
    for (QPushButton* b : runControl_->findChildren<QPushButton*>())
      if (b->text() == QStringLiteral("Start")) return b;
    return nullptr;
  }
  app::EngineBackends backends() { return {&templates_, &compiler_, &gpus_, {}}; }
  std::unique_ptr<ProjectStore> readStore() {
    return ProjectStore::open(path_.toStdString(), ProjectStore::Mode::ReadOnly);
  }

  QTemporaryDir dir_;
  QString path_;
  TaskId task_ = 0;
  TemplateProposer templates_;   // the app's kernel writer: it has no family for a gemv
  crucible::testing::FakeCompiler compiler_;
  crucible::testing::FakeDispatcher gpus_{1};
  views::MainWindow window_{views::HostInfo{}};
  views::RunControlView* runControl_ = nullptr;
};

TEST_F(StartingKernelsInTheGui, TwoStartingKernelsAreTheRunsFirstCandidates) {
  app::RunCoordinator coordinator(window_, backends(), {});
  ASSERT_EQ(runControl_->request().task, task_);
  auto* add = runControl_->findChild<QPushButton*>(QStringLiteral("addStartingKernel"));
  ASSERT_NE(add, nullptr);
  EXPECT_TRUE(add->isEnabled()) << "the app gave Run control no way to check starting kernels";
  runControl_->addStartingKernel(kernel(QStringLiteral("gemv")));
  // The second one's launch rule is in a crucible-tune comment, as the CLI would find it too.
  runControl_->addStartingKernel(write(
      QStringLiteral("wide/gemv_wide.cu"),
      QStringLiteral("/* crucible-tune {\"parameters\": {\"UNROLL\": [1, 2, 4]}, \"launch\": {\"grid\": [\"ceil_div(M, 8)\"],"
                     " \"block\": [64, 8]}} */\n#define ROWS 8\n#define THREADS_PER_ROW 64\n#define VEC 4\n") +
          example(QStringLiteral("gemv.cu"))));
  EXPECT_FALSE(start()->isEnabled()) << "Start offered before the kernels were checked";
  ASSERT_TRUE(waitForChecks());
  const auto checks = runControl_->startingKernelChecks();
  ASSERT_EQ(checks.size(), 2);
  EXPECT_EQ(checks[0].name, QStringLiteral("gemv"));
  EXPECT_EQ(checks[0].problem, QString()) << checks[0].problem.toStdString();
  EXPECT_EQ(checks[1].name, QStringLiteral("gemv_wide"));
  EXPECT_EQ(checks[1].problem, QString()) << checks[1].problem.toStdString();
  auto* list = runControl_->findChild<QListWidget*>(QStringLiteral("startingKernels"));
  ASSERT_NE(list, nullptr);
  ASSERT_EQ(list->count(), 2);
  EXPECT_TRUE(list->item(0)->text().contains(QStringLiteral("gemv: fits the task"))) << list->item(0)->text().toStdString();
  EXPECT_EQ(runControl_->request().startingKernels.size(), 2);

  runControl_->findChild<QSpinBox*>()->setValue(8);   // evaluations
  ASSERT_TRUE(start()->isEnabled()) << runControl_->startProblem().toStdString();
  QSignalSpy finished(coordinator.controller(), &app::EngineController::finished);
  start()->click();
  ASSERT_TRUE(finished.wait(60000)) << "the run did not end";
  const RunId run = finished.front().front().value<RunId>();
  ASSERT_NE(run, 0) << window_.statusBar()->currentMessage().toStdString();

  auto store = readStore();
  const auto stored = store->run(run);
  ASSERT_TRUE(stored.has_value());
  EXPECT_EQ(stored->proposer, "tunable+template");
  EXPECT_EQ(stored->evaluationsDone, 8);
  std::vector<Candidate> candidates;
  for (const auto& s : store->candidateSummaries(run))
    if (s.status != CandidateStatus::Reference) candidates.push_back(*store->candidate(s.id));
  ASSERT_GE(candidates.size(), 8u);
  // The starting kernels first, in the order they were added, each at its starting point; then their tuning.
  EXPECT_EQ(candidates[0].proposer, "user");
  EXPECT_EQ(candidates[0].architectureKey.rfind("tunable:gemv@", 0), 0u) << candidates[0].architectureKey;
  EXPECT_EQ(candidates[1].proposer, "user");
  EXPECT_EQ(candidates[1].architectureKey.rfind("tunable:gemv_wide@", 0), 0u) << candidates[1].architectureKey;
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(candidates[i].generation, 0);
    EXPECT_EQ(candidates[i].status, CandidateStatus::Valid) << "#" << candidates[i].id << " " << candidates[i].statusDetail;
  }
  for (std::size_t i = 2; i < candidates.size(); ++i)
    EXPECT_EQ(candidates[i].proposer, "tunable") << "#" << candidates[i].id;
  // The template proposer's missing family is said in the run's log, not hidden.
  bool said = false;
  for (const auto& line : store->log(run)) said = said || line.text.find("proposer 'template'") != std::string::npos;
  EXPECT_TRUE(said);
}

TEST_F(StartingKernelsInTheGui, AKernelWithTheWrongSignatureIsRefusedBeforeTheRunStarts) {
  app::RunCoordinator coordinator(window_, backends(), {});
  runControl_->addStartingKernel(kernel(QStringLiteral("gemv")));
  QString wrong = example(QStringLiteral("gemv.cu"));
  ASSERT_TRUE(wrong.contains(QStringLiteral("float* __restrict__ y")));
  wrong.replace(QStringLiteral("float* __restrict__ y"), QStringLiteral("double* __restrict__ y"));
  runControl_->addStartingKernel(kernel(QStringLiteral("gemv_double"), wrong));
  ASSERT_TRUE(waitForChecks());
  const auto checks = runControl_->startingKernelChecks();
  ASSERT_EQ(checks.size(), 2);
  EXPECT_EQ(checks[0].problem, QString()) << checks[0].problem.toStdString();
  const QString why = checks[1].problem;
  EXPECT_TRUE(why.contains(QStringLiteral("kernel 'gemv_double'")) && why.contains(QStringLiteral("does not fit task")) &&
              why.contains(QStringLiteral("parameter 3")))
      << why.toStdString();
  // Start is refused with the reason, shown in Run control.
  EXPECT_FALSE(start()->isEnabled());
  EXPECT_TRUE(runControl_->startProblem().contains(why)) << runControl_->startProblem().toStdString();
  bool shown = false;
  for (QLabel* l : runControl_->findChildren<QLabel*>()) shown = shown || l->text().contains(why);
  EXPECT_TRUE(shown) << "the reason is not shown in Run control";
  // A request that gets through anyway is refused by the coordinator too: no run is created.
  QSignalSpy started(coordinator.controller(), &app::EngineController::started);
  coordinator.startRun(runControl_->request());
  QTest::qWait(100);
  EXPECT_EQ(started.count(), 0);
  EXPECT_TRUE(readStore()->runs().empty());
  EXPECT_TRUE(window_.statusBar()->currentMessage().contains(QStringLiteral("gemv_double")))
      << window_.statusBar()->currentMessage().toStdString();
  // Removed, the other one may start the run.
  runControl_->removeStartingKernel(1);
  ASSERT_TRUE(waitForChecks());
  EXPECT_EQ(runControl_->startingKernelChecks().size(), 1);
  EXPECT_TRUE(start()->isEnabled()) << runControl_->startProblem().toStdString();
}

TEST_F(StartingKernelsInTheGui, AReferenceKernelIsRecordedAsTheRunsReference) {
  app::RunCoordinator coordinator(window_, backends(), {});
  auto* choose = runControl_->findChild<QPushButton*>(QStringLiteral("referenceKernel"));
  ASSERT_NE(choose, nullptr) << "Run control offers no \"Reference kernel...\"";
  EXPECT_TRUE(choose->isEnabled());
  auto* state = runControl_->findChild<QLabel*>(QStringLiteral("referenceKernelState"));
  ASSERT_NE(state, nullptr);
  EXPECT_TRUE(state->text().contains(QStringLiteral("baseline"))) << state->text().toStdString();
  runControl_->addStartingKernel(kernel(QStringLiteral("gemv")));
  runControl_->setReferenceKernel(kernel(QStringLiteral("gemv_ref")));
  EXPECT_FALSE(start()->isEnabled()) << "Start offered before the reference was checked";
  ASSERT_TRUE(waitForChecks());
  ASSERT_TRUE(runControl_->referenceKernelCheck().has_value());
  EXPECT_EQ(runControl_->referenceKernelCheck()->problem, QString())
      << runControl_->referenceKernelCheck()->problem.toStdString();
  EXPECT_TRUE(state->text().contains(QStringLiteral("gemv_ref.cu: fits the task"))) << state->text().toStdString();
  EXPECT_EQ(runControl_->request().referenceKernel.kernel, dir_.filePath(QStringLiteral("gemv_ref.cu")));

  runControl_->findChild<QSpinBox*>()->setValue(4);   // evaluations
  ASSERT_TRUE(start()->isEnabled()) << runControl_->startProblem().toStdString();
  QSignalSpy finished(coordinator.controller(), &app::EngineController::finished);
  start()->click();
  ASSERT_TRUE(finished.wait(60000)) << "the run did not end";
  const RunId run = finished.front().front().value<RunId>();
  ASSERT_NE(run, 0) << window_.statusBar()->currentMessage().toStdString();
  auto store = readStore();
  EXPECT_EQ(store->run(run)->status, RunStatus::Finished) << window_.statusBar()->currentMessage().toStdString();
  const auto reference = store->candidate(store->run(run)->referenceCandidate);
  ASSERT_TRUE(reference.has_value());
  EXPECT_EQ(reference->status, CandidateStatus::Reference);
  EXPECT_EQ(reference->proposer, kUserReferenceProposer);
  EXPECT_EQ(reference->architectureKey.rfind("tunable:gemv_ref@", 0), 0u) << reference->architectureKey;
  EXPECT_TRUE(reference->timing.has_value()) << "validated and timed before the run measured against it";
  int references = 0;
  for (const auto& s : store->candidateSummaries(run)) references += s.status == CandidateStatus::Reference;
  EXPECT_EQ(references, 1) << "the task's baseline was not made beside it";
}

TEST_F(StartingKernelsInTheGui, AReferenceKernelThatDoesNotFitIsRefusedBeforeTheRunStarts) {
  app::RunCoordinator coordinator(window_, backends(), {});
  runControl_->addStartingKernel(kernel(QStringLiteral("gemv")));
  QString wrong = example(QStringLiteral("gemv.cu"));
  wrong.replace(QStringLiteral("float* __restrict__ y"), QStringLiteral("double* __restrict__ y"));
  runControl_->setReferenceKernel(kernel(QStringLiteral("gemv_double"), wrong));
  ASSERT_TRUE(waitForChecks());
  ASSERT_TRUE(runControl_->referenceKernelCheck().has_value());
  const QString why = runControl_->referenceKernelCheck()->problem;
  EXPECT_TRUE(why.contains(QStringLiteral("parameter 3"))) << why.toStdString();
  EXPECT_FALSE(start()->isEnabled());
  EXPECT_TRUE(runControl_->startProblem().contains(QStringLiteral("Reference kernel 'gemv_double' cannot be this run's reference")))
      << runControl_->startProblem().toStdString();
  // A request that gets through anyway is refused by the coordinator too: no run is created.
  QSignalSpy started(coordinator.controller(), &app::EngineController::started);
  coordinator.startRun(runControl_->request());
  QTest::qWait(100);
  EXPECT_EQ(started.count(), 0);
  EXPECT_TRUE(readStore()->runs().empty());
  const QString message = window_.statusBar()->currentMessage();
  EXPECT_TRUE(message.contains(QStringLiteral("gemv_double")) && message.contains(QStringLiteral("parameter 3")))
      << message.toStdString();
  // Back to the task's own reference, the run may start.
  auto* clear = runControl_->findChild<QPushButton*>(QStringLiteral("clearReferenceKernel"));
  ASSERT_NE(clear, nullptr);
  ASSERT_TRUE(clear->isEnabled());
  clear->click();
  ASSERT_TRUE(waitForChecks());
  EXPECT_FALSE(runControl_->referenceKernelCheck().has_value());
  EXPECT_TRUE(runControl_->request().referenceKernel.kernel.isEmpty());
  EXPECT_TRUE(start()->isEnabled()) << runControl_->startProblem().toStdString();
}

}  // namespace
