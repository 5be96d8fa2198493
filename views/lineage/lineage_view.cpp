// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/lineage/lineage_view.h"

#include <QAction>
#include <algorithm>
#include <thread>
#include <QClipboard>
#include <QComboBox>
#include <QElapsedTimer>
#include <QScopeGuard>
#include <QTimer>
#include <QGuiApplication>
#include <QMenu>
#include <QFuture>
#include <QGraphicsScene>
#include <QHBoxLayout>
#include <QIntValidator>
#include <QLabel>
#include <QLineEdit>
#include <QPromise>
#include <QPushButton>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <memory>
#include "views/common/status_names.h"
#include "views/diff/candidate_figures.h"
#include "views/lineage/lineage_canvas.h"
#include "views/lineage/status_colors.h"
#include "views/common/lazy_refresh.h"
#include "views/session/project_session.h"

namespace crucible::views {

namespace {
constexpr double kSpacingX = 34;  // scene units between neighbours
constexpr double kSpacingY = 70;  // scene units between generations of the tree
}  // namespace

LineageView::LineageView(ProjectSession* session, QWidget* parent) : QWidget(parent), session_(session) {
  filterBox_ = new QComboBox(this);
  filterBox_->setObjectName(QStringLiteral("lineageFilter"));
  filterBox_->addItem(tr("All candidates"), static_cast<int>(Filter::All));
  filterBox_->addItem(tr("Only valid"), static_cast<int>(Filter::OnlyValid));
  filterBox_->addItem(tr("Only elites"), static_cast<int>(Filter::OnlyElites));
  archBox_ = new QComboBox(this);
  archBox_->setObjectName(QStringLiteral("lineageArchitecture"));
  archBox_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  archBox_->setMinimumContentsLength(16);
  search_ = new QLineEdit(this);
  search_->setObjectName(QStringLiteral("lineageSearch"));
  search_->setPlaceholderText(tr("Find candidate #"));
  search_->setValidator(new QIntValidator(1, INT_MAX, search_));
  search_->setClearButtonEnabled(true);
  auto* fitButton = new QPushButton(tr("Fit"), this);
  fitAction_ = new QAction(tr("Fit"), this);
  fitAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
  fitAction_->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  fitButton->setToolTip(tr("Fit the whole lineage in view (%1)").arg(fitAction_->shortcut().toString(QKeySequence::NativeText)));
  addAction(fitAction_);
  status_ = new QLabel(this);

  auto* bar = new QHBoxLayout;
  bar->addWidget(filterBox_);
  bar->addWidget(archBox_);
  bar->addWidget(search_);
  bar->addWidget(fitButton);
  bar->addWidget(status_, 1);

  message_ = new QLabel(this);
  message_->setAlignment(Qt::AlignCenter);
  message_->setWordWrap(true);
  scene_ = new QGraphicsScene(this);
  canvas_ = new LineageCanvasItem;
  scene_->addItem(canvas_);
  view_ = new LineageGraphicsView(this);
  view_->setScene(scene_);
  view_->setCanvas(canvas_);
  view_->setToolTipProvider([this](CandidateId id) { return toolTipFor(id); });
  stack_ = new QStackedWidget(this);
  stack_->addWidget(message_);
  stack_->addWidget(view_);

  // Legend: the status colours and the marks.
  QStringList legend;
  for (CandidateStatus st : {CandidateStatus::Reference, CandidateStatus::Valid, CandidateStatus::Invalid,
                             CandidateStatus::CompileFailed, CandidateStatus::Faulted, CandidateStatus::TimedOut,
                             CandidateStatus::ResourceError, CandidateStatus::AwaitingReview, CandidateStatus::Rejected,
                             CandidateStatus::Proposed, CandidateStatus::Compiled})
    legend << QStringLiteral("<span style='color:%1'>&#9679;</span> %2").arg(statusColor(st).name(), statusName(st).toHtmlEscaped());
  legend << tr("&#9632; reference") << tr("<span style='color:#d4a017'>&#9711;</span> sealed")
         << tr("<b>&#9711;</b> elite") << tr("<span style='color:#e67800'>&#9473;</span> path to the best");
  auto* legendLabel = new QLabel(legend.join(QStringLiteral(" &nbsp; ")), this);
  legendLabel->setWordWrap(true);
  legendLabel->setTextFormat(Qt::RichText);

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(bar);
  layout->addWidget(stack_, 1);
  layout->addWidget(legendLabel);

  watcher_ = new QFutureWatcher<LineageLayout>(this);
  connect(watcher_, &QFutureWatcher<LineageLayout>::finished, this, [this] {
    // Only the newest request is watched; a finished signal from a replaced
    // one finds no result yet and is ignored.
    if (watcher_->future().resultCount() == 0) return;
    layoutPending_ = false;
    applyLayout(watcher_->result());
    emit layoutFinished();
  });

  connect(filterBox_, &QComboBox::currentIndexChanged, this,
          [this](int i) { setFilter(static_cast<Filter>(filterBox_->itemData(i).toInt())); });
  connect(archBox_, &QComboBox::currentIndexChanged, this,
          [this](int i) { setArchitectureFilter(i <= 0 ? QString() : archBox_->itemText(i)); });
  connect(search_, &QLineEdit::returnPressed, this, [this] {
    if (!search_->text().isEmpty()) findCandidate(search_->text().toLongLong());
  });
  connect(fitButton, &QPushButton::clicked, this, &LineageView::fit);
  connect(fitAction_, &QAction::triggered, this, &LineageView::fit);
  view_->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(view_, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
    const int i = canvas_->nodeAt(view_->mapToScene(pos));
    QMenu* menu = contextMenuFor(i >= 0 ? canvas_->nodes()[static_cast<std::size_t>(i)].id : 0, view_);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(view_->viewport()->mapToGlobal(pos));
  });
  connect(view_, &LineageGraphicsView::nodeClicked, this, [this](CandidateId id) {
    if (!marked_.empty()) {
      marked_.clear();
      canvas_->setMarkedIds(marked_);
    }
    session_->selectCandidate(id);
  });
  // Ctrl-click marks candidates; from the second on, the marked ones are compared.
  connect(view_, &LineageGraphicsView::nodeCtrlClicked, this, [this](CandidateId id) {
    const auto it = std::find(marked_.begin(), marked_.end(), id);
    if (it != marked_.end())
      marked_.erase(it);
    else
      marked_.push_back(id);
    canvas_->setMarkedIds(marked_);
    if (marked_.size() >= 2) emit compareRequested(marked_);
  });
  connect(session_, &ProjectSession::candidateSelected, this, [this](CandidateId id) {
    canvas_->setSelectedId(id);
    const int i = canvas_->indexOf(id);
    if (i >= 0) view_->ensureVisible(QRectF(canvas_->nodes()[static_cast<std::size_t>(i)].pos, QSizeF(1, 1)), 80, 80);
  });
  connect(session_, &ProjectSession::currentRunChanged, this, [this] {
    fitAfterLayout_ = true;
    reload();
  });
  // What the tree shows: candidates, elites, seals, the reference. A closed
  // dock lays out again only when shown.
  auto* lazy = new LazyRefresh(this, [this] { reload(); });
  // During a run the tree is laid out again at a pace its own cost sets (the
  // input is built and the layout drawn on the GUI thread): about a tenth of
  // the GUI's time at most.
  runPace_ = new QTimer(this);
  runPace_->setSingleShot(true);
  connect(runPace_, &QTimer::timeout, lazy, &LazyRefresh::request);
  connect(session_, &ProjectSession::candidatesChanged, this, [this, lazy] {
    if (!session_->runActive()) return lazy->request();
    if (!runPace_->isActive()) runPace_->start(std::clamp(10 * lastReloadMs_, 100, 5000));
  });
  connect(session_, &ProjectSession::archiveChanged, lazy, &LazyRefresh::request);
  connect(session_, &ProjectSession::sealsChanged, lazy, &LazyRefresh::request);
  connect(session_, &ProjectSession::projectClosed, this, &LineageView::reload);
  reload();
}

