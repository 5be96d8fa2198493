// SPDX-License-Identifier: GPL-3.0-or-later
// The current run's lineage as a tidy tree: node colour by status, label by
// speedup, reference (square) and sealed (gold ring) kernels marked, the path
// to the best candidate highlighted. Zoom with the wheel, drag to pan, Fit,
// find by id, collapse of sub-trees, and filters (only valid, only elites,
// one architecture) that
// re-hang each kept candidate under its nearest kept ancestor. The layout
// runs on the thread pool; the GUI keeps the previous drawing meanwhile.
#pragma once
#include <QFutureWatcher>
#include <QWidget>
#include <set>
#include <unordered_map>
#include "core/model/candidate.h"
#include "views/lineage/lineage_layout.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QMenu;
class QStackedWidget;
class QTimer;
class QGraphicsScene;

namespace crucible::views {

class ProjectSession;
class LineageCanvasItem;
class LineageGraphicsView;

class LineageView : public QWidget {
  Q_OBJECT
public:
  enum class Filter { All, OnlyValid, OnlyElites };

  explicit LineageView(ProjectSession* session, QWidget* parent = nullptr);
  ~LineageView() override;

  // Number of candidates drawn after filtering (0 while nothing is shown).
  int shownCount() const;
  bool isShown(CandidateId id) const;
  // The candidates on the highlighted path, best first.
  const std::vector<CandidateId>& bestPath() const { return bestPath_; }
  // The message shown instead of the tree ("" when the tree is shown).
  QString message() const;
  bool layoutPending() const { return layoutPending_; }
  // Collapsed nodes stay drawn (labelled "+N") and hide their sub-tree.
  bool isCollapsed(CandidateId id) const { return collapsed_.count(id) > 0; }
  // The context menu of a node (Select, Compare with parent, Copy candidate id,
  // Fit), or of the empty canvas when id is 0 (Fit). The caller owns it.
  QMenu* contextMenuFor(crucible::CandidateId id, QWidget* parent = nullptr);

public slots:
  void reload();
  void setFilter(crucible::views::LineageView::Filter filter);
  void setArchitectureFilter(const QString& architectureKey);  // "" = all
  // Centres on a candidate and selects it; false (with a message) if it is not drawn.
  bool findCandidate(crucible::CandidateId id);
  void fit();
  void setCollapsed(crucible::CandidateId id, bool collapsed);

signals:
  void layoutFinished();
  // Asks the window to show another view ("diff"); the main window raises its dock.
  void showViewRequested(const QString& viewName);
  // "Fork && edit" on a node: the window opens the kernel editor on that candidate.
  void forkRequested(crucible::CandidateId id);
  // Two or more candidates marked with Ctrl-click, in the order marked: the main window compares them.
  void compareRequested(std::vector<crucible::CandidateId> ids);

private:
  void relayout();
  void applyLayout(const LineageLayout& layout);
  void showMessage(const QString& text);
  QString toolTipFor(CandidateId id) const;
  bool passesFilter(const CandidateSummary& s) const;

  ProjectSession* session_;
  QComboBox* filterBox_ = nullptr;
  QComboBox* archBox_ = nullptr;
  QLineEdit* search_ = nullptr;
  QLabel* status_ = nullptr;
  QAction* fitAction_ = nullptr;
  QLabel* message_ = nullptr;
  QStackedWidget* stack_ = nullptr;
  QGraphicsScene* scene_ = nullptr;
  LineageCanvasItem* canvas_ = nullptr;
  LineageGraphicsView* view_ = nullptr;
  QFutureWatcher<LineageLayout>* watcher_ = nullptr;

  Filter filter_ = Filter::All;
  QString archFilter_;
  std::vector<CandidateSummary> summaries_;
  std::unordered_map<CandidateId, std::size_t> byId_;
  std::set<CandidateId> sealed_, elites_;
  CandidateId referenceId_ = 0;
  std::vector<CandidateId> bestPath_;
  std::set<CandidateId> collapsed_;
  std::vector<CandidateId> marked_;  // Ctrl-clicked, in order; a plain click clears them
  std::unordered_map<CandidateId, int> hiddenBelow_;
  bool layoutPending_ = false;  // a layout for the newest request is running
  bool fitAfterLayout_ = true;
  QTimer* runPace_ = nullptr;  // spaces reloads during a run
  int lastReloadMs_ = 0;             // GUI-thread time of the last reload
};

}  // namespace crucible::views
