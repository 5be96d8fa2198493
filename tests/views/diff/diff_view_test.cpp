// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/diff/diff_view.h"

#include <Qsci/qsciscintilla.h>
#include <QApplication>
#include <QClipboard>
#include <QMenu>
#include <QScrollBar>
#include <QSignalSpy>
#include <gtest/gtest.h>
#include "view_test_project.h"
#include "views/diff/cuda_lexer.h"
#include "views/diff/side_by_side_diff.h"

using namespace crucible;
using namespace crucible::views;

namespace {
using fixture::app;

std::string numbered(int n, int changeEvery) {
  std::string s;
  for (int i = 0; i < n; ++i)
    s += "  float v" + std::to_string(i) + " = x[" + std::to_string(i) + (changeEvery && i % changeEvery == 0 ? "] * 2;\n" : "];\n");
  return s;
}
}  // namespace

TEST(CudaLexer, KnowsCudaKeywordsAndBuiltins) {
  app();
  CudaLexer lexer;
  const std::string kw = lexer.keywords(1);
  const std::string builtins = lexer.keywords(2);
  EXPECT_NE(kw.find("__global__"), std::string::npos);
  EXPECT_NE(kw.find("__shared__"), std::string::npos);
  EXPECT_NE(kw.find(" while"), std::string::npos) << "C++ keywords kept";
  for (const char* b : {"threadIdx", "__syncthreads", "__shfl_xor_sync", "float4"})
    EXPECT_NE(builtins.find(b), std::string::npos) << b;
}

TEST(SideBySideDiff, PaddedEditorsAndNextPrevious) {
  app();
  SideBySideDiff w;
  QSignalSpy spy(&w, &SideBySideDiff::currentChangeChanged);
  const std::string left = numbered(60, 0);
  std::string right = numbered(60, 20);  // lines 0, 20, 40 changed
  right += "  y[0] = v0;\n";              // and one added at the end
  w.setTexts(left, right);
  EXPECT_EQ(w.leftEditor()->lines(), w.rightEditor()->lines()) << "both sides padded to the same rows";
  EXPECT_EQ(w.changeCount(), 4);
  EXPECT_EQ(w.currentChangeRow(), -1);
  EXPECT_TRUE(w.goToNextChange());
  EXPECT_EQ(w.currentChangeRow(), 0);
  EXPECT_TRUE(w.goToNextChange());
  EXPECT_EQ(w.currentChangeRow(), 20);
  EXPECT_TRUE(w.goToNextChange());
  EXPECT_TRUE(w.goToNextChange());
  EXPECT_EQ(w.currentChangeRow(), 60);
  EXPECT_FALSE(w.goToNextChange()) << "no change after the last";
  EXPECT_TRUE(w.goToPreviousChange());
  EXPECT_EQ(w.currentChangeRow(), 40);
  ASSERT_FALSE(spy.isEmpty());
  EXPECT_EQ(spy.last().at(0).toInt(), 2);
  EXPECT_EQ(spy.last().at(1).toInt(), 4);
  int line = -1, index = -1;
  w.rightEditor()->getCursorPosition(&line, &index);
  EXPECT_EQ(line, 40);
}

// Views refresh on every engine event during a run: showing the same texts
// again must not throw the reader back to the top.
TEST(SideBySideDiff, TheSameTextsAgainKeepTheCurrentChange) {
  app();
  SideBySideDiff w;
  const std::string left = numbered(60, 0), right = numbered(60, 20);
  w.setTexts(left, right);
  ASSERT_TRUE(w.goToNextChange());
  ASSERT_TRUE(w.goToNextChange());
  ASSERT_EQ(w.currentChangeRow(), 20);
  QSignalSpy spy(&w, &SideBySideDiff::currentChangeChanged);
  w.setTexts(left, right);
  EXPECT_EQ(w.currentChangeRow(), 20);
  EXPECT_TRUE(spy.isEmpty());
  int line = -1, index = -1;
  w.rightEditor()->getCursorPosition(&line, &index);
  EXPECT_EQ(line, 20);
  w.setTexts(left, numbered(60, 30));  // other texts: a new diff
  EXPECT_EQ(w.currentChangeRow(), -1);
}

TEST(SideBySideDiff, ScrollingIsSynchronized) {
  app();
  SideBySideDiff w;
  w.resize(800, 200);
  w.show();
  w.setTexts(numbered(300, 7), numbered(300, 11));
  QApplication::processEvents();
  w.leftEditor()->verticalScrollBar()->setValue(120);
  EXPECT_EQ(w.rightEditor()->verticalScrollBar()->value(), 120);
  w.rightEditor()->verticalScrollBar()->setValue(30);
  EXPECT_EQ(w.leftEditor()->verticalScrollBar()->value(), 30);
}