LineageView::~LineageView() {
  // A layout still running finishes on its own copy of the input; nobody waits for it.
  watcher_->disconnect(this);
}

QString LineageView::message() const { return stack_->currentWidget() == message_ ? message_->text() : QString(); }

void LineageView::showMessage(const QString& text) {
  // A layout still running for earlier data must not replace the message.
  watcher_->setFuture(QFuture<LineageLayout>());
  layoutPending_ = false;
  message_->setText(text);
  stack_->setCurrentWidget(message_);
  status_->clear();
}

int LineageView::shownCount() const {
  return stack_->currentWidget() == view_ ? static_cast<int>(canvas_->nodes().size()) : 0;
}

bool LineageView::isShown(CandidateId id) const { return shownCount() > 0 && canvas_->indexOf(id) >= 0; }

void LineageView::reload() {
  QElapsedTimer cost;
  cost.start();
  const auto measured = qScopeGuard([&] { lastReloadMs_ = static_cast<int>(cost.elapsed()); });
  summaries_.clear();
  byId_.clear();
  sealed_.clear();
  elites_.clear();
  bestPath_.clear();
  referenceId_ = 0;
  if (!session_->isOpen()) {
    canvas_->setGraph({}, {});
    showMessage(tr("No project open."));
    return;
  }
  const RunId run = session_->currentRun();
  if (run == 0) {
    canvas_->setGraph({}, {});
    showMessage(tr("This project has no runs yet: start one to grow a lineage."));
    return;
  }
  summaries_ = session_->candidates();
  for (std::size_t i = 0; i < summaries_.size(); ++i) byId_.emplace(summaries_[i].id, i);
  for (const Seal& s : session_->seals()) sealed_.insert(s.candidateId);
  for (const ArchiveCell& c : session_->archive())
    if (c.elite != 0) elites_.insert(c.elite);
  if (auto r = session_->run(run)) referenceId_ = r->referenceCandidate;

  // Architecture choices: keep the current one if it still exists.
  {
    const QSignalBlocker block(archBox_);
    archBox_->clear();
    archBox_->addItem(tr("All architectures"));
    std::set<std::string> keys;
    for (const auto& s : summaries_)
      if (!s.architectureKey.empty()) keys.insert(s.architectureKey);
    for (const auto& k : keys) archBox_->addItem(QString::fromStdString(k));
    const int i = archFilter_.isEmpty() ? 0 : archBox_->findText(archFilter_);
    archBox_->setCurrentIndex(std::max(0, i));
    if (i < 0) archFilter_.clear();
  }
  relayout();
}

