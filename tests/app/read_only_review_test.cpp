// SPDX-License-Identifier: GPL-3.0-or-later
// Review in the GUI of a project on read-only storage (a read-only bind
// mount as root, a folder without write permission otherwise): the main
// window opens it, every view fills and renders, and starting a run,
// resuming, importing a task and giving a verdict are refused with a message
// that says why, not an SQLite error and not a crash. Nothing appears beside
// the file. The backends are doubles (no GPU is needed).
#include <QAction>
#include <QImage>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "app/gui/run_coordinator.h"
#include "app/gui/screenshot.h"
#include "tests/app/engine_doubles.h"
#include "tests/core/store/read_only_view.h"
#include "tests/views/models/sample_project.h"
#include "views/mainwindow/main_window.h"
#include "views/review/review_queue_view.h"
#include "views/runcontrol/run_control_view.h"
#include "views/session/project_session.h"

using namespace crucible;

namespace {

std::set<std::string> namesIn(const std::filesystem::path& folder) {
  std::set<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) names.insert(entry.path().filename().string());
  return names;
}

QPushButton* button(QWidget* parent, const QString& text) {
  for (QPushButton* b : parent->findChildren<QPushButton*>())
    if (b->text() == text) return b;
  return nullptr;
}

class ReadOnlyReview : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(settings_.isValid() && projects_.isValid());
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settings_.filePath(QStringLiteral("settings")));
    runs_ = test_support::writeSampleProject(projects_.filePath(QStringLiteral("review.crucible")), {7, 3});
    view_ = std::make_unique<test_support::ReadOnlyView>(projects_.path().toStdString());
    if (!view_->problem().empty()) GTEST_SKIP() << view_->problem();
    path_ = QString::fromStdString(view_->file("review.crucible"));
    before_ = namesIn(view_->path());
  }
  void TearDown() override {
    if (view_ && view_->problem().empty()) {
      EXPECT_EQ(namesIn(view_->path()), before_) << "files appeared beside the read-only project";
    }
  }

  QTemporaryDir settings_, projects_;
  std::vector<RunId> runs_;
  std::unique_ptr<test_support::ReadOnlyView> view_;
  QString path_;
  std::set<std::string> before_;
  test_support::NoProposer proposer_;
  test_support::FailingCompiler compiler_;
  test_support::NoGpus gpus_;
};

TEST_F(ReadOnlyReview, TheWindowOpensTheProjectAndEveryViewFills) {
  views::MainWindow window{views::HostInfo{}};
  ASSERT_EQ(window.tryOpenProject(path_), QString());
  EXPECT_TRUE(window.statusBar()->currentMessage().contains(QStringLiteral("Read-only")))
      << window.statusBar()->currentMessage().toStdString();
  EXPECT_EQ(window.runsTable()->model()->rowCount(), 2);
  EXPECT_EQ(window.session()->currentRun(), runs_.back());
  window.session()->setCurrentRun(runs_.front());
  EXPECT_EQ(window.candidatesTable()->model()->rowCount(), 7);
  app::selectBestCandidate(window);
  EXPECT_NE(window.session()->selectedCandidate(), 0);
  ASSERT_FALSE(window.viewNames().isEmpty());
  for (const QString& name : window.viewNames()) {
    QString error;
    const QImage image = app::grabView(window, name, error);
    EXPECT_EQ(error, QString()) << name.toStdString();
    EXPECT_FALSE(image.isNull()) << name.toStdString();
  }
}

TEST_F(ReadOnlyReview, StartingImportingResumingAndVerdictsAreRefusedWithTheReason) {
  views::MainWindow window{views::HostInfo{}};
  ASSERT_EQ(window.tryOpenProject(path_), QString());
  app::RunCoordinator coordinator(window, {&proposer_, &compiler_, &gpus_, QString()}, {});
  const QString problem = coordinator.writeProblem();
  ASSERT_TRUE(problem.contains(QStringLiteral("The project is open read-only ("))) << problem.toStdString();

  auto* runControl = window.findChild<views::RunControlView*>();
  ASSERT_NE(runControl, nullptr);
  EXPECT_EQ(runControl->startProblem(), problem);
  QPushButton* start = button(runControl, QStringLiteral("Start"));
  ASSERT_NE(start, nullptr);
  EXPECT_FALSE(start->isEnabled());
  // A request that gets through anyway (a signal, a script) is refused too, with the reason.
  QSignalSpy started(coordinator.controller(), &app::EngineController::started);
  coordinator.startRun(runControl->request());
  QTest::qWait(100);
  EXPECT_EQ(started.count(), 0);
  EXPECT_EQ(window.statusBar()->currentMessage(), problem);

  EXPECT_FALSE(coordinator.importTaskAction()->isEnabled());
  EXPECT_EQ(coordinator.importTaskAction()->statusTip(), problem);
  std::vector<std::string> problems;
  const std::vector<app::BuiltinTask> builtins = app::builtinTasks(problems);
  ASSERT_FALSE(builtins.empty());
  const QString importError = coordinator.importTask(QString::fromStdString(builtins.front().file));
  EXPECT_TRUE(importError.contains(problem)) << importError.toStdString();

  EXPECT_FALSE(coordinator.resumeAction()->isEnabled());
  EXPECT_EQ(coordinator.resumeProblem(), problem);

  auto* review = window.findChild<views::ReviewQueueView*>();
  ASSERT_NE(review, nullptr);
  emit review->verdictGiven(runs_.front(), QStringLiteral("arch-x"), true, QString());
  EXPECT_TRUE(window.statusBar()->currentMessage().contains(problem))
      << window.statusBar()->currentMessage().toStdString();

  // Still all there, unchanged.
  auto store = ProjectStore::open(path_.toStdString(), ProjectStore::Mode::ReadOnly);
  EXPECT_EQ(store->runs().size(), 2u);
  EXPECT_EQ(store->tasks().size(), 1u);
  EXPECT_FALSE(store->verdict(runs_.front(), "arch-x").has_value());
}

// The built executable, as a reviewer starts it: --screenshot opens the project and renders the window.
TEST_F(ReadOnlyReview, TheWorkbenchRendersAProjectOnReadOnlyStorage) {
  const QString png = settings_.filePath(QStringLiteral("shot.png"));
  QProcess p;
  QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
  env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
  p.setProcessEnvironment(env);
  p.start(QStringLiteral(CRUCIBLE_GUI_EXE), {QStringLiteral("--screenshot"), png, path_});
  ASSERT_TRUE(p.waitForFinished(60000));
  EXPECT_EQ(p.exitStatus(), QProcess::NormalExit);
  EXPECT_EQ(p.exitCode(), 0) << p.readAllStandardError().toStdString();
  EXPECT_FALSE(QImage(png).isNull());
}

}  // namespace
