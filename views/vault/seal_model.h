// SPDX-License-Identifier: GPL-3.0-or-later
// The project's sealed kernels, newest first.
#pragma once
#include <QAbstractTableModel>
#include <map>
#include <vector>
#include "core/model/seal.h"

namespace crucible::views {

class SealModel : public QAbstractTableModel {
  Q_OBJECT
public:
  enum Column { Task, Candidate, Speedup, Median, Gpu, SealedAt, ColumnCount };

  explicit SealModel(QObject* parent = nullptr);
  // taskNames: TaskId -> name, for the Task column.
  void setSeals(std::vector<Seal> seals, std::map<TaskId, QString> taskNames);
  const Seal* sealAt(int row) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
  std::vector<Seal> seals_;
  std::map<TaskId, QString> taskNames_;
};

}  // namespace crucible::views