bool LineageView::passesFilter(const CandidateSummary& s) const {
  if (!archFilter_.isEmpty() && QString::fromStdString(s.architectureKey) != archFilter_) return false;
  switch (filter_) {
    case Filter::All: return true;
    case Filter::OnlyValid: return s.status == CandidateStatus::Valid || s.status == CandidateStatus::Reference;
    case Filter::OnlyElites: return elites_.count(s.id) > 0;
  }
  return true;
}

void LineageView::setFilter(Filter filter) {
  filter_ = filter;
  const int i = filterBox_->findData(static_cast<int>(filter));
  if (i != filterBox_->currentIndex()) {
    const QSignalBlocker block(filterBox_);
    filterBox_->setCurrentIndex(i);
  }
  fitAfterLayout_ = true;
  relayout();
}

void LineageView::setArchitectureFilter(const QString& key) {
  archFilter_ = key;
  const int i = key.isEmpty() ? 0 : archBox_->findText(key);
  if (i >= 0 && i != archBox_->currentIndex()) {
    const QSignalBlocker block(archBox_);
    archBox_->setCurrentIndex(i);
  }
  fitAfterLayout_ = true;
  relayout();
}

void LineageView::relayout() {
  if (summaries_.empty()) {
    canvas_->setGraph({}, {});
    showMessage(tr("No candidates in this run yet."));
    return;
  }
  std::vector<LineageInput> all;
  all.reserve(summaries_.size());
  for (const auto& s : summaries_) all.push_back({s.id, s.parents});

  // The best path runs through the whole lineage, whatever the filter.
  CandidateId best = 0;
  double bestFitness = 0;
  for (const auto& s : summaries_)
    if (s.status == CandidateStatus::Valid && (best == 0 || s.fitness > bestFitness)) {
      best = s.id;
      bestFitness = s.fitness;
    }
  bestPath_ = best ? primaryPathToRoot(all, best) : std::vector<CandidateId>{};

  // Forget collapses of candidates no longer in the run (another run, or a reload).
  for (auto it = collapsed_.begin(); it != collapsed_.end();) it = byId_.count(*it) ? std::next(it) : collapsed_.erase(it);
  CollapsedSubtrees collapse = collapseSubtrees(all, collapsed_);
  hiddenBelow_ = std::move(collapse.hiddenBelow);
  auto input = filterLineage(all, [this, &collapse](CandidateId id) {
    return !collapse.hidden.count(id) && passesFilter(summaries_[byId_.at(id)]);
  });
  if (input.empty()) {
    canvas_->setGraph({}, {});
    showMessage(tr("No candidate of this run passes the filter (%1 candidates in the run).").arg(summaries_.size()));
    return;
  }
  auto promise = std::make_shared<QPromise<LineageLayout>>();
  watcher_->setFuture(promise->future());
  layoutPending_ = true;
  promise->start();
  // A thread of its own rather than Qt's pool: the input then crosses at
  // pthread_create, which ThreadSanitizer sees (Qt's pool queue it cannot).
  std::thread([promise, input = std::move(input)] {
    promise->addResult(layoutLineage(input));
    promise->finish();
  }).detach();
}

