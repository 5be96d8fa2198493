// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/mainwindow/filtered_table.h"
#include <QComboBox>
#include <algorithm>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QScopedValueRollback>
#include <QTableView>
#include <QVBoxLayout>
#include "views/mainwindow/table_columns.h"
#include "views/models/model_roles.h"
#include "views/models/status_filter_proxy.h"

namespace crucible::views {

FilteredTable::FilteredTable(QAbstractItemModel* source, const QList<QPair<QString, QString>>& statuses, QWidget* parent)
    : QWidget(parent),
      source_(source),
      proxy_(new StatusFilterProxy(this)),
      text_(new QLineEdit(this)),
      status_(new QComboBox(this)),
      view_(new QTableView(this)),
      columns_(new TableColumns(view_)) {
  proxy_->setSourceModel(source_);

  text_->setPlaceholderText(tr("Filter…"));
  text_->setClearButtonEnabled(true);
  status_->addItem(tr("All statuses"), QString());
  for (const auto& [name, token] : statuses) status_->addItem(name, token);

  view_->setModel(proxy_);
  view_->setSortingEnabled(true);
  view_->sortByColumn(0, Qt::AscendingOrder);
  view_->setSelectionBehavior(QAbstractItemView::SelectRows);
  view_->setSelectionMode(QAbstractItemView::SingleSelection);
  view_->setAlternatingRowColors(true);
  view_->setWordWrap(false);
  view_->verticalHeader()->hide();
  // Fixed row heights and no size-to-contents keep 10,000+ rows fast.
  view_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  view_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
  view_->horizontalHeader()->setStretchLastSection(true);
  // Column widths follow the first rows only, so sizing stays cheap on 10,000+ rows;
  // each is capped so one long value leaves room for the others (until the user sizes them).
  view_->horizontalHeader()->setResizeContentsPrecision(50);
  connect(proxy_, &QAbstractItemModel::modelReset, columns_, [this] { columns_->fit(); });

  auto* filters = new QHBoxLayout;
  filters->addWidget(text_, 1);
  filters->addWidget(status_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(filters);
  layout->addWidget(view_, 1);

  connect(text_, &QLineEdit::textChanged, proxy_, &StatusFilterProxy::setTextFilter);
  connect(status_, &QComboBox::currentIndexChanged, this,
          [this](int i) { proxy_->setStatusFilter(status_->itemData(i).toString()); });
  connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) {
            if (selectingId_) return;
            emit currentIdChanged(current.isValid() ? current.data(IdRole).toLongLong() : 0);
          });
  connect(view_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &FilteredTable::selectionChanged);
}

void FilteredTable::setMultiSelection(bool on) {
  view_->setSelectionMode(on ? QAbstractItemView::ExtendedSelection : QAbstractItemView::SingleSelection);
}

QList<qint64> FilteredTable::selectedIds() const {
  QList<qint64> ids;
  for (const QModelIndex& row : view_->selectionModel()->selectedRows()) ids << row.data(IdRole).toLongLong();
  std::sort(ids.begin(), ids.end());
  return ids;
}

void FilteredTable::selectId(qint64 id) {
  const QModelIndex current = view_->currentIndex();
  if (current.isValid() && current.data(IdRole).toLongLong() == id) return;
  const QScopedValueRollback guard(selectingId_, true);
  const QModelIndexList hits =
      id == 0 ? QModelIndexList{}
              : proxy_->match(proxy_->index(0, 0), IdRole, QVariant::fromValue<qlonglong>(id), 1, Qt::MatchExactly);
  if (hits.isEmpty()) {
    view_->selectionModel()->clear();
    return;
  }
  view_->selectionModel()->setCurrentIndex(hits.first(),
                                           QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  view_->scrollTo(hits.first());
}

}  // namespace crucible::views
