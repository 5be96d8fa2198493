// SPDX-License-Identifier: GPL-3.0-or-later
#include <QAbstractItemModelTester>
#include <QAction>
#include <QFont>
#include <QSignalSpy>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QTest>
#include <QTextDocument>
#include <gtest/gtest.h>
#include "view_test_project.h"
#include "views/knowledge/add_claim_dialog.h"
#include "views/knowledge/knowledge_editor.h"
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

// A claim may come from another project's knowledge file: its tooltip shows the
// text as written, never as HTML (Qt renders a tooltip that looks like HTML).
TEST(KnowledgeModel, TheClaimsTooltipIsTheTextAsWritten) {
  app();
  KnowledgeModel model;
  KnowledgeEntry k = claim("<img src=\"x.png\"> loads & <b>stores</b>", "vec=4", {1}, KnowledgeStatus::Validated);
  model.setEntries({k});
  const QString tip = model.data(model.index(0, KnowledgeModel::Claim), Qt::ToolTipRole).toString();
  EXPECT_TRUE(tip.contains(QStringLiteral("&lt;img src=&quot;x.png&quot;&gt; loads &amp; &lt;b&gt;stores&lt;/b&gt;")))
      << tip.toStdString();
  EXPECT_FALSE(tip.contains(QStringLiteral("<img"))) << tip.toStdString();
  QTextDocument shown;
  shown.setHtml(tip);
  EXPECT_EQ(shown.toPlainText(), QString::fromStdString(k.claim));

  // Reworded by the user: the tooltip is the user's text, and what was measured.
  k.userClaim = "Wide loads pay\non short rows";
  model.setEntries({k});
  shown.setHtml(model.data(model.index(0, KnowledgeModel::Claim), Qt::ToolTipRole).toString());
  EXPECT_EQ(shown.toPlainText(), QStringLiteral("Wide loads pay\non short rows\nMeasured: ") + QString::fromStdString(k.claim));
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

// The user's word on claims: pin, disable, reword, add; each written to the
// project (the session re-reads it), shown in the table, and kept by a later
// engine update of the measured fields.
namespace {
bool waitForEdit(KnowledgeView& view) {
  QSignalSpy finished(view.editor(), &KnowledgeEditor::finished);
  if (!finished.wait(10000)) return false;
  view.reload();  // the dock's lazy refresh, at once
  return finished.front().front().toString().isEmpty();
}
}  // namespace

TEST(KnowledgeView, PinDisableRewordAndAddAClaim) {
  app();
  fixture::ViewTestProject p;
  const CandidateId a = p.add(1, {}, CandidateStatus::Valid, 1.3);
  KnowledgeEntry measured = claim("On sm_90, vec=4 makes softmax kernels 1.31x faster", "vector: 1 -> 4", {a});
  measured.id = p.store().addKnowledge(measured);
  auto session = p.openSession();
  KnowledgeView view(session.get());
  QAbstractItemModelTester tester(view.model(), QAbstractItemModelTester::FailureReportingMode::Fatal);
  ASSERT_EQ(view.model()->rowCount(), 1);
  EXPECT_TRUE(view.pinAction()->isEnabled());
  EXPECT_FALSE(view.pinAction()->isChecked());

  // Pin through the action (as the toolbar and the context menu do).
  std::unique_ptr<QMenu> menu(view.claimMenuFor(0));
  ASSERT_TRUE(menu->actions().contains(view.pinAction()));
  ASSERT_TRUE(menu->actions().contains(view.addClaimAction()));
  view.pinAction()->trigger();
  ASSERT_TRUE(waitForEdit(view)) << view.editStatus().toStdString();
  ASSERT_EQ(view.model()->rowCount(), 1);
  EXPECT_TRUE(view.model()->entryAt(0)->pinned);
  EXPECT_TRUE(view.pinAction()->isChecked());
  EXPECT_TRUE(view.model()->data(view.model()->index(0, KnowledgeModel::Status)).toString().contains(QStringLiteral("pinned")));
  EXPECT_TRUE(p.store().knowledge()[0].pinned) << "written to the project";

  // Reword: the table shows the user's words, the measured claim stays.
  view.rewordCurrent(QStringLiteral("Wide loads pay on short rows"));
  ASSERT_TRUE(waitForEdit(view)) << view.editStatus().toStdString();
  EXPECT_EQ(view.model()->data(view.model()->index(0, KnowledgeModel::Claim)).toString(),
            QStringLiteral("Wide loads pay on short rows"));
  EXPECT_EQ(view.model()->entryAt(0)->claim, measured.claim);

  // An engine update of the measurements keeps the user's word.
  measured.observations = 9;
  p.store().updateKnowledge(measured);
  session->notifyDataChanged();
  view.reload();
  EXPECT_EQ(view.model()->entryAt(0)->observations, 9);
  EXPECT_TRUE(view.model()->entryAt(0)->pinned);
  EXPECT_EQ(view.model()->entryAt(0)->userClaim, "Wide loads pay on short rows");

  // Disable: a disabled claim is not pinned (the two contradict each other).
  view.disableAction()->trigger();
  ASSERT_TRUE(waitForEdit(view)) << view.editStatus().toStdString();
  EXPECT_TRUE(view.model()->entryAt(0)->disabled);
  EXPECT_FALSE(view.model()->entryAt(0)->pinned);
  EXPECT_TRUE(view.disableAction()->isChecked());
  EXPECT_TRUE(view.model()->data(view.model()->index(0, KnowledgeModel::Claim), Qt::FontRole).value<QFont>().strikeOut());

  // Add: a duplicate (the same decision the other way round) is refused before anything is written.
  UserClaimDraft duplicate{"sm_90", "softmax", "", "vector: 4 -> 1", "mine", false};
  EXPECT_FALSE(view.addClaim(duplicate).isEmpty());
  EXPECT_TRUE(view.editStatus().contains(QStringLiteral("already has a claim"))) << view.editStatus().toStdString();
  UserClaimDraft mine{"sm_90", "softmax", "M~2^12", "reduction=shuffle", "Shuffles beat shared memory trees", true};
  EXPECT_TRUE(view.addClaim(mine).isEmpty());
  ASSERT_TRUE(waitForEdit(view)) << view.editStatus().toStdString();
  ASSERT_EQ(view.model()->rowCount(), 2);
  const KnowledgeEntry* added = view.model()->entryAt(1);
  EXPECT_EQ(added->claim, "Shuffles beat shared memory trees");
  EXPECT_EQ(added->status, KnowledgeStatus::Hypothesis);
  EXPECT_EQ(added->observations, 0);
  EXPECT_TRUE(added->evidence.empty());
  EXPECT_TRUE(added->userAdded);
  EXPECT_TRUE(added->pinned);
  EXPECT_TRUE(view.model()->data(view.model()->index(1, KnowledgeModel::Status)).toString().contains(QStringLiteral("yours")));
}

TEST(KnowledgeView, TheAddDialogChecksTheDraft) {
  app();
  KnowledgeEntry known = claim("x", "vector: 1 -> 4", {});
  known.id = 4;
  AddClaimDialog dialog({known}, UserClaimDraft{"sm_90", "softmax", "", "", "", false});
  dialog.accept();
  EXPECT_EQ(dialog.result(), QDialog::Rejected);
  EXPECT_TRUE(dialog.problem().startsWith(QStringLiteral("decision:"))) << dialog.problem().toStdString();
  dialog.setDraft(UserClaimDraft{"sm_90", "softmax", "", "vector: 4 -> 1", "mine", false});
  dialog.accept();
  EXPECT_TRUE(dialog.problem().contains(QStringLiteral("#4"))) << dialog.problem().toStdString();
  auto* decision = dialog.findChild<QLineEdit*>(QStringLiteral("claimDecision"));
  ASSERT_NE(decision, nullptr);
  decision->setText(QStringLiteral("vector=8"));
  dialog.accept();
  EXPECT_EQ(dialog.result(), QDialog::Accepted);
  EXPECT_EQ(dialog.draft().decision, "vector=8");
  EXPECT_EQ(dialog.draft().text, "mine");
}