void LineageView::applyLayout(const LineageLayout& layout) {
  // Counted with the reload that asked for it: together they set the pace during a run.
  QElapsedTimer cost;
  cost.start();
  const auto measured = qScopeGuard([&] { lastReloadMs_ += static_cast<int>(cost.elapsed()); });
  const std::set<CandidateId> onPath(bestPath_.begin(), bestPath_.end());
  std::vector<CanvasNode> nodes;
  nodes.reserve(layout.nodes.size());
  for (const auto& p : layout.nodes) {
    const CandidateSummary& s = summaries_[byId_.at(p.id)];
    CanvasNode n;
    n.id = p.id;
    n.pos = QPointF(p.x * kSpacingX, p.depth * kSpacingY);
    n.fill = statusColor(s.status);
    if (s.speedup > 0) n.label = formatSpeedup(s.speedup);
    if (const auto h = hiddenBelow_.find(s.id); h != hiddenBelow_.end())
      n.label += (n.label.isEmpty() ? QString() : QStringLiteral(" ")) + QStringLiteral("+%1").arg(h->second);
    n.reference = s.status == CandidateStatus::Reference || s.id == referenceId_;
    n.sealed = sealed_.count(s.id) > 0;
    n.elite = elites_.count(s.id) > 0;
    n.onBestPath = onPath.count(s.id) > 0;
    nodes.push_back(std::move(n));
  }
  std::vector<CanvasEdge> edges;
  edges.reserve(layout.edges.size());
  for (const auto& e : layout.edges) {
    // On the best path when the child's primary parent is the next one up the path.
    const bool best = e.primary && nodes[static_cast<std::size_t>(e.child)].onBestPath &&
                      nodes[static_cast<std::size_t>(e.parent)].onBestPath;
    edges.push_back({e.child, e.parent, e.primary, best});
  }
  canvas_->setGraph(std::move(nodes), std::move(edges));
  canvas_->setSelectedId(session_->selectedCandidate());
  scene_->setSceneRect(canvas_->boundingRect());
  stack_->setCurrentWidget(view_);
  status_->setText(tr("%1 of %2 candidates shown").arg(canvas_->nodes().size()).arg(summaries_.size()));
  if (fitAfterLayout_) {
    fit();
    fitAfterLayout_ = false;
  }
}

