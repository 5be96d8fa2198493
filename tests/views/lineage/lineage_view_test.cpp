// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/lineage/lineage_view.h"

#include <QClipboard>
#include <QComboBox>
#include <QGuiApplication>
#include <QMenu>
#include <QGraphicsScene>
#include <QSignalSpy>
#include <QTest>
#include <gtest/gtest.h>
#include "view_test_project.h"
#include "views/lineage/lineage_canvas.h"

using namespace crucible;
using namespace crucible::views;
using fixture::app;

namespace {
void waitForLayout(LineageView& view) {
  QSignalSpy spy(&view, &LineageView::layoutFinished);
  if (view.layoutPending()) {
    ASSERT_TRUE(spy.wait(5000));
  }
}
}  // namespace

TEST(LineageView, SaysWhatIsMissing) {
  app();
  fixture::ViewTestProject p;
  auto session = p.openSession();
  LineageView view(session.get());
  EXPECT_EQ(view.shownCount(), 0);
  EXPECT_TRUE(view.message().contains(QStringLiteral("No candidates"))) << view.message().toStdString();
  ProjectSession closed;
  LineageView none(&closed);
  EXPECT_TRUE(none.message().contains(QStringLiteral("No project"))) << none.message().toStdString();
}

TEST(LineageView, DrawsFiltersFindsAndSelects) {
  app();
  fixture::ViewTestProject p;
  const CandidateId ref = p.add(0, {}, CandidateStatus::Reference, 1.0);
  const CandidateId a = p.add(1, {ref}, CandidateStatus::Valid, 1.2);
  const CandidateId bad = p.add(1, {ref}, CandidateStatus::CompileFailed, 0);
  const CandidateId b = p.add(2, {a}, CandidateStatus::Valid, 1.9);
  const CandidateId c = p.add(2, {bad, a}, CandidateStatus::Invalid, 0);
  const CandidateId d = p.add(3, {b}, CandidateStatus::Valid, 1.4);
  ArchiveCell cell;
  cell.runId = p.run();
  cell.key = "mem=smem";
  cell.elite = b;
  cell.fitness = 1.9;
  p.store().putArchiveCell(cell);

  auto session = p.openSession();
  LineageView view(session.get());
  view.resize(800, 600);
  view.show();
  waitForLayout(view);
  EXPECT_EQ(view.shownCount(), 6);
  EXPECT_TRUE(view.message().isEmpty());
  EXPECT_EQ(view.bestPath(), (std::vector<CandidateId>{b, a, ref}));

  auto* filter = view.findChild<QComboBox*>(QStringLiteral("lineageFilter"));
  ASSERT_NE(filter, nullptr);
  filter->setCurrentIndex(filter->findText(QStringLiteral("Only valid")));
  waitForLayout(view);
  EXPECT_EQ(view.shownCount(), 4);
  EXPECT_FALSE(view.isShown(bad));
  EXPECT_FALSE(view.isShown(c));
  EXPECT_FALSE(view.findCandidate(c)) << "hidden by the filter";

  filter->setCurrentIndex(filter->findText(QStringLiteral("Only elites")));
  waitForLayout(view);
  EXPECT_EQ(view.shownCount(), 1);
  EXPECT_TRUE(view.isShown(b));

  view.setFilter(LineageView::Filter::All);
  view.setArchitectureFilter(QStringLiteral("arch1"));  // the odd generations
  waitForLayout(view);
  EXPECT_EQ(view.shownCount(), 3);
  EXPECT_TRUE(view.isShown(d));
  view.setArchitectureFilter(QString());
  waitForLayout(view);

  EXPECT_TRUE(view.findCandidate(d));
  EXPECT_EQ(session->selectedCandidate(), d);

  // A click on a node selects it everywhere.
  auto* gv = view.findChild<LineageGraphicsView*>();
  ASSERT_NE(gv, nullptr);
  LineageCanvasItem* canvas = nullptr;
  for (auto* item : gv->scene()->items())
    if ((canvas = dynamic_cast<LineageCanvasItem*>(item))) break;
  ASSERT_NE(canvas, nullptr);
  const QPointF scenePos = canvas->nodes()[canvas->indexOf(a)].pos;
  QTest::mouseClick(gv->viewport(), Qt::LeftButton, {}, gv->mapFromScene(scenePos));
  EXPECT_EQ(session->selectedCandidate(), a);

  // Ctrl-click marks candidates for comparison: from the second one on, they are compared, in order.
  QSignalSpy compare(&view, &LineageView::compareRequested);
  auto at = [&](CandidateId id) { return gv->mapFromScene(canvas->nodes()[canvas->indexOf(id)].pos); };
  QTest::mouseClick(gv->viewport(), Qt::LeftButton, Qt::ControlModifier, at(b));
  EXPECT_EQ(compare.count(), 0) << "one marked candidate is no comparison";
  QTest::mouseClick(gv->viewport(), Qt::LeftButton, Qt::ControlModifier, at(d));
  ASSERT_EQ(compare.count(), 1);
  EXPECT_EQ(compare.front().front().value<std::vector<CandidateId>>(), (std::vector<CandidateId>{b, d}));
  EXPECT_EQ(session->selectedCandidate(), a) << "marking does not change the selection";
  QTest::mouseClick(gv->viewport(), Qt::LeftButton, Qt::ControlModifier, at(b));  // unmarks b
  EXPECT_EQ(compare.count(), 1);
  QTest::mouseClick(gv->viewport(), Qt::LeftButton, {}, at(d));  // a plain click clears the marks
  QTest::mouseClick(gv->viewport(), Qt::LeftButton, Qt::ControlModifier, at(a));
  EXPECT_EQ(compare.count(), 1) << "the marks started again";
}

