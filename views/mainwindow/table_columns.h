// SPDX-License-Identifier: GPL-3.0-or-later
// The columns of a table as users arrange them: a header context menu to
// show or hide each column (the column chooser), widths fitted to contents
// but capped so one long value cannot push the others out of sight, and the
// arrangement saved per user in QSettings.
#pragma once
#include <QList>
#include <QObject>
#include <QString>

class QHeaderView;
class QTableView;

namespace crucible::views {

class TableColumns : public QObject {
  Q_OBJECT
public:
  // The widest a column is made by fitting (a header never narrower than its title).
  static constexpr int kMaxFittedWidth = 200;

  explicit TableColumns(QTableView* table);

  // Columns hidden until the user shows them (and again after "Reset columns").
  void setDefaultHidden(const QList<int>& columns);
  // Fits the visible columns to their contents and titles, each at most
  // kMaxFittedWidth; skipped once the user has set widths (or they were restored).
  void fit(bool evenIfUserSized = false);
  // Back to the default: default columns shown, fitted.
  void reset();
  // The header's state (widths, hidden columns, order) under key in QSettings.
  void save(const QString& key) const;
  // false (and the default arrangement) when nothing usable is saved under key.
  bool restore(const QString& key);
  // The menu of the header's context menu: one checkable entry per column.
  void showMenu(const QPoint& globalPos);
  bool userSized() const { return userSized_; }

private:
  QTableView* table_;
  QHeaderView* header_;
  QList<int> defaultHidden_;
  bool fitting_ = false;
  bool userSized_ = false;
};

}  // namespace crucible::views
