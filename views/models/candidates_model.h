// SPDX-License-Identifier: GPL-3.0-or-later
// The candidates of the session's current run, one row each, from the store's
// light summaries (no sources, no samples) so 10,000+ rows stay cheap.
#pragma once
#include <QAbstractTableModel>
#include <QHash>
#include <vector>
#include "core/model/candidate.h"

namespace crucible::views {

class ProjectSession;

class CandidatesModel : public QAbstractTableModel {
  Q_OBJECT
public:
  enum Column { Id, Generation, Status, Architecture, Proposer, MedianUs, Speedup, Registers, ColumnCount };

  explicit CandidatesModel(ProjectSession* session, QObject* parent = nullptr);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

  const CandidateSummary* candidateAt(int row) const;
  int rowOf(CandidateId id) const;  // -1 when the candidate is not shown

public slots:
  // Catches up with the session's candidates of the current run. While the
  // run grows, rows already shown are updated in place and new ones
  // appended, so selections survive.
  void refresh();
  // The session's typed change: new and changed summaries (or a reset).
  void apply(const std::vector<crucible::CandidateSummary>& changed, bool reset);

private:
  void reload();  // resets the whole model (another run, another project)
  ProjectSession* session_;
  RunId run_ = 0;
  std::vector<CandidateSummary> rows_;
  QHash<CandidateId, int> rowById_;
};

}  // namespace crucible::views
