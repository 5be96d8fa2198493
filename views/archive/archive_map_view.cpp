// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/archive/archive_map_view.h"
#include <QMenu>

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>
#include "views/archive/archive_grid_model.h"
#include "views/common/lazy_refresh.h"
#include "views/common/message_stack.h"
#include "views/session/project_session.h"

namespace crucible::views {

ArchiveMapView::ArchiveMapView(ProjectSession* session, QWidget* parent) : QWidget(parent), session_(session) {
  xBox_ = new QComboBox(this);
  yBox_ = new QComboBox(this);
  xBox_->setObjectName(QStringLiteral("archiveX"));
  yBox_->setObjectName(QStringLiteral("archiveY"));
  summary_ = new QLabel(this);
  auto* bar = new QHBoxLayout;
  bar->addWidget(new QLabel(tr("Columns:"), this));
  bar->addWidget(xBox_);
  bar->addWidget(new QLabel(tr("Rows:"), this));
  bar->addWidget(yBox_);
  bar->addWidget(summary_, 1);

  model_ = new ArchiveGridModel(this);
  table_ = new QTableView(this);
  table_->setModel(model_);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  table_->verticalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  stack_ = new MessageStack(table_, this);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(bar);
  layout->addWidget(stack_, 1);

  connect(xBox_, &QComboBox::currentIndexChanged, this, &ArchiveMapView::rebuild);
  connect(yBox_, &QComboBox::currentIndexChanged, this, &ArchiveMapView::rebuild);
  connect(table_, &QTableView::clicked, this, [this](const QModelIndex& i) { selectCell(i.row(), i.column()); });
  table_->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(table_, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
    QMenu* menu = contextMenuFor(table_->indexAt(pos), table_);
    if (!menu) return;
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(table_->viewport()->mapToGlobal(pos));
  });
  connect(session_, &ProjectSession::candidateSelected, this, [this](CandidateId id) {
    const QModelIndex i = model_->indexOfElite(id);
    if (i.isValid()) table_->setCurrentIndex(i);
    else table_->clearSelection();
  });
  connect(session_, &ProjectSession::currentRunChanged, this, &ArchiveMapView::reload);
  // Only a change of the archive redraws it; a closed dock catches up when shown.
  auto* lazy = new LazyRefresh(this, [this] { reload(); });
  connect(session_, &ProjectSession::archiveChanged, lazy, &LazyRefresh::request);
  connect(session_, &ProjectSession::projectClosed, this, &ArchiveMapView::reload);
  reload();
}

QString ArchiveMapView::message() const { return stack_->message(); }

void ArchiveMapView::reload() {
  elites_.clear();
  const bool open = session_->isOpen();
  const RunId run = session_->currentRun();
  if (open && run) {
    for (const ArchiveCell& cell : session_->archive()) {
      if (cell.elite == 0) continue;
      elites_.push_back(ArchiveElite{cell.elite, cell.fitness, session_->eliteDescriptor(cell.elite)});
    }
  }
  // Dimension choices; keep the chosen ones when they still exist.
  const QString x = xBox_->currentText(), y = yBox_->currentText();
  {
    const QSignalBlocker bx(xBox_), by(yBox_);
    xBox_->clear();
    yBox_->clear();
    for (const auto& d : descriptorDimensions(elites_)) {
      xBox_->addItem(QString::fromStdString(d));
      yBox_->addItem(QString::fromStdString(d));
    }
    const int n = xBox_->count();
    xBox_->setCurrentIndex(xBox_->findText(x) >= 0 ? xBox_->findText(x) : 0);
    yBox_->setCurrentIndex(yBox_->findText(y) >= 0 ? yBox_->findText(y) : (n > 1 ? 1 : 0));
  }
  if (!open) stack_->setMessage(tr("No project open."));
  else if (!run) stack_->setMessage(tr("This project has no runs yet."));
  else if (elites_.empty()) stack_->setMessage(tr("The archive of this run is empty: no candidate has been placed in a cell yet."));
  rebuild();
}

void ArchiveMapView::setAxes(const QString& x, const QString& y) {
  const QSignalBlocker bx(xBox_), by(yBox_);
  if (xBox_->findText(x) >= 0) xBox_->setCurrentIndex(xBox_->findText(x));
  if (yBox_->findText(y) >= 0) yBox_->setCurrentIndex(yBox_->findText(y));
  rebuild();
}

void ArchiveMapView::rebuild() {
  if (elites_.empty()) {
    model_->setGrid({});
    summary_->clear();
    stack_->showMessage();
    return;
  }
  // A single dimension is shown against itself: one row per value would be a diagonal,
  // so with one dimension the rows fold everything.
  const std::string xd = xBox_->currentText().toStdString();
  const std::string yd = xBox_->count() > 1 ? yBox_->currentText().toStdString() : std::string();
  model_->setGrid(buildArchiveGrid(elites_, xd, yd));
  const auto& g = model_->grid();
  summary_->setText(tr("%1 archive cells, %2 of %3 shown cells filled").arg(elites_.size()).arg(g.filled).arg(g.xValues.size() * g.yValues.size()));
  stack_->showContent();
  const QModelIndex sel = model_->indexOfElite(session_->selectedCandidate());
  if (sel.isValid()) table_->setCurrentIndex(sel);
}

QMenu* ArchiveMapView::contextMenuFor(const QModelIndex& cell, QWidget* parent) {
  const CandidateId elite = cell.isValid() ? model_->data(cell, ArchiveGridModel::EliteRole).toLongLong() : 0;
  if (elite == 0) return nullptr;
  auto* menu = new QMenu(parent);
  menu->addAction(tr("Select #%1").arg(elite), this, [this, elite] { session_->selectCandidate(elite); });
  menu->addAction(tr("Fork && edit #%1").arg(elite), this, [this, elite] { emit forkRequested(elite); });
  return menu;
}

void ArchiveMapView::selectCell(int row, int column) {
  const QModelIndex i = model_->index(row, column);
  const CandidateId elite = model_->data(i, ArchiveGridModel::EliteRole).toLongLong();
  if (elite != 0) session_->selectCandidate(elite);
}

}  // namespace crucible::views
