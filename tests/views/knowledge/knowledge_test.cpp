// SPDX-License-Identifier: GPL-3.0-or-later
#include <QAbstractItemModelTester>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QTest>
#include <gtest/gtest.h>
#include "view_test_project.h"
#include "views/knowledge/knowledge_model.h"
#include "views/knowledge/knowledge_view.h"

using namespace crucible;
using namespace crucible::views;
using fixture::app;

namespace {
KnowledgeEntry claim(const std::string& text, const std::string& decision, std::vector<CandidateId> evidence,
                     KnowledgeStatus status = KnowledgeStatus::Hypothesis) {
  KnowledgeEntry k;
  k.scopeArch = "sm_90";
  k.scopeFamily = "softmax";
  k.claim = text;
  k.decision = decision;
  k.effect = 1.31;
  k.observations = 4;
  k.status = status;
  k.evidence = std::move(evidence);
  return k;
}
}  // namespace

TEST(KnowledgeModel, PassesTheModelTester) {
  app();
  KnowledgeModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setEntries({claim("16-byte loads beat 4-byte loads", "vec=4", {1, 2}, KnowledgeStatus::Validated)});
  EXPECT_EQ(model.rowCount(), 1);
  EXPECT_EQ(model.data(model.index(0, KnowledgeModel::Scope)).toString(), QStringLiteral("sm_90 · softmax · any shape"));
  EXPECT_EQ(model.data(model.index(0, KnowledgeModel::Evidence)).toInt(), 2);
  EXPECT_EQ(model.data(model.index(0, KnowledgeModel::Status)).toString(), QString::fromUtf8(toString(KnowledgeStatus::Validated)));
  EXPECT_EQ(model.data(model.index(0, KnowledgeModel::Effect)).toString(), QStringLiteral("1.31×"));
  model.setEntries({});
  EXPECT_EQ(model.rowCount(), 0);
}

TEST(KnowledgeView, SearchAndEvidenceSelection) {
  app();
  fixture::ViewTestProject p;
  {
    auto session = p.openSession();
    KnowledgeView empty(session.get());
    EXPECT_TRUE(empty.message().contains(QStringLiteral("knowledge base is empty"))) << empty.message().toStdString();
  }
  const CandidateId a = p.add(1, {}, CandidateStatus::Valid, 1.3);
  const CandidateId b = p.add(2, {a}, CandidateStatus::Valid, 1.6);
  p.store().addKnowledge(claim("16-byte vector loads beat 4-byte loads for row reductions", "vec=4", {a, b}));
  p.store().addKnowledge(claim("a warp shuffle reduction beats a shared-memory tree", "reduce=shfl", {b}));
  auto session = p.openSession();
  KnowledgeView view(session.get());
  QAbstractItemModelTester tester(view.model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
  EXPECT_EQ(view.model()->rowCount(), 2);

  auto* search = view.findChild<QLineEdit*>(QStringLiteral("knowledgeSearch"));
  ASSERT_NE(search, nullptr);
  QTest::keyClicks(search, QStringLiteral("shuffle"));
  ASSERT_EQ(view.model()->rowCount(), 1);
  EXPECT_EQ(view.model()->entryAt(0)->decision, "reduce=shfl");

  view.setSearch(QStringLiteral("vector"));
  ASSERT_EQ(view.model()->rowCount(), 1);
  ASSERT_EQ(view.evidenceList()->count(), 2);
  QListWidget* list = view.evidenceList();
  view.show();
  QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(list->item(1)).center());
  EXPECT_EQ(session->selectedCandidate(), b);

  view.setSearch(QStringLiteral("tensor"));
  EXPECT_EQ(view.model()->rowCount(), 0);
  EXPECT_TRUE(view.message().contains(QStringLiteral("No claim matches"))) << view.message().toStdString();
  view.setSearch(QString());
  EXPECT_EQ(view.model()->rowCount(), 2);
}

TEST(KnowledgeView, EvidenceMenuSelectsTheCandidate) {
  app();
  fixture::ViewTestProject p;
  const CandidateId a = p.add(1, {}, CandidateStatus::Valid, 1.3);
  const CandidateId b = p.add(2, {a}, CandidateStatus::Valid, 1.6);
  p.store().addKnowledge(claim("16-byte vector loads beat 4-byte loads for row reductions", "vec=4", {a, b}));
  auto session = p.openSession();
  KnowledgeView view(session.get());
  ASSERT_EQ(view.evidenceList()->count(), 2);
  session->selectCandidate(a);
  std::unique_ptr<QMenu> menu(view.evidenceMenuFor(1));
  ASSERT_EQ(menu->actions().size(), 1);
  QAction* select = menu->actions().front();
  EXPECT_EQ(select->text(), QStringLiteral("Select candidate #%1").arg(b));
  select->trigger();
  EXPECT_EQ(session->selectedCandidate(), b);
  EXPECT_EQ(session->currentRun(), p.run());
  EXPECT_EQ(view.evidenceList()->contextMenuPolicy(), Qt::CustomContextMenu);
}
