// SPDX-License-Identifier: GPL-3.0-or-later
// Sorts a Crucible table by its SortRole and filters it by free text (any
// column, case-insensitive) and by one status (StatusRole).
#pragma once
#include <QSortFilterProxyModel>

namespace crucible::views {

class StatusFilterProxy : public QSortFilterProxyModel {
  Q_OBJECT
public:
  explicit StatusFilterProxy(QObject* parent = nullptr);

  QString statusFilter() const { return status_; }

public slots:
  // Only rows whose StatusRole equals status are shown; empty shows all.
  void setStatusFilter(const QString& status);
  void setTextFilter(const QString& text);

protected:
  bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
  QString status_;
};

}  // namespace crucible::views
