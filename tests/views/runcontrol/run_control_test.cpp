// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/runcontrol/run_control_view.h"

#include <QComboBox>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QListWidget>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <gtest/gtest.h>
#include <atomic>
#include <memory>
#include "view_test_project.h"

using namespace crucible;
using namespace crucible::views;
using fixture::app;

namespace {
QPushButton* button(QWidget& w, const QString& text) {
  for (auto* b : w.findChildren<QPushButton*>())
    if (b->text() == text) return b;
  return nullptr;
}
}  // namespace

TEST(RunControlView, StartPauseResumeStop) {
  app();
  fixture::ViewTestProject p;
  auto session = p.openSession();
  RunControlView view(session.get());
  view.show();
  QSignalSpy start(&view, &RunControlView::startRequested);
  QSignalSpy pause(&view, &RunControlView::pauseRequested);
  QSignalSpy resume(&view, &RunControlView::resumeRequested);
  QSignalSpy stop(&view, &RunControlView::stopRequested);

  EXPECT_EQ(view.startProblem(), QStringLiteral("No proposer is available."));
  view.setProposers({QStringLiteral("template"), QStringLiteral("llm:test")});
  EXPECT_TRUE(view.startProblem().isEmpty()) << view.startProblem().toStdString();
  auto* proposer = view.findChild<QComboBox*>(QStringLiteral("runProposer"));
  proposer->setCurrentIndex(1);

  QTest::mouseClick(button(view, QStringLiteral("Start")), Qt::LeftButton);
  ASSERT_EQ(start.count(), 1);
  const auto req = start[0][0].value<RunRequest>();
  EXPECT_EQ(req.task, p.task());
  EXPECT_EQ(req.proposer, QStringLiteral("llm:test"));
  EXPECT_EQ(req.budget.evaluations, 200);
  EXPECT_DOUBLE_EQ(req.budget.wallSeconds, 3600);
  EXPECT_FALSE(req.gated);

  view.setRunState(RunStatus::Running);
  EXPECT_FALSE(button(view, QStringLiteral("Start"))->isEnabled());
  EXPECT_FALSE(button(view, QStringLiteral("Resume"))->isEnabled());
  QTest::mouseClick(button(view, QStringLiteral("Pause")), Qt::LeftButton);
  EXPECT_EQ(pause.count(), 1);
  view.setRunState(RunStatus::Paused);
  QTest::mouseClick(button(view, QStringLiteral("Resume")), Qt::LeftButton);
  EXPECT_EQ(resume.count(), 1);
  QTest::mouseClick(button(view, QStringLiteral("Stop")), Qt::LeftButton);
  EXPECT_EQ(stop.count(), 1);
  view.setRunState(RunStatus::Stopped);
  EXPECT_TRUE(button(view, QStringLiteral("Start"))->isEnabled());
  EXPECT_FALSE(button(view, QStringLiteral("Stop"))->isEnabled());
}

TEST(RunControlView, ChartAndLogFromTheStoreThenLive) {
  app();
  fixture::ViewTestProject p;
  p.add(0, {}, CandidateStatus::Reference, 1.0);
  p.add(1, {}, CandidateStatus::Valid, 1.2);
  p.add(1, {}, CandidateStatus::CompileFailed, 0);
  p.add(2, {}, CandidateStatus::Valid, 1.1);
  p.add(2, {}, CandidateStatus::Valid, 1.5);
  p.store().appendLog(p.run(), "info", "generation 1 proposed");
  auto session = p.openSession();
  RunControlView view(session.get());
  // Evaluations 1..4: best 1.2 at 1, 1.5 at 4.
  EXPECT_EQ(view.chartPointCount(), 2);
  EXPECT_TRUE(view.logText().contains(QStringLiteral("generation 1 proposed")));

  p.store().appendLog(p.run(), "warning", "candidate 7 timed out");
  session->notifyDataChanged();
  EXPECT_TRUE(view.logText().contains(QStringLiteral("candidate 7 timed out")));
  EXPECT_EQ(view.logText().count(QStringLiteral("generation 1 proposed")), 1) << "log lines appended once";

  view.addBestSpeedupPoint(5, 1.7);
  EXPECT_EQ(view.chartPointCount(), 3);
  view.setProgress(5, 100, 1.7, 125);
  auto labels = view.findChildren<QLabel*>();
  bool found = false;
  for (auto* l : labels) found |= l->text() == QStringLiteral("5 of 100 evaluations · best 1.7× · 2 min 5 s left");
  EXPECT_TRUE(found);
}