TEST(DiffView, FollowsSelectionAgainstFirstParent) {
  app();
  fixture::ViewTestProject p;
  const CandidateId seed = p.add(0, {}, CandidateStatus::Valid, 1.0, "a\nb\nc\n");
  const CandidateId child = p.add(1, {seed}, CandidateStatus::Valid, 1.5, "a\nB\nc\nd\n");
  auto session = p.openSession();
  DiffView view(session.get());
  EXPECT_FALSE(view.message().isEmpty()) << "says that nothing is selected";

  session->selectCandidate(child);
  EXPECT_EQ(view.leftCandidate(), seed);
  EXPECT_EQ(view.rightCandidate(), child);
  EXPECT_EQ(view.diffWidget()->changeCount(), 2);
  EXPECT_TRUE(view.message().isEmpty());

  session->selectCandidate(seed);
  EXPECT_EQ(view.leftCandidate(), 0);
  EXPECT_TRUE(view.message().contains(QStringLiteral("no parent"))) << view.message().toStdString();

  view.compare(child, 9999);
  EXPECT_TRUE(view.message().contains(QStringLiteral("#9999"))) << view.message().toStdString();
}

TEST(DiffView, ARefreshDuringARunKeepsTheCurrentChange) {
  app();
  fixture::ViewTestProject p;
  const CandidateId seed = p.add(0, {}, CandidateStatus::Valid, 1.0, "a\nb\nc\nd\ne\n");
  const CandidateId child = p.add(1, {seed}, CandidateStatus::Valid, 1.5, "A\nb\nc\nD\ne\n");
  auto session = p.openSession();
  DiffView view(session.get());
  session->selectCandidate(child);
  ASSERT_EQ(view.diffWidget()->changeCount(), 2);
  ASSERT_TRUE(view.diffWidget()->goToNextChange());
  ASSERT_TRUE(view.diffWidget()->goToNextChange());
  const int row = view.diffWidget()->currentChangeRow();
  QSignalSpy textsSet(view.diffWidget(), &SideBySideDiff::currentChangeChanged);
  // The engine records more: another candidate, and new figures of the shown one.
  p.add(2, {child}, CandidateStatus::Valid, 2.0, "x\n");
  Candidate shown = *p.store().candidate(child);
  shown.fitness = 1.75;
  shown.timing->speedup = 1.75;
  p.store().updateCandidate(shown);
  session->notifyDataChanged();
  EXPECT_EQ(view.diffWidget()->currentChangeRow(), row) << "the current change was reset";
  EXPECT_EQ(textsSet.count(), 0) << "the unchanged sources were set again";
}

namespace {
QAction* actionStartingWith(QMenu* menu, const QString& text) {
  for (QAction* a : menu->actions())
    if (a->text().startsWith(text)) return a;
  ADD_FAILURE() << "no action " << text.toStdString();
  return nullptr;
}
}  // namespace

TEST(DiffView, ContextMenuSwapsStepsAndCopies) {
  app();
  fixture::ViewTestProject p;
  const CandidateId seed = p.add(0, {}, CandidateStatus::Valid, 1.0, "a\nb\nc\nd\ne\n");
  const CandidateId child = p.add(1, {seed}, CandidateStatus::Valid, 1.5, "a\nB\nc\nd\nE\n");
  auto session = p.openSession();
  DiffView view(session.get());
  {
    std::unique_ptr<QMenu> empty(view.contextMenu());
    for (QAction* a : empty->actions())
      EXPECT_TRUE(a->isSeparator() || !a->isEnabled()) << a->text().toStdString() << " enabled with nothing shown";
  }
  session->selectCandidate(child);
  ASSERT_EQ(view.diffWidget()->changeCount(), 2);
  std::unique_ptr<QMenu> menu(view.contextMenu());

  actionStartingWith(menu.get(), QStringLiteral("Next change"))->trigger();
  const int first = view.diffWidget()->currentChangeRow();
  EXPECT_GE(first, 0);
  actionStartingWith(menu.get(), QStringLiteral("Next change"))->trigger();
  EXPECT_GT(view.diffWidget()->currentChangeRow(), first);
  actionStartingWith(menu.get(), QStringLiteral("Previous change"))->trigger();
  EXPECT_EQ(view.diffWidget()->currentChangeRow(), first);

  actionStartingWith(menu.get(), QStringLiteral("Copy left source"))->trigger();
  EXPECT_EQ(QGuiApplication::clipboard()->text(), QStringLiteral("a\nb\nc\nd\ne\n"));
  actionStartingWith(menu.get(), QStringLiteral("Copy right source"))->trigger();
  EXPECT_EQ(QGuiApplication::clipboard()->text(), QStringLiteral("a\nB\nc\nd\nE\n"));

  actionStartingWith(menu.get(), QStringLiteral("Swap sides"))->trigger();
  EXPECT_EQ(view.leftCandidate(), child);
  EXPECT_EQ(view.rightCandidate(), seed);

  // A seed has no left side to copy.
  session->selectCandidate(seed);
  std::unique_ptr<QMenu> seedMenu(view.contextMenu());
  EXPECT_FALSE(actionStartingWith(seedMenu.get(), QStringLiteral("Copy left source"))->isEnabled());
  EXPECT_TRUE(actionStartingWith(seedMenu.get(), QStringLiteral("Copy right source"))->isEnabled());
}
