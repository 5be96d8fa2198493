// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/review/review_queue_view.h"

#include <QAbstractItemModelTester>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <memory>
#include <QSignalSpy>
#include <QTest>
#include <gtest/gtest.h>
#include "view_test_project.h"
#include "views/common/view_helpers.h"
#include "views/review/review_queue_model.h"

using namespace crucible;
using namespace crucible::views;
using fixture::app;

TEST(ReviewQueueModel, PassesTheModelTester) {
  app();
  ReviewQueueModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  fixture::ViewTestProject p;
  std::vector<Candidate> cs{p.make(1, {}, CandidateStatus::AwaitingReview, 0), p.make(2, {}, CandidateStatus::AwaitingReview, 0)};
  cs[0].id = 5;
  cs[1].id = 9;
  model.setCandidates(cs);
  EXPECT_EQ(model.rowCount(), 2);
  EXPECT_EQ(model.rowOf(9), 1);
  EXPECT_EQ(model.data(model.index(1, ReviewQueueModel::Id)).toLongLong(), 9);
  EXPECT_EQ(model.data(model.index(0, ReviewQueueModel::Architecture)).toString(), QStringLiteral("arch1"));
  model.setCandidates({});
  EXPECT_EQ(model.rowCount(), 0);
}

TEST(ReviewQueueView, AcceptAndRejectWithShortcutsAndNotes) {
  app();
  fixture::ViewTestProject p;
  crucible::Run gated = *p.store().run(p.run());
  gated.gated = true;
  p.store().updateRun(gated);
  const CandidateId parent = p.add(0, {}, CandidateStatus::Valid, 1.0, "a\nb\n");
  Candidate first = p.make(1, {parent}, CandidateStatus::AwaitingReview, 0, "a\nB\n");
  first.architectureKey = "tile=64";
  first.genomeJson = R"({"tile":64,"vec":4})";
  const CandidateId firstId = p.store().addCandidate(first);
  Candidate second = p.make(1, {parent}, CandidateStatus::AwaitingReview, 0, "a\nb\nc\n");
  second.architectureKey = "tile=128";
  const CandidateId secondId = p.store().addCandidate(second);
  Candidate sameArch = p.make(2, {parent}, CandidateStatus::AwaitingReview, 0);
  sameArch.architectureKey = "tile=64";
  p.store().addCandidate(sameArch);
  p.add(1, {parent}, CandidateStatus::Valid, 1.1);  // not queued

  auto session = p.openSession();
  ReviewQueueView view(session.get());
  view.show();
  view.activateWindow();
  ASSERT_TRUE(QTest::qWaitForWindowActive(&view)) << "shortcuts need an active window";
  QSignalSpy spy(&view, &ReviewQueueView::verdictGiven);
  EXPECT_EQ(view.model()->rowCount(), 3);
  EXPECT_EQ(view.currentCandidate(), firstId);
  EXPECT_EQ(session->selectedCandidate(), firstId) << "the shown candidate is selected everywhere";

  auto* note = view.findChild<QLineEdit*>(QStringLiteral("reviewNote"));
  ASSERT_NE(note, nullptr);
  note->setFocus();
  QTest::keyClicks(note, QStringLiteral("tiles of 64 fit smem"));
  QTest::keyClick(note, Qt::Key_Return, Qt::ControlModifier);
  ASSERT_EQ(spy.count(), 1);
  EXPECT_EQ(spy[0][0].value<RunId>(), p.run());
  EXPECT_EQ(spy[0][1].toString(), QStringLiteral("tile=64"));
  EXPECT_TRUE(spy[0][2].toBool());
  EXPECT_EQ(spy[0][3].toString(), QStringLiteral("tiles of 64 fit smem"));
  // Both candidates of the decided architecture leave the queue.
  EXPECT_EQ(view.model()->rowCount(), 1);
  EXPECT_EQ(view.currentCandidate(), secondId);
  EXPECT_TRUE(note->text().isEmpty());

  QTest::keyClicks(note, QStringLiteral("too many registers"));
  QTest::keyClick(note, Qt::Key_Backspace, Qt::ControlModifier);
  ASSERT_EQ(spy.count(), 2);
  EXPECT_EQ(spy[1][1].toString(), QStringLiteral("tile=128"));
  EXPECT_FALSE(spy[1][2].toBool());
  EXPECT_EQ(spy[1][3].toString(), QStringLiteral("too many registers"));
  EXPECT_EQ(view.model()->rowCount(), 0);
  EXPECT_TRUE(view.message().contains(QStringLiteral("No candidates awaiting review"))) << view.message().toStdString();
  EXPECT_FALSE(view.accept()) << "nothing left to decide";
  EXPECT_EQ(spy.count(), 2);
}

TEST(ReviewQueueView, VerdictsInTheStoreAreNotAskedAgain) {
  app();
  fixture::ViewTestProject p;
  Candidate c = p.make(1, {}, CandidateStatus::AwaitingReview, 0);
  c.architectureKey = "k";
  p.store().addCandidate(c);
  ReviewVerdict v;
  v.runId = p.run();
  v.architectureKey = "k";
  v.accepted = true;
  p.store().recordVerdict(v);
  auto session = p.openSession();
  ReviewQueueView view(session.get());
  EXPECT_EQ(view.model()->rowCount(), 0);
}