// Issue 18: a task imported while the project is open (File > Import task...
// writes it through its own connection, then tells the session) is offered at once.
TEST(RunControlView, AnImportedTaskIsOfferedAtOnce) {
  app();
  fixture::ViewTestProject p;
  auto session = p.openSession();
  RunControlView view(session.get());
  view.setProposers({QStringLiteral("template")});
  auto* task = view.findChild<QComboBox*>(QStringLiteral("runTask"));
  ASSERT_NE(task, nullptr);
  const int before = task->count();
  {
    auto writer = ProjectStore::open(p.path());
    Task t;
    t.name = "imported_task";
    t.family = "gelu";
    t.specJson = p.store().task(p.task())->specJson;
    writer->addTask(t);
  }
  session->notifyDataChanged();  // what RunCoordinator::importTask does after the import
  EXPECT_EQ(task->count(), before + 1);
  EXPECT_GE(task->findText(QStringLiteral("imported_task")), 0);
  EXPECT_EQ(task->currentData().toLongLong(), p.task()) << "the user's choice changed";
}

TEST(RunControlView, StartingKernelsAreCheckedAgainstTheTaskAndRefuseStartWithTheReason) {
  app();
  fixture::ViewTestProject p;
  auto session = p.openSession();
  RunControlView view(session.get());
  view.setProposers({QStringLiteral("template")});
  auto* add = view.findChild<QPushButton*>(QStringLiteral("addStartingKernel"));
  ASSERT_NE(add, nullptr);
  EXPECT_FALSE(add->isEnabled()) << "starting kernels offered with no way to check them";

  // The app's checker, on a thread of its own: a kernel named "bad..." does not fit; it is given the task's spec.
  auto specSeen = std::make_shared<std::atomic<bool>>(false);
  view.setStartingKernelChecker([specSeen](const std::vector<StartingKernelFiles>& files, const std::string& spec) {
    specSeen->store(spec.find("\"name\"") != std::string::npos);
    std::vector<StartingKernelCheck> out;
    for (const StartingKernelFiles& f : files) {
      const QString name = QFileInfo(f.kernel).completeBaseName();
      out.push_back({name, name.startsWith(QStringLiteral("bad")) ? QStringLiteral("parameter 3 is 'double* y'") : QString()});
    }
    return out;
  });
  EXPECT_TRUE(add->isEnabled());
  QSignalSpy checked(&view, &RunControlView::startingKernelsChecked);
  view.addStartingKernel(QStringLiteral("/k/first.cu"));
  view.addStartingKernel(QStringLiteral("/k/bad.cu"), QStringLiteral("/k/bad.tune.json"));
  EXPECT_TRUE(view.checkingStartingKernels());
  EXPECT_FALSE(view.startProblem().isEmpty()) << "Start allowed before the kernels were checked";
  for (int i = 0; i < 200 && view.checkingStartingKernels(); ++i) QTest::qWait(10);
  ASSERT_FALSE(view.checkingStartingKernels());
  EXPECT_GE(checked.count(), 1);
  EXPECT_TRUE(specSeen->load()) << "the checker was not given the chosen task's spec";
  ASSERT_EQ(view.startingKernelChecks().size(), 2);
  EXPECT_EQ(view.startingKernelChecks()[0].problem, QString());
  EXPECT_TRUE(view.startProblem().contains(QStringLiteral("'bad'"))) << view.startProblem().toStdString();
  EXPECT_TRUE(view.startProblem().contains(QStringLiteral("parameter 3 is 'double* y'")));
  EXPECT_FALSE(button(view, QStringLiteral("Start"))->isEnabled());
  auto* list = view.findChild<QListWidget*>(QStringLiteral("startingKernels"));
  ASSERT_NE(list, nullptr);
  ASSERT_EQ(list->count(), 2);
  EXPECT_TRUE(list->item(1)->text().contains(QStringLiteral("does not fit: parameter 3"))) << list->item(1)->text().toStdString();
  // The request carries the files as chosen.
  const RunRequest r = view.request();
  ASSERT_EQ(r.startingKernels.size(), 2);
  EXPECT_EQ(r.startingKernels[1].kernel, QStringLiteral("/k/bad.cu"));
  EXPECT_EQ(r.startingKernels[1].tune, QStringLiteral("/k/bad.tune.json"));

  // Removed, Start is allowed and the request has the one left.
  list->setCurrentRow(1);
  view.findChild<QPushButton*>(QStringLiteral("removeStartingKernel"))->click();
  for (int i = 0; i < 200 && view.checkingStartingKernels(); ++i) QTest::qWait(10);
  EXPECT_TRUE(view.startProblem().isEmpty()) << view.startProblem().toStdString();
  QSignalSpy start(&view, &RunControlView::startRequested);
  button(view, QStringLiteral("Start"))->click();
  ASSERT_EQ(start.count(), 1);
  EXPECT_EQ(start[0][0].value<RunRequest>().startingKernels.size(), 1);
  // While a run goes on the list cannot change.
  view.setRunState(RunStatus::Running);
  EXPECT_FALSE(add->isEnabled());
}