TEST(LineageView, TenThousandCandidates) {
  app();
  fixture::ViewTestProject p;
  std::vector<CandidateId> ids;
  p.store().transaction([&] {
    ids.push_back(p.add(0, {}, CandidateStatus::Reference, 1.0));
    for (int i = 1; i < 10000; ++i) {
      const CandidateId parent = ids[static_cast<std::size_t>(std::max(0, i - 1 - (i * 7919) % 150))];
      ids.push_back(p.add(1 + i / 100, {parent}, i % 3 ? CandidateStatus::Valid : CandidateStatus::Invalid, 1.0 + (i % 50) / 100.0));
    }
  });
  auto session = p.openSession();
  QElapsedTimer timer;
  timer.start();
  LineageView view(session.get());
  view.resize(1000, 700);
  view.show();
  waitForLayout(view);
  QApplication::processEvents();
  view.grab();  // one full paint
  std::printf("10k candidates: read, laid out and painted in %lld ms\n", static_cast<long long>(timer.elapsed()));
  EXPECT_EQ(view.shownCount(), 10000);
  EXPECT_LT(timer.elapsed(), 10000);
}

namespace {
QAction* actionStartingWith(QMenu* menu, const QString& text) {
  for (QAction* a : menu->actions())
    if (a->text().startsWith(text)) return a;
  ADD_FAILURE() << "no action " << text.toStdString();
  return nullptr;
}
}  // namespace

