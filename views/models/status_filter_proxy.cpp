// SPDX-License-Identifier: GPL-3.0-or-later
#include "views/models/status_filter_proxy.h"
#include "views/models/model_roles.h"

namespace crucible::views {

StatusFilterProxy::StatusFilterProxy(QObject* parent) : QSortFilterProxyModel(parent) {
  setSortRole(SortRole);
  setFilterKeyColumn(-1);
  setFilterCaseSensitivity(Qt::CaseInsensitive);
  setDynamicSortFilter(true);
}

void StatusFilterProxy::setStatusFilter(const QString& status) {
  if (status == status_) return;
  status_ = status;
  invalidateFilter();
}

void StatusFilterProxy::setTextFilter(const QString& text) { setFilterFixedString(text); }

bool StatusFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
  if (!status_.isEmpty()) {
    const QModelIndex first = sourceModel()->index(sourceRow, 0, sourceParent);
    if (first.data(StatusRole).toString() != status_) return false;
  }
  return QSortFilterProxyModel::filterAcceptsRow(sourceRow, sourceParent);
}

}  // namespace crucible::views