TEST(RunControlView, StartingKernelsAreCheckedAgainAgainstAnotherTask) {
  app();
  fixture::ViewTestProject p;
  auto session = p.openSession();
  RunControlView view(session.get());
  view.setProposers({QStringLiteral("template")});
  // A built-in task's spec is read from its file, off the GUI thread.
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  const QString specFile = dir.filePath(QStringLiteral("builtin.json"));
  {
    QFile f(specFile);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(R"({"name": "builtin-one"})");
  }
  view.setBuiltinTasks({QStringLiteral("builtin-one"), QStringLiteral("builtin-gone")},
                       {specFile, dir.filePath(QStringLiteral("gone.json"))});
  view.setStartingKernelChecker([](const std::vector<StartingKernelFiles>& files, const std::string& spec) {
    std::vector<StartingKernelCheck> out;
    for (std::size_t i = 0; i < files.size(); ++i)
      out.push_back({QStringLiteral("k"), spec.find("builtin-one") != std::string::npos
                                              ? QString()
                                              : QStringLiteral("not the built-in task")});
    return out;
  });
  view.addStartingKernel(QStringLiteral("/k/k.cu"));
  auto wait = [&] {
    for (int i = 0; i < 200 && view.checkingStartingKernels(); ++i) QTest::qWait(10);
    return !view.checkingStartingKernels();
  };
  ASSERT_TRUE(wait());
  EXPECT_EQ(view.startingKernelChecks().at(0).problem, QStringLiteral("not the built-in task"));  // the project's task
  auto* task = view.findChild<QComboBox*>(QStringLiteral("runTask"));
  task->setCurrentIndex(task->findText(QStringLiteral("builtin-one"), Qt::MatchStartsWith));
  ASSERT_TRUE(wait());
  EXPECT_EQ(view.startingKernelChecks().at(0).problem, QString());
  EXPECT_TRUE(view.startProblem().isEmpty()) << view.startProblem().toStdString();
  // A spec file that cannot be read is said for each kernel, and refuses Start.
  task->setCurrentIndex(task->findText(QStringLiteral("builtin-gone"), Qt::MatchStartsWith));
  ASSERT_TRUE(wait());
  EXPECT_TRUE(view.startingKernelChecks().at(0).problem.contains(QStringLiteral("gone.json")))
      << view.startingKernelChecks().at(0).problem.toStdString();
  EXPECT_FALSE(view.startProblem().isEmpty());
}

// A proposer offered but not usable now (the language model without usable
// preferences) is shown disabled, with the reason and the hint; a request
// carries the choice's id, not its label.
TEST(RunControlView, AProposerThatCannotBeChosenSaysWhy) {
  app();
  fixture::ViewTestProject p;
  auto session = p.openSession();
  RunControlView view(session.get());
  view.show();
  auto* proposer = view.findChild<QComboBox*>(QStringLiteral("runProposer"));
  ASSERT_NE(proposer, nullptr);
  view.setProposerChoices({{QStringLiteral("template"), QStringLiteral("Templates"), {}, {}},
                           {QStringLiteral("llm"), QStringLiteral("Language model"), QStringLiteral("models: missing"),
                            QStringLiteral("Open Edit > Preferences... to set it up.")}});
  ASSERT_EQ(proposer->count(), 2);
  EXPECT_EQ(proposer->currentIndex(), 0);
  EXPECT_EQ(view.request().proposer, QStringLiteral("template"));
  EXPECT_FALSE(proposer->model()->flags(proposer->model()->index(1, 0)).testFlag(Qt::ItemIsEnabled));
  EXPECT_TRUE(view.proposerProblem().contains(QStringLiteral("models: missing")));
  EXPECT_TRUE(view.proposerProblem().contains(QStringLiteral("Edit > Preferences...")));
  auto* why = view.findChild<QLabel*>(QStringLiteral("runProposerProblem"));
  ASSERT_NE(why, nullptr);
  EXPECT_TRUE(why->isVisible());
  EXPECT_TRUE(view.startProblem().isEmpty()) << view.startProblem().toStdString();
  // Usable again: chosen, and the request says "llm"; the reason is gone.
  view.setProposerChoices({{QStringLiteral("template"), QStringLiteral("Templates"), {}, {}},
                           {QStringLiteral("llm"), QStringLiteral("Language model"), {}, {}}});
  proposer->setCurrentIndex(1);
  EXPECT_EQ(view.request().proposer, QStringLiteral("llm"));
  EXPECT_FALSE(why->isVisible());
  // Unusable again while chosen: back to the first usable one, never a disabled choice.
  view.setProposerChoices({{QStringLiteral("template"), QStringLiteral("Templates"), {}, {}},
                           {QStringLiteral("llm"), QStringLiteral("Language model"), QStringLiteral("no key"), {}}});
  EXPECT_EQ(view.request().proposer, QStringLiteral("template"));
  // Nothing usable: Start is refused with the reason.
  view.setProposerChoices({{QStringLiteral("llm"), QStringLiteral("Language model"), QStringLiteral("no key"), {}}});
  EXPECT_EQ(proposer->currentIndex(), -1);
  EXPECT_TRUE(view.startProblem().contains(QStringLiteral("no key"))) << view.startProblem().toStdString();
  EXPECT_FALSE(button(view, QStringLiteral("Start"))->isEnabled());
}
