// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/runcontrol/run_control_view.h"

#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <gtest/gtest.h>
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
