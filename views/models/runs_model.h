// SPDX-License-Identifier: GPL-3.0-or-later
// The project's runs, one row each, read through the session's store.
#pragma once
#include <QAbstractTableModel>
#include <QHash>
#include <vector>
#include "core/model/run.h"
#include "core/model/task.h"

namespace crucible::views {

class ProjectSession;

class RunsModel : public QAbstractTableModel {
  Q_OBJECT
public:
  enum Column { Id, Name, Task, Status, Proposer, Evaluations, BestSpeedup, Created, ColumnCount };

  explicit RunsModel(ProjectSession* session, QObject* parent = nullptr);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  const Run* runAt(int row) const;
  int rowOf(RunId id) const;  // -1 when the run is not shown

public slots:
  // Re-reads the runs; rows already shown are updated in place, new ones appended.
  void refresh();

private:
  void reload();
  ProjectSession* session_;
  std::vector<Run> runs_;
  QHash<TaskId, QString> taskNames_;
};

}  // namespace crucible::views