void LineageView::fit() {
  if (canvas_->nodes().empty()) return;
  view_->fitInView(canvas_->boundingRect(), Qt::KeepAspectRatio);
  // A huge lineage fits as a speck: never zoom out below a legible overview.
  if (view_->transform().m11() < 0.05) view_->setTransform(QTransform::fromScale(0.05, 0.05));
}

void LineageView::setCollapsed(CandidateId id, bool collapsed) {
  const bool changed = collapsed ? collapsed_.insert(id).second : collapsed_.erase(id) > 0;
  if (changed) relayout();
}

QMenu* LineageView::contextMenuFor(CandidateId id, QWidget* parent) {
  auto* menu = new QMenu(parent);
  if (marked_.size() >= 2) {
    menu->addAction(tr("Compare the %1 marked candidates").arg(marked_.size()), this, [this] { emit compareRequested(marked_); });
    menu->addSeparator();
  }
  if (id != 0) {
    menu->addAction(tr("Select #%1").arg(id), this, [this, id] { session_->selectCandidate(id); });
    QAction* compare = menu->addAction(tr("Compare with parent"), this, [this, id] {
      session_->selectCandidate(id);  // the diff view shows the selected candidate against its first parent
      emit showViewRequested(QStringLiteral("diff"));
    });
    const auto it = byId_.find(id);
    compare->setEnabled(it != byId_.end() && !summaries_[it->second].parents.empty());
    const bool collapsed = isCollapsed(id);
    bool hasChildren = false;
    for (const auto& c : summaries_)
      if (!c.parents.empty() && c.parents.front() == id) {
        hasChildren = true;
        break;
      }
    QAction* fold = menu->addAction(collapsed ? tr("Expand sub-tree") : tr("Collapse sub-tree"), this,
                                    [this, id, collapsed] { setCollapsed(id, !collapsed); });
    fold->setEnabled(collapsed || hasChildren);
    menu->addAction(tr("Copy candidate id"), this,
                    [id] { QGuiApplication::clipboard()->setText(QString::number(id)); });
    // The main window opens the kernel editor on it (MainWindow::forkCandidate).
    menu->addAction(tr("Fork && edit"), this, [this, id] { emit forkRequested(id); });
    menu->addSeparator();
  }
  menu->addAction(fitAction_);
  return menu;
}

bool LineageView::findCandidate(CandidateId id) {
  const int i = canvas_->indexOf(id);
  if (shownCount() == 0 || i < 0) {
    status_->setText(byId_.count(id) ? tr("#%1 is hidden by the filter.").arg(id)
                                     : tr("#%1 is not in this run.").arg(id));
    return false;
  }
  view_->centerOn(canvas_->nodes()[static_cast<std::size_t>(i)].pos);
  session_->selectCandidate(id);
  return true;
}

QString LineageView::toolTipFor(CandidateId id) const {
  auto it = byId_.find(id);
  if (it == byId_.end()) return {};
  const CandidateSummary& s = summaries_[it->second];
  QStringList lines;
  lines << candidateFigures(s);
  if (!s.architectureKey.empty()) lines << tr("architecture: %1").arg(QString::fromStdString(s.architectureKey));
  if (!s.proposer.empty()) lines << tr("proposer: %1").arg(QString::fromStdString(s.proposer));
  if (s.parents.size() > 1) {
    QStringList ps;
    for (CandidateId p : s.parents) ps << QStringLiteral("#%1").arg(p);
    lines << tr("parents: %1").arg(ps.join(QStringLiteral(", ")));
  }
  if (s.id == referenceId_ || s.status == CandidateStatus::Reference) lines << tr("the run's reference");
  if (sealed_.count(s.id)) lines << tr("sealed");
  if (elites_.count(s.id)) lines << tr("elite of an archive cell");
  return lines.join(QLatin1Char('\n'));
}

}  // namespace crucible::views
