// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/mainwindow/table_columns.h"
#include <QHeaderView>
#include <QMenu>
#include <QScopedValueRollback>
#include <QSettings>
#include <QTableView>

namespace crucible::views {

TableColumns::TableColumns(QTableView* table) : QObject(table), table_(table), header_(table->horizontalHeader()) {
  header_->setContextMenuPolicy(Qt::CustomContextMenu);
  header_->setSectionsMovable(true);
  connect(header_, &QWidget::customContextMenuRequested, this,
          [this](const QPoint& pos) { showMenu(header_->viewport()->mapToGlobal(pos)); });
  connect(header_, &QHeaderView::sectionResized, this, [this] {
    if (!fitting_) userSized_ = true;
  });
}

void TableColumns::setDefaultHidden(const QList<int>& columns) {
  defaultHidden_ = columns;
  if (!userSized_)
    for (int c = 0; c < header_->count(); ++c) header_->setSectionHidden(c, defaultHidden_.contains(c));
}

void TableColumns::fit(bool evenIfUserSized) {
  if (userSized_ && !evenIfUserSized) return;
  const QScopedValueRollback guard(fitting_, true);
  const bool stretch = header_->stretchLastSection();
  header_->setStretchLastSection(false);  // the last column is measured, not stretched
  for (int c = 0; c < header_->count(); ++c) {
    if (header_->isSectionHidden(c)) continue;
    table_->resizeColumnToContents(c);  // contents and title
    const int title = header_->sectionSizeHint(c);
    header_->resizeSection(c, std::max(title, std::min(header_->sectionSize(c), kMaxFittedWidth)));
  }
  header_->setStretchLastSection(stretch);
  if (evenIfUserSized) userSized_ = false;
}

void TableColumns::reset() {
  for (int c = 0; c < header_->count(); ++c) {
    header_->setSectionHidden(c, defaultHidden_.contains(c));
    header_->moveSection(header_->visualIndex(c), c);
  }
  fit(true);
}

void TableColumns::save(const QString& key) const {
  QSettings settings;
  settings.setValue(key, header_->saveState());
  settings.setValue(key + QStringLiteral("UserSized"), userSized_);
}

bool TableColumns::restore(const QString& key) {
  QSettings settings;
  const QByteArray state = settings.value(key).toByteArray();
  if (state.isEmpty()) return false;
  const QScopedValueRollback guard(fitting_, true);
  if (!header_->restoreState(state)) {
    reset();
    return false;
  }
  // A state from a build with other columns: never leave every column hidden.
  if (header_->hiddenSectionCount() >= header_->count()) reset();
  userSized_ = settings.value(key + QStringLiteral("UserSized"), false).toBool();
  return true;
}

void TableColumns::showMenu(const QPoint& globalPos) {
  QMenu menu;
  QAbstractItemModel* model = table_->model();
  const int visible = header_->count() - header_->hiddenSectionCount();
  for (int c = 0; c < header_->count(); ++c) {
    QAction* a = menu.addAction(model->headerData(c, Qt::Horizontal).toString());
    a->setCheckable(true);
    a->setChecked(!header_->isSectionHidden(c));
    a->setEnabled(header_->isSectionHidden(c) || visible > 1);  // the last visible column stays
    connect(a, &QAction::toggled, this, [this, c](bool on) {
      header_->setSectionHidden(c, !on);
      if (on && header_->sectionSize(c) < header_->sectionSizeHint(c)) table_->resizeColumnToContents(c);
    });
  }
  menu.addSeparator();
  menu.addAction(tr("Fit columns to contents"), this, [this] { fit(true); });
  menu.addAction(tr("Reset columns"), this, &TableColumns::reset);
  menu.exec(globalPos);
}

}  // namespace crucible::views
