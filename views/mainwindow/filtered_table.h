// SPDX-License-Identifier: GPL-3.0-or-later
// A table of one Crucible model with a text filter and a status filter above
// it, sorted and filtered through a StatusFilterProxy. Reports the id
// (IdRole) of the current row.
#pragma once
#include <QList>
#include <QPair>
#include <QWidget>

class QAbstractItemModel;
class QComboBox;
class QLineEdit;
class QTableView;

namespace crucible::views {

class StatusFilterProxy;
class TableColumns;

class FilteredTable : public QWidget {
  Q_OBJECT
public:
  // statuses: what the status filter offers (besides "all"): each status's
  // name as shown (translated) and its token (the model's StatusRole).
  FilteredTable(QAbstractItemModel* source, const QList<QPair<QString, QString>>& statuses, QWidget* parent = nullptr);

  QTableView* view() const { return view_; }
  StatusFilterProxy* proxy() const { return proxy_; }
  QLineEdit* textFilter() const { return text_; }
  QComboBox* statusFilter() const { return status_; }
  // The column chooser (header context menu), fitting and saving the columns.
  TableColumns* columns() const { return columns_; }
  // Several rows selectable at once (Ctrl/Shift-click): the current row stays
  // the one every view follows; selectedIds() are all the selected ones.
  void setMultiSelection(bool on);
  QList<qint64> selectedIds() const;

public slots:
  // Makes the row with this id current (clears the selection when it is not shown).
  void selectId(qint64 id);

signals:
  // The id of the new current row; 0 when no row is current.
  void currentIdChanged(qint64 id);
  // The set of selected rows changed (see selectedIds()).
  void selectionChanged();

private:
  QAbstractItemModel* source_;
  StatusFilterProxy* proxy_;
  QLineEdit* text_;
  QComboBox* status_;
  QTableView* view_;
  TableColumns* columns_;
  bool selectingId_ = false;  // selectId() moves the current row: not a user's choice, not re-announced
};

}  // namespace crucible::views