TEST(ReviewQueueView, ForkAndEditAsksForTheShownProposalLikeLineageAndVault) {
  app();
  fixture::ViewTestProject p;
  crucible::Run gated = *p.store().run(p.run());
  gated.gated = true;
  p.store().updateRun(gated);
  const CandidateId parent = p.add(0, {}, CandidateStatus::Valid, 1.0, "a\nb\n");
  Candidate first = p.make(1, {parent}, CandidateStatus::AwaitingReview, 0, "a\nB\n");
  first.architectureKey = "tile=64";
  const CandidateId firstId = p.store().addCandidate(first);
  Candidate second = p.make(1, {parent}, CandidateStatus::AwaitingReview, 0, "a\nb\nc\n");
  second.architectureKey = "tile=128";
  const CandidateId secondId = p.store().addCandidate(second);

  auto session = p.openSession();
  ReviewQueueView view(session.get());
  // The window connects any view's forkRequested(crucible::CandidateId) to its forkCandidate: the signature must match.
  EXPECT_GE(view.metaObject()->indexOfSignal("forkRequested(crucible::CandidateId)"), 0);
  QSignalSpy spy(&view, &ReviewQueueView::forkRequested);
  ASSERT_EQ(view.model()->rowCount(), 2);
  std::unique_ptr<QMenu> menu(view.contextMenuFor(1));
  ASSERT_EQ(menu->actions().size(), 1);
  QAction* fork = menu->actions().front();
  EXPECT_TRUE(fork->text().contains(QStringLiteral("Fork"))) << fork->text().toStdString();
  EXPECT_TRUE(fork->isEnabled());
  fork->trigger();
  ASSERT_EQ(spy.count(), 1);
  EXPECT_EQ(spy.at(0).at(0).value<CandidateId>(), secondId);
  // The button forks the proposal shown.
  ASSERT_EQ(view.currentCandidate(), firstId);
  ASSERT_TRUE(view.forkButton()->isEnabled());
  view.forkButton()->click();
  ASSERT_EQ(spy.count(), 2);
  EXPECT_EQ(spy.at(1).at(0).value<CandidateId>(), firstId);
  // A row that is not a proposal offers nothing to fork.
  std::unique_ptr<QMenu> none(view.contextMenuFor(7));
  EXPECT_FALSE(none->actions().front()->isEnabled());
  // An empty queue: nothing to fork.
  ASSERT_TRUE(view.accept());
  ASSERT_TRUE(view.accept());
  EXPECT_EQ(view.model()->rowCount(), 0);
  EXPECT_FALSE(view.forkButton()->isEnabled());
}

// A language model's plan in a gated run (no code yet): the queue shows its
// name and plan text, not the genome's JSON; a candidate with code is no plan.
TEST(ReviewQueueModel, APlanShowsItsNameAndText) {
  app();
  fixture::ViewTestProject p;
  Candidate plan = p.make(1, {}, CandidateStatus::AwaitingReview, 0);
  plan.id = 7;
  plan.source.clear();
  plan.architectureKey = "llm:warp-per-row";
  plan.proposer = "llm:model";
  plan.genomeJson = R"({"llm": {"model": "model", "requests": 1}, "mode": "rewrite",)"
                    R"( "plan": {"name": "warp per row", "plan": "One warp per row; shuffles for the max."}})";
  Candidate coded = plan;
  coded.id = 8;
  coded.source = "__global__ void k() {}";
  ASSERT_TRUE(proposedPlanOf(plan).has_value());
  EXPECT_EQ(proposedPlanOf(plan)->name, QStringLiteral("warp per row"));
  EXPECT_EQ(proposedPlanOf(plan)->text, QStringLiteral("One warp per row; shuffles for the max."));
  EXPECT_FALSE(proposedPlanOf(coded).has_value());
  Candidate notJson = plan;
  notJson.genomeJson = "{not json";
  EXPECT_FALSE(proposedPlanOf(notJson).has_value());

  ReviewQueueModel model;
  model.setCandidates({plan, coded});
  EXPECT_EQ(model.data(model.index(0, ReviewQueueModel::Architecture)).toString(), QStringLiteral("warp per row"));
  // The key as written, escaped: a damaged or foreign project may hold any text there.
  EXPECT_EQ(model.data(model.index(0, ReviewQueueModel::Architecture), Qt::ToolTipRole).toString(),
            plainTextToolTip(QStringLiteral("llm:warp-per-row")));
  EXPECT_EQ(model.data(model.index(1, ReviewQueueModel::Architecture)).toString(), QStringLiteral("llm:warp-per-row"));
  Candidate hostile = plan;
  hostile.architectureKey = "<a href=\"http://x\">llm</a>";
  model.setCandidates({hostile});
  const QString tip = model.data(model.index(0, ReviewQueueModel::Architecture), Qt::ToolTipRole).toString();
  EXPECT_FALSE(tip.contains(QStringLiteral("<a "))) << tip.toStdString();
  EXPECT_TRUE(tip.contains(QStringLiteral("&lt;a href=&quot;http://x&quot;&gt;llm&lt;/a&gt;"))) << tip.toStdString();
}