TEST(LineageView, NodeMenuSelectsComparesCopiesAndFits) {
  app();
  fixture::ViewTestProject p;
  const CandidateId ref = p.add(0, {}, CandidateStatus::Reference, 1.0);
  const CandidateId a = p.add(1, {ref}, CandidateStatus::Valid, 1.2);
  auto session = p.openSession();
  LineageView view(session.get());
  view.resize(800, 600);
  view.show();
  waitForLayout(view);
  ASSERT_EQ(view.shownCount(), 2);
  QSignalSpy raised(&view, &LineageView::showViewRequested);

  std::unique_ptr<QMenu> menu(view.contextMenuFor(a));
  actionStartingWith(menu.get(), QStringLiteral("Select"))->trigger();
  EXPECT_EQ(session->selectedCandidate(), a);
  EXPECT_EQ(raised.count(), 0) << "selecting stays in the lineage";

  QGuiApplication::clipboard()->clear();
  actionStartingWith(menu.get(), QStringLiteral("Copy candidate id"))->trigger();
  EXPECT_EQ(QGuiApplication::clipboard()->text(), QString::number(a));

  session->selectCandidate(ref);
  actionStartingWith(menu.get(), QStringLiteral("Compare with parent"))->trigger();
  EXPECT_EQ(session->selectedCandidate(), a);
  ASSERT_EQ(raised.count(), 1);
  EXPECT_EQ(raised.front().front().toString(), QStringLiteral("diff"));

  QSignalSpy forked(&view, &LineageView::forkRequested);
  actionStartingWith(menu.get(), QStringLiteral("Fork"))->trigger();
  ASSERT_EQ(forked.count(), 1);
  EXPECT_EQ(forked.front().front().value<CandidateId>(), a) << "the window opens the editor on it";

  // The seed has no parent to compare with.
  std::unique_ptr<QMenu> seedMenu(view.contextMenuFor(ref));
  EXPECT_FALSE(actionStartingWith(seedMenu.get(), QStringLiteral("Compare with parent"))->isEnabled());

  // Fit (also Ctrl+0) brings a zoomed-in view back to the whole lineage; the empty canvas offers only Fit.
  auto* gv = view.findChild<LineageGraphicsView*>();
  ASSERT_NE(gv, nullptr);
  gv->setTransform(QTransform::fromScale(20, 20));
  std::unique_ptr<QMenu> canvasMenu(view.contextMenuFor(0));
  ASSERT_EQ(canvasMenu->actions().size(), 1);
  QAction* fit = canvasMenu->actions().front();
  EXPECT_EQ(fit->text(), QStringLiteral("Fit"));
  EXPECT_EQ(fit->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_0));
  fit->trigger();
  EXPECT_LT(gv->transform().m11(), 20);
  EXPECT_EQ(gv->contextMenuPolicy(), Qt::CustomContextMenu);
}

TEST(LineageView, CollapsingASubtreeHidesItAndExpandingShowsItAgain) {
  app();
  fixture::ViewTestProject p;
  const CandidateId ref = p.add(0, {}, CandidateStatus::Reference, 1.0);
  const CandidateId a = p.add(1, {ref}, CandidateStatus::Valid, 1.2);
  const CandidateId b = p.add(2, {a}, CandidateStatus::Valid, 1.3);
  p.add(2, {a}, CandidateStatus::Invalid, 0);
  const CandidateId leafId = p.add(3, {b}, CandidateStatus::Valid, 1.4);
  auto session = p.openSession();
  LineageView view(session.get());
  view.resize(800, 600);
  view.show();
  waitForLayout(view);
  ASSERT_EQ(view.shownCount(), 5);

  std::unique_ptr<QMenu> menu(view.contextMenuFor(a));
  actionStartingWith(menu.get(), QStringLiteral("Collapse sub-tree"))->trigger();
  waitForLayout(view);
  EXPECT_TRUE(view.isCollapsed(a));
  EXPECT_EQ(view.shownCount(), 2) << "the reference and the collapsed node stay";
  EXPECT_TRUE(view.isShown(a));
  EXPECT_FALSE(view.isShown(b));

  std::unique_ptr<QMenu> again(view.contextMenuFor(a));
  actionStartingWith(again.get(), QStringLiteral("Expand sub-tree"))->trigger();
  waitForLayout(view);
  EXPECT_EQ(view.shownCount(), 5);

  // A leaf has nothing to collapse.
  std::unique_ptr<QMenu> leaf(view.contextMenuFor(leafId));
  EXPECT_FALSE(actionStartingWith(leaf.get(), QStringLiteral("Collapse sub-tree"))->isEnabled());
}

