// SPDX-License-Identifier: GPL-3.0-or-later
// An ArchiveGrid as a table: rows are the y values, columns the x values;
// each filled cell shows its best fitness, coloured on one scale.
#pragma once
#include <QAbstractTableModel>
#include "views/archive/archive_grid.h"

namespace crucible::views {

class ArchiveGridModel : public QAbstractTableModel {
  Q_OBJECT
public:
  static constexpr int EliteRole = Qt::UserRole + 1;

  explicit ArchiveGridModel(QObject* parent = nullptr);
  void setGrid(ArchiveGrid grid);
  const ArchiveGrid& grid() const { return grid_; }
  QModelIndex indexOfElite(CandidateId id) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;

private:
  ArchiveGrid grid_;
};

}  // namespace crucible::views
